import { z } from 'zod';
import { containsCardNumber } from '../domain/card-number.js';

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

/**
 * `schema` refusing what no store keeps as sent: control characters and lone surrogates
 * (Postgres refuses NUL and lone surrogates; a client must get a 400 for them, not a 503).
 */
function storable(schema: z.ZodString) {
  return schema.regex(CONTROL_CHARACTERS, CONTROL_CHARACTER_IN_TEXT).refine(isWellFormedText, NOT_UNICODE);
}

/** Text a store can keep as it came (`storable`), at most `max` characters. */
export function plainText(max: number) {
  return storable(z.string().max(max, `Must be at most ${max} characters`));
}

/** The message for free text holding a card number (`containsCardNumber`); it never repeats the text. */
export const CARD_NUMBER_IN_TEXT = 'Must not contain a card number';

/** Free text that holds no card number: a card number typed into the wrong field is refused, not stored. */
export function noCardNumber<T extends z.ZodType<string>>(schema: T) {
  return schema.refine((text) => !containsCardNumber(text), CARD_NUMBER_IN_TEXT);
}

/** A required free-text field: not blank, plain text (`plainText`), no card number, at most `max` characters. */
export function requiredText(max: number, min = 1) {
  return noCardNumber(
    storable(
      z
        .string()
        .min(min, min === 1 ? 'Must not be empty' : `Must be at least ${min} characters`)
        .max(max, `Must be at most ${max} characters`)
        .regex(NOT_BLANK, 'Must not be blank'),
    ),
  );
}

/** An optional free-text field: at most `max` characters, plain text (`plainText`), no card number. */
export function optionalText(max: number) {
  return noCardNumber(plainText(max)).optional();
}
