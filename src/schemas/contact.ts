import { z } from 'zod';
import { addressSchema } from './address.js';
import { noCardNumber, requiredText } from './text.js';

/** `billing` / `shipping` (decisions.md section 4). */
export const contactSchema = z.strictObject({
  first_name: requiredText(100),
  last_name: requiredText(100),
  email: noCardNumber(z.email('Must be an e-mail address').max(254, 'Must be at most 254 characters')),
  phone: z
    .string()
    .regex(/^\+\d{8,15}$/, 'Must be in international format: `+` and 8 to 15 digits, without spaces')
    .optional(),
  address: addressSchema,
});
