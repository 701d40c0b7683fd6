import { z } from 'zod';
import { COUNTRY_CODES, isCountryCode } from '../domain/country.js';
import { stringRules } from './string-rules.js';
import { optionalText, requiredText } from './text.js';

/** `billing.address` / `shipping.address` (docs/http-api.md, Create a payment). */
export const addressSchema = z.strictObject({
  premise: optionalText(100),
  thoroughfare: requiredText(255),
  locality: requiredText(100),
  state: optionalText(100),
  postal_code: requiredText(32),
  country: z.string().check(
    stringRules([
      { pattern: /^[A-Z]{2}$/, message: 'Must be an ISO 3166-1 alpha-2 country code in upper case' },
      {
        refine: isCountryCode,
        message: 'Must be an officially assigned ISO 3166-1 alpha-2 country code',
        jsonSchema: { enum: COUNTRY_CODES },
      },
    ]),
  ),
});
