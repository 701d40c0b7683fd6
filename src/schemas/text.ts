import { z } from 'zod';

// C0 controls and DEL: never part of a name or an address.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;
const NOT_BLANK = /\S/;

/** A required free-text field: not blank, no control characters, at most `max` characters. */
export function requiredText(max: number, min = 1) {
  return z
    .string()
    .min(min, min === 1 ? 'Must not be empty' : `Must be at least ${min} characters`)
    .max(max, `Must be at most ${max} characters`)
    .regex(NOT_BLANK, 'Must not be blank')
    .regex(CONTROL_CHARACTERS, 'Must not contain control characters');
}

/** An optional free-text field: at most `max` characters, no control characters. */
export function optionalText(max: number) {
  return z
    .string()
    .max(max, `Must be at most ${max} characters`)
    .regex(CONTROL_CHARACTERS, 'Must not contain control characters')
    .optional();
}
