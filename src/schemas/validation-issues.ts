import { z } from 'zod';
import { containsCardNumber } from '../domain/card-number.js';
import type { ValidationIssue } from '../errors/payment-error.js';

type Segment = string | number;

/** An issue before it is made safe to show: path as segments, plus what the typo hints need. */
export interface RawIssue {
  readonly path: readonly Segment[];
  readonly message: string;
  /** Set on "Required" issues: the missing key. */
  readonly missing?: string;
  /** Set on "Unknown field" issues: the unexpected key. */
  readonly unknown?: string;
}

/** `ValidationIssue` as a schema, for the `errors` member of a problem-details body. */
export const validationIssueSchema = z.object({ path: z.string(), message: z.string() });

const MAX_ISSUES = 100;
const MAX_SEGMENT = 64;
const MAX_PATH = 256;
const MAX_MESSAGE = 300;
const REDACTED = '[redacted]';
// A card number a client typed into a key, possibly split: 12+ digits, each at most 3 non-alphanumerics apart.
const CARD_LIKE_IN_PATH = /\d(?:[^0-9A-Za-z]{0,3}\d){11,}/g;
// Messages are our own text (a hint names only a key close to a field name); any run of 12+ digits
// (spaces or dashes allowed) is still masked.
const CARD_LIKE_IN_MESSAGE = /\d(?:[ -]?\d){11,}/g;

const ZOD_DEFAULT_TYPE_MESSAGE = 'Invalid input';
const EXPECTED: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
};

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The value at `path` in the raw input, following own properties only. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const toSegments = (path: readonly PropertyKey[]): Segment[] =>
  path.map((k) => (typeof k === 'number' ? k : String(k)));

/**
 * Turns zod issues into raw issues with our own messages. `input` is the raw input, used
 * only to tell a missing field from a wrong type; no value of it ever reaches a message.
 */
export function fromZodIssues(issues: readonly z.core.$ZodIssue[], input: unknown): RawIssue[] {
  const out: RawIssue[] = [];
  for (const issue of issues) {
    const path = toSegments(issue.path);
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) out.push({ path: [...path, key], message: 'Unknown field', unknown: key });
        break;
      case 'invalid_type':
      case 'invalid_value':
      case 'invalid_union': {
        const value = valueAt(input, issue.path);
        const last = path[path.length - 1];
        if (value === undefined) {
          out.push({ path, message: 'Required', ...(typeof last === 'string' && { missing: last }) });
        } else if (issue.code === 'invalid_type' && issue.message.startsWith(ZOD_DEFAULT_TYPE_MESSAGE)) {
          const expected = EXPECTED[issue.expected] ?? issue.expected;
          out.push({ path, message: `Expected ${expected} (received ${typeName(value)})` });
        } else {
          out.push({ path, message: issue.message });
        }
        break;
      }
      case 'custom': {
        const last = path[path.length - 1];
        const missing = issue.params?.['missing'] === true && typeof last === 'string';
        out.push({ path, message: issue.message, ...(missing && { missing: last }) });
        break;
      }
      default:
        out.push({ path, message: issue.message });
    }
  }
  return out;
}

function editDistanceAtMost2(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 2 || a.length > MAX_SEGMENT) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = row;
  }
  return (previous[b.length] ?? 3) <= 2;
}

const parentKey = (path: readonly Segment[]): string => JSON.stringify(path.slice(0, -1));

/**
 * A misspelt key (`scree_height`) beside a missing required key (`screen_height`) of the same
 * object becomes one issue: the "Required" one, with a hint naming the misspelling.
 */
function mergeMisspellings(issues: readonly RawIssue[]): RawIssue[] {
  const unknown = issues
    .filter((i) => i.unknown !== undefined && i.unknown.length >= 4)
    .map((issue) => ({ issue, key: issue.unknown ?? '', parent: parentKey(issue.path) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (unknown.length === 0) return [...issues];
  const absorbed = new Set<RawIssue>();
  const hints = new Map<RawIssue, string>();
  for (const missing of issues) {
    if (missing.missing === undefined) continue;
    const parent = parentKey(missing.path);
    const name = missing.missing;
    // Candidates are sorted by key, so the choice does not depend on the order of the input's keys.
    const match = unknown.find(
      (u) => u.parent === parent && !absorbed.has(u.issue) && editDistanceAtMost2(u.key, name),
    );
    if (match === undefined) continue;
    absorbed.add(match.issue);
    hints.set(missing, `Required (found \`${match.key}\`: the field is spelled \`${name}\`)`);
  }
  return issues
    .filter((i) => !absorbed.has(i))
    .map((i) => {
      const hint = hints.get(i);
      return hint === undefined ? i : { ...i, message: hint };
    });
}

function comparePaths(a: readonly Segment[], b: readonly Segment[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as Segment;
    const y = b[i] as Segment;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

// A key that holds a card number as a reader would see it (full-width digits, digits of other scripts,
// invisible characters between them: `containsCardNumber`) is masked whole: ASCII patterns miss those.
function safeSegment(segment: Segment): string {
  if (typeof segment === 'number') return String(segment);
  return containsCardNumber(segment) ? REDACTED : cap(segment.replace(CARD_LIKE_IN_PATH, REDACTED), MAX_SEGMENT);
}

function safePath(path: readonly Segment[]): string {
  const joined = cap(path.map(safeSegment).join('.').replace(CARD_LIKE_IN_PATH, REDACTED), MAX_PATH);
  // Groups of a number split over several keys ("４２４２.４２４２…").
  return containsCardNumber(joined) ? REDACTED : joined;
}

function safeMessage(message: string): string {
  return cap(message.replace(CARD_LIKE_IN_MESSAGE, REDACTED), MAX_MESSAGE);
}

/**
 * Makes raw issues safe and stable: misspellings merged, sorted by path (array indices
 * numerically), one issue per path (the first found), card-like digit runs masked in paths and
 * messages, lengths capped, at most 100 issues.
 */
export function finalizeIssues(raw: readonly RawIssue[]): ValidationIssue[] {
  const sorted = mergeMisspellings(raw).sort((a, b) => comparePaths(a.path, b.path));
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const issue of sorted) {
    const path = safePath(issue.path);
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ path, message: safeMessage(issue.message) });
  }
  if (out.length <= MAX_ISSUES) return out;
  const shown = out.slice(0, MAX_ISSUES - 1);
  shown.push({ path: '', message: `${out.length - shown.length} more issues not shown` });
  return shown;
}
