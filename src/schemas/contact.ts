import { z } from 'zod';
import type { Contact } from '../domain/contact.js';
import { addressSchema } from './address.js';
import { requiredText } from './text.js';

/** `billing` / `shipping` (decisions.md section 4). */
export const contactSchema = z.strictObject({
  first_name: requiredText(100),
  last_name: requiredText(100),
  email: z.email('Must be an e-mail address').max(254, 'Must be at most 254 characters'),
  phone: z
    .string()
    .regex(/^\+\d{8,15}$/, 'Must be in international format: `+` and 8 to 15 digits, without spaces')
    .optional(),
  address: addressSchema,
});

type ContactOutput = z.output<typeof contactSchema>;

/** Copies a parsed contact into the domain form, leaving out absent optional fields. */
export function toContact(c: ContactOutput): Contact {
  const a = c.address;
  return {
    first_name: c.first_name,
    last_name: c.last_name,
    email: c.email,
    ...(c.phone !== undefined && { phone: c.phone }),
    address: {
      ...(a.premise !== undefined && { premise: a.premise }),
      thoroughfare: a.thoroughfare,
      locality: a.locality,
      ...(a.state !== undefined && { state: a.state }),
      postal_code: a.postal_code,
      country: a.country,
    },
  };
}
