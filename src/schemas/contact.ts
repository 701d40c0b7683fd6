import { z } from 'zod';
import type { Address, Contact } from '../domain/contact.js';
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
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Copies a parsed contact into the domain form, leaving out absent optional fields. */
export function toContact(c: ContactOutput): Contact {
  const a = c.address;
  const address: Mutable<Address> = {
    thoroughfare: a.thoroughfare,
    locality: a.locality,
    postal_code: a.postal_code,
    country: a.country,
  };
  if (a.premise !== undefined) address.premise = a.premise;
  if (a.state !== undefined) address.state = a.state;
  const contact: Mutable<Contact> = { first_name: c.first_name, last_name: c.last_name, email: c.email, address };
  if (c.phone !== undefined) contact.phone = c.phone;
  return contact;
}
