/** What a redacted value is replaced with. */
export const REDACTED = '[redacted]';

/** Keys whose values are never logged, compared lower case without `_` and `-`. */
const SENSITIVE_KEYS: ReadonlySet<string> = new Set(['number', 'cardnumber', 'pan', 'cvc', 'cvc2', 'cvv', 'cvv2']);

/**
 * 12 to 19 digits, optionally grouped by single spaces or dashes ("4242 4242 4242 4242"), not
 * glued to letters or digits on either side: a possible card number. An unbroken run of more
 * than 19 digits (such as the digits of a hex id) is left alone.
 */
const CARD_NUMBER_LIKE = /(?<![0-9A-Za-z])\d(?:[ -]?\d){11,18}(?![0-9A-Za-z])/g;

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));
}

/** Replaces everything that looks like a card number in `text`. */
export function redactCardNumbers(text: string): string {
  return text.replace(CARD_NUMBER_LIKE, REDACTED);
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
