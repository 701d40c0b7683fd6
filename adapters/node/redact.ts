/** What a redacted value is replaced with. */
export const REDACTED = '[redacted]';

/** Keys whose values are never logged, compared lower case without `_` and `-`. */
const SENSITIVE_KEYS: ReadonlySet<string> = new Set([
  'number',
  'cardnumber',
  'pan',
  'primaryaccountnumber',
  'cvc',
  'cvc2',
  'cvv',
  'cvv2',
  'csc',
  'securitycode',
  'cardsecuritycode',
]);

/**
 * A possible card number: 12 to 19 digits of any script, each joined to the next by up to three
 * separators people type in one ("4242 4242…", "4242.4242…"), not glued to letters or digits.
 */
const CARD_NUMBER_LIKE =
  /(?<![\p{L}\p{Nd}])\p{Nd}(?:[\s\p{Pd}\u2212./_,*\u2022\u00b7|#;:+]{0,3}\p{Nd}){11,18}(?![\p{L}\p{Nd}])/gu;

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));
}

/** An IPv4 address (12 digits at most, never in groups of four): what a dotted run may also be. */
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** Replaces everything that looks like a card number in `text` with `[redacted]` (IPv4 addresses excepted). */
export function redactCardNumbers(text: string): string {
  return text.replace(CARD_NUMBER_LIKE, (run) => (IPV4.test(run) ? run : REDACTED));
}

const MAX_DEPTH = 8;

/**
 * A JSON-safe copy of `value` with sensitive keys redacted, errors reduced to name and
 * message, and cycles, bigints, functions and symbols made printable. Digits are redacted
 * later, on the rendered line.
 */
export function sanitize(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'undefined':
      return null;
    case 'function':
      return '[function]';
    case 'symbol':
      return value.toString();
  }
  if (value === null) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  const object = value as object;
  if (seen.has(object)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[…]';
  seen.add(object);
  try {
    if (Array.isArray(object)) return object.map((item) => sanitize(item, depth + 1, seen));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(object)) {
      copy[key] = isSensitiveKey(key) ? REDACTED : sanitize(item, depth + 1, seen);
    }
    return copy;
  } finally {
    seen.delete(object);
  }
}

/** `value` (already `sanitize`d) with card numbers redacted in every string, key and number, at any depth. */
function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redactCardNumbers(value);
  if (typeof value === 'number') return redactCardNumbers(String(value)) === String(value) ? value : REDACTED;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map(redactDeep);
    // Digits split over items ([4242, 4242, 4242, 4242]) read as one number once written out.
    const text = JSON.stringify(items);
    return redactCardNumbers(text) === text ? items : REDACTED;
  }
  const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) copy[redactCardNumbers(key)] = redactDeep(item);
  return copy;
}

/**
 * `fields` made safe to hand to any structured log output (a JSON line, pino): `sanitize`d (sensitive
 * keys, errors, cycles), then card numbers redacted in every string, key and number, nested ones too.
 */
export function scrubLogFields(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const scrubbed = redactDeep(sanitize(fields ?? {}));
  return typeof scrubbed === 'object' && scrubbed !== null && !Array.isArray(scrubbed)
    ? (scrubbed as Record<string, unknown>)
    : { fields: scrubbed };
}
