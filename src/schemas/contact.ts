import { z } from 'zod';
import { addressSchema } from './address.js';
import { stringRules } from './string-rules.js';
import { atMostCharacters, NO_CARD_NUMBER, requiredText } from './text.js';

/**
 * An e-mail address: a local part of at most 64 characters, dot-separated runs of letters, digits
 * and `_'+-` (not ending in `'`); `@`; a domain of labels of 1 to 63 letters, digits and hyphens,
 * none starting or ending with a hyphen, the last of letters only (2 or more). zod's own e-mail
 * rule with RFC 5321's limits; a subset of what JSON Schema's `format: email` accepts.
 */
export const EMAIL_ADDRESS =
  /^(?=[^@]{1,64}@)(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** `billing` / `shipping` (docs/http-api.md, Create a payment). */
export const contactSchema = z.strictObject({
  first_name: requiredText(100),
  last_name: requiredText(100),
  email: z
    .email({ pattern: EMAIL_ADDRESS, message: 'Must be an e-mail address' })
    .check(stringRules([atMostCharacters(254), NO_CARD_NUMBER])),
  phone: z
    .string()
    .regex(/^\+\d{8,15}$/, 'Must be in international format: `+` and 8 to 15 digits, without spaces')
    .optional(),
  address: addressSchema,
});
