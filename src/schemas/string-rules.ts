import { z } from 'zod';
import { characterCount } from '../domain/character-count.js';
import { stateInJsonSchema, type JsonSchemaKeywords } from './json-schema-keywords.js';

/**
 * One rule of {@link stringRules}. `min` and `max` count Unicode code points, as zod's
 * `.min()` and `.max()` do; `pattern` is zod's `.regex()`; `refine` is `.refine()`; `problem`
 * is a `.superRefine()` that reports at most one issue: its message, or null when the text passes.
 */
export type StringRule =
  | { readonly min: number; readonly message: string }
  | { readonly max: number; readonly message: string }
  | { readonly pattern: RegExp; readonly message: string }
  | {
      readonly refine: (text: string) => boolean;
      readonly message: string;
      readonly jsonSchema?: JsonSchemaKeywords;
    }
  | { readonly problem: (text: string) => string | null };

const MIN = 0;
const MAX = 1;
const PATTERN = 2;
const REFINE = 3;
const PROBLEM = 4;

/** A rule in one shape for all kinds, so that the loop over the rules stays monomorphic. */
interface FlatRule {
  readonly kind: typeof MIN | typeof MAX | typeof PATTERN | typeof REFINE | typeof PROBLEM;
  readonly limit: number;
  readonly pattern: RegExp;
  readonly test: (text: string) => boolean;
  readonly problem: (text: string) => string | null;
  readonly message: string;
}

const NEVER_MATCHED = /$^/;
const passes = (): boolean => true;
const noProblem = (): null => null;

function flatten(rule: StringRule): FlatRule {
  const base = { limit: 0, pattern: NEVER_MATCHED, test: passes, problem: noProblem, message: '' };
  if ('min' in rule) return { ...base, kind: MIN, limit: rule.min, message: rule.message };
  if ('max' in rule) return { ...base, kind: MAX, limit: rule.max, message: rule.message };
  if ('pattern' in rule) return { ...base, kind: PATTERN, pattern: rule.pattern, message: rule.message };
  if ('refine' in rule) return { ...base, kind: REFINE, test: rule.refine, message: rule.message };
  return { ...base, kind: PROBLEM, problem: rule.problem };
}

/** The message of `rule` when `text` breaks it, else null; the same tests as zod's own checks. */
function failure(rule: FlatRule, text: string): string | null {
  switch (rule.kind) {
    case MIN: {
      const units = text.length;
      const length = units >= rule.limit && units < rule.limit * 2 ? characterCount(text) : units;
      return length < rule.limit ? rule.message : null;
    }
    case MAX: {
      const units = text.length;
      const length = units > rule.limit ? characterCount(text) : units;
      return length > rule.limit ? rule.message : null;
    }
    case PATTERN:
      rule.pattern.lastIndex = 0;
      return rule.pattern.test(text) ? null : rule.message;
    case REFINE:
      return rule.test(text) ? null : rule.message;
    case PROBLEM:
      return rule.problem(text);
  }
}

/** The issue zod's own check for `rule` raises (code and details), with `message`. */
function issueFor(rule: FlatRule, text: string, message: string): z.core.$ZodRawIssue {
  switch (rule.kind) {
    case MIN:
      return {
        origin: 'string',
        code: 'too_small',
        minimum: rule.limit,
        inclusive: true,
        input: text,
        message,
        continue: true,
      };
    case MAX:
      return {
        origin: 'string',
        code: 'too_big',
        maximum: rule.limit,
        inclusive: true,
        input: text,
        message,
        continue: true,
      };
    case PATTERN:
      return {
        origin: 'string',
        code: 'invalid_format',
        format: 'regex',
        pattern: rule.pattern.toString(),
        input: text,
        message,
        continue: true,
      };
    case REFINE:
      return { code: 'custom', path: [], input: text, message, continue: true };
    case PROBLEM:
      return { code: 'custom', input: text, message, continue: true };
  }
}

/**
 * One zod check that applies `rules` in order, for `z.string().check(stringRules([...]))`: the
 * same issues, in the same order, as the chain of zod checks it stands for (`.min()`, `.max()`,
 * `.regex()`, `.refine()`, `.superRefine()`), at the cost of one check instead of one per rule.
 * Every rule is tested, as zod tests every check of a chain. The length bounds and patterns
 * reach JSON Schema (`minLength`, `maxLength`, `pattern`) through the schema's bag, which zod's JSON
 * Schema conversion reads beside its own checks, so the rules are the single source of both; a
 * `refine` rule's `jsonSchema` keywords go there too (`stateInJsonSchema`). One
 * difference: after a failed type check no rule runs, where zod's `.min()` and `.max()` would
 * still measure an array; the type issue comes first at that path either way.
 */
export function stringRules(rules: readonly StringRule[]): z.core.$ZodCheck<string> {
  const flat = rules.map(flatten);
  const check: z.core.$ZodCheck<string> = new z.core.$ZodCheck({ check: 'custom' });
  check._zod.check = (payload) => {
    const text = payload.value;
    for (const rule of flat) {
      const message = failure(rule, text);
      if (message !== null) payload.issues.push(issueFor(rule, text, message));
    }
  };
  check._zod.onattach.push((schema) => {
    const bag = schema._zod.bag;
    const patterns = new Set<RegExp>(bag['patterns'] instanceof Set ? (bag['patterns'] as Set<RegExp>) : []);
    for (const rule of flat) {
      if (rule.kind === MIN) bag['minimum'] = Math.max(rule.limit, (bag['minimum'] as number | undefined) ?? -Infinity);
      if (rule.kind === MAX) bag['maximum'] = Math.min(rule.limit, (bag['maximum'] as number | undefined) ?? Infinity);
      if (rule.kind === PATTERN) patterns.add(rule.pattern);
    }
    if (patterns.size > 0) bag['patterns'] = patterns;
    for (const rule of rules) {
      if ('refine' in rule && rule.jsonSchema !== undefined) stateInJsonSchema(schema, rule.jsonSchema);
    }
  });
  return check;
}
