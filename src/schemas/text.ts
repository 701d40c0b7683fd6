import { z } from 'zod';
import { containsCardNumber } from '../domain/card-number.js';

// C0 controls and DEL: never part of a name or an address.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;
const NOT_BLANK = /\S/;

/** The message for free text holding a card number (`containsCardNumber`); it never repeats the text. */
export const CARD_NUMBER_IN_TEXT = 'Must not contain a card number';

/** Free text that holds no card number: a card number typed into the wrong field is refused, not stored. */
export function noCardNumber<T extends z.ZodType<string>>(schema: T) {
  return schema.refine((text) => !containsCardNumber(text), CARD_NUMBER_IN_TEXT);
}

/** A required free-text field: not blank, no control characters, no card number, at most `max` characters. */
export function requiredText(max: number, min = 1) {
  return noCardNumber(
    z
      .string()
      .min(min, min === 1 ? 'Must not be empty' : `Must be at least ${min} characters`)
      .max(max, `Must be at most ${max} characters`)
      .regex(NOT_BLANK, 'Must not be blank')
      .regex(CONTROL_CHARACTERS, 'Must not contain control characters'),
  );
}

/** An optional free-text field: at most `max` characters, no control characters, no card number. */
export function optionalText(max: number) {
  return noCardNumber(
    z
      .string()
      .max(max, `Must be at most ${max} characters`)
      .regex(CONTROL_CHARACTERS, 'Must not contain control characters'),
  ).optional();
}
