import { z } from 'zod';
import { addressSchema } from './address.js';
import { stringRules } from './string-rules.js';
import { atMostCharacters, NO_CARD_NUMBER, requiredText } from './text.js';

/** `billing` / `shipping` (decisions.md section 4). */
export const contactSchema = z.strictObject({
  first_name: requiredText(100),
  last_name: requiredText(100),
  email: z.email('Must be an e-mail address').check(stringRules([atMostCharacters(254), NO_CARD_NUMBER])),
  phone: z
    .string()
    .regex(/^\+\d{8,15}$/, 'Must be in international format: `+` and 8 to 15 digits, without spaces')
    .optional(),
  address: addressSchema,
});
