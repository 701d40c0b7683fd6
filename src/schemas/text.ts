import { z } from 'zod';
import { containsCardNumber } from '../domain/card-number.js';
import { stringRules, type StringRule } from './string-rules.js';

// C0 controls, DEL and C1 controls: never part of a name or an address.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
const NOT_BLANK = /\S/;

/** The message for text with lone UTF-16 surrogates: not Unicode text, and no store keeps it as sent. */
export const NOT_UNICODE = 'Must be valid Unicode text';

/** The message for text with control characters (C0, DEL, C1). */
export const CONTROL_CHARACTER_IN_TEXT = 'Must not contain control characters';

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `text` is well-formed UTF-16 (`String.prototype.isWellFormed`, which ES2023's types lack). */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** `.max(max)` as a rule, with the message every text field gives. */
export function atMostCharacters(max: number): StringRule {
  return { max, message: `Must be at most ${max} characters` };
}

/**
 * What no store keeps as sent: control characters and lone surrogates (Postgres refuses NUL and
 * lone surrogates; a client must get a 400 for them, not a 503).
 */
const STORABLE: readonly StringRule[] = [
  { pattern: CONTROL_CHARACTERS, message: CONTROL_CHARACTER_IN_TEXT },
  { refine: isWellFormedText, message: NOT_UNICODE },
];

/** Text a store can keep as it came (`STORABLE`), at most `max` characters. */
function plainText(max: number): readonly StringRule[] {
  return [atMostCharacters(max), ...STORABLE];
}

/** The message for free text holding a card number (`containsCardNumber`); it never repeats the text. */
export const CARD_NUMBER_IN_TEXT = 'Must not contain a card number';

/** Free text that holds no card number: a card number typed into the wrong field is refused, not stored. */
export const NO_CARD_NUMBER: StringRule = { refine: (text) => !containsCardNumber(text), message: CARD_NUMBER_IN_TEXT };

/** A required free-text field: `min` to `max` characters, not blank, storable (`STORABLE`), no card number. */
export function requiredText(max: number, min = 1) {
  return z
    .string()
    .check(
      stringRules([
        { min, message: min === 1 ? 'Must not be empty' : `Must be at least ${min} characters` },
        atMostCharacters(max),
        { pattern: NOT_BLANK, message: 'Must not be blank' },
        ...STORABLE,
        NO_CARD_NUMBER,
      ]),
    );
}

/** An optional free-text field: at most `max` characters, plain text (`plainText`), no card number. */
export function optionalText(max: number) {
  return z
    .string()
    .check(stringRules([...plainText(max), NO_CARD_NUMBER]))
    .optional();
}
