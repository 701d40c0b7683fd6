import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { containsCardNumber, detectScheme, luhnValid } from '../../src/domain/card-number.js';
import { isCountryCode } from '../../src/domain/country.js';
import { isCurrencyCode } from '../../src/domain/currency.js';
import { REDIRECT_URL_FORM, REDIRECT_URL_MAX_LENGTH, redirectUrlProblem } from '../../src/domain/redirect-url.js';
import {
  addressSchema,
  browserDataSchema,
  contactSchema,
  createPaymentRequestSchema,
  creditCardRequestSchema,
  sessionSchema,
} from '../../src/schemas/index.js';
import { EMAIL_ADDRESS } from '../../src/schemas/contact.js';
import { REDIRECT_URL_FORM_MESSAGE, REDIRECT_URL_MESSAGES } from '../../src/schemas/create-payment-request.js';
import { isIpAddress } from '../../src/schemas/ip-address.js';
import { stringRules } from '../../src/schemas/string-rules.js';
import { isWellFormedText } from '../../src/schemas/text.js';
import { finalizeIssues, fromZodIssues } from '../../src/schemas/validation-issues.js';
import { NUM_RUNS } from '../support/property-runs.js';

// The reference: every field as it was written before `stringRules`, one zod check per rule.
// eslint-disable-next-line no-control-regex -- the same pattern as the text fields
const CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
// eslint-disable-next-line no-control-regex -- the same pattern as the header fields
const HEADER_VALUE = /^[^\u0000-\u0008\u000a-\u001f\u007f]*$/;
const CARD_NUMBER = /^\d{12,19}$/;

const chainedNoCardNumber = <T extends z.ZodType<string>>(schema: T) =>
  schema.refine((text) => !containsCardNumber(text), 'Must not contain a card number');
const chainedStorable = (schema: z.ZodString) =>
  schema
    .regex(CONTROL_CHARACTERS, 'Must not contain control characters')
    .refine(isWellFormedText, 'Must be valid Unicode text');
const chainedRequiredText = (max: number, min = 1) =>
  chainedNoCardNumber(
    chainedStorable(
      z
        .string()
        .min(min, min === 1 ? 'Must not be empty' : `Must be at least ${min} characters`)
        .max(max, `Must be at most ${max} characters`)
        .regex(/\S/, 'Must not be blank'),
    ),
  );
const chainedOptionalText = (max: number) =>
  chainedNoCardNumber(chainedStorable(z.string().max(max, `Must be at most ${max} characters`))).optional();
const chainedHeader = (min: 0 | 1) =>
  z
    .string()
    .min(min, 'Must not be empty')
    .max(2048, 'Must be at most 2048 characters')
    .regex(HEADER_VALUE, 'Must not contain control characters')
    .refine(isWellFormedText, 'Must be valid Unicode text');

/** Each rewritten field, beside its reference and the lengths around which its rules change. */
const FIELDS: readonly { name: string; schema: z.ZodType; reference: z.ZodType; limits: readonly number[] }[] = [
  { name: 'first_name', schema: contactSchema.shape.first_name, reference: chainedRequiredText(100), limits: [1, 100] },
  {
    name: 'thoroughfare',
    schema: addressSchema.shape.thoroughfare,
    reference: chainedRequiredText(255),
    limits: [1, 255],
  },
  { name: 'postal_code', schema: addressSchema.shape.postal_code, reference: chainedRequiredText(32), limits: [1, 32] },
  {
    name: 'holder_name',
    schema: creditCardRequestSchema.shape.holder_name,
    reference: chainedRequiredText(45, 2),
    limits: [2, 45],
  },
  { name: 'premise', schema: addressSchema.shape.premise, reference: chainedOptionalText(100), limits: [100] },
  {
    name: 'description',
    schema: createPaymentRequestSchema.shape.description,
    reference: chainedOptionalText(255),
    limits: [255],
  },
  {
    name: 'email',
    schema: contactSchema.shape.email,
    reference: chainedNoCardNumber(
      z
        .email({ pattern: EMAIL_ADDRESS, message: 'Must be an e-mail address' })
        .max(254, 'Must be at most 254 characters'),
    ),
    limits: [254],
  },
  {
    name: 'country',
    schema: addressSchema.shape.country,
    reference: z
      .string()
      .regex(/^[A-Z]{2}$/, 'Must be an ISO 3166-1 alpha-2 country code in upper case')
      .refine(isCountryCode, 'Must be an officially assigned ISO 3166-1 alpha-2 country code'),
    limits: [2],
  },
  {
    name: 'currency',
    schema: createPaymentRequestSchema.shape.currency,
    reference: z
      .string()
      .regex(/^[A-Z]{3}$/, 'Must be a three-letter ISO 4217 currency code in upper case')
      .refine(isCurrencyCode, 'Must be an active ISO 4217 currency code'),
    limits: [3],
  },
  {
    name: 'ip_address',
    schema: browserDataSchema.shape.ip_address,
    reference: z
      .string()
      .max(45, 'Must be an IPv4 or IPv6 address')
      .refine(isIpAddress, 'Must be an IPv4 or IPv6 address'),
    limits: [45],
  },
  { name: 'user_agent', schema: browserDataSchema.shape.user_agent, reference: chainedHeader(1), limits: [1, 2048] },
  {
    name: 'accept_encoding',
    schema: browserDataSchema.shape.accept_encoding,
    reference: chainedHeader(0),
    limits: [2048],
  },
  {
    name: 'redirect_url',
    schema: sessionSchema.shape.redirect_url,
    reference: z
      .string()
      .max(REDIRECT_URL_MAX_LENGTH, REDIRECT_URL_MESSAGES.too_long)
      .superRefine((url, ctx) => {
        // Fixed since: the chained version returned on url.length (UTF-16 units) while .max()
        // counts code points, so an emoji-padded URL skipped every check below.
        if ([...url].length > REDIRECT_URL_MAX_LENGTH) return;
        if (!isWellFormedText(url)) return ctx.addIssue({ code: 'custom', message: 'Must be valid Unicode text' });
        const problem = redirectUrlProblem(url);
        if (problem !== null) ctx.addIssue({ code: 'custom', message: REDIRECT_URL_MESSAGES[problem] });
        else if (containsCardNumber(url)) ctx.addIssue({ code: 'custom', message: 'Must not contain a card number' });
      })
      .regex(REDIRECT_URL_FORM, REDIRECT_URL_FORM_MESSAGE),
    limits: [REDIRECT_URL_MAX_LENGTH],
  },
  {
    name: 'number',
    schema: creditCardRequestSchema.shape.number,
    reference: z
      .string()
      .regex(CARD_NUMBER, 'Must be 12 to 19 digits, without spaces or separators')
      .min(12, 'Must be 12 to 19 digits, without spaces or separators')
      .max(19, 'Must be 12 to 19 digits, without spaces or separators')
      .superRefine((number, ctx) => {
        if (!CARD_NUMBER.test(number)) return;
        if (!luhnValid(number)) {
          ctx.addIssue({ code: 'custom', message: 'Is not a valid card number (Luhn check failed)' });
        } else if (detectScheme(number) === null) {
          ctx.addIssue({ code: 'custom', message: 'Is not a card number of a supported scheme' });
        }
      }),
    limits: [12, 19],
  },
];

// Characters each rule reacts to: controls (C0, tab, DEL, C1), lone and paired surrogates, blanks,
// ASCII and other digits, separators of card numbers, and what URLs and e-mail addresses are made of.
const UNITS = [
  ...'aZx Ü-._/,:@+\t',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u009f',
  '\u00a0',
  '\u200b',
  '\ud800',
  '\udfff',
  '😀',
  '٤',
  '４',
  ...'0123456789',
];
const SAMPLES = [
  '4242424242424242',
  '4242 4242 4242 4242',
  '4000000000000002',
  '378282246310005',
  '1234567890123',
  'https://shop.example.com/return',
  'http://localhost:3000/r',
  'http://shop.example/r',
  'https://user:pw@shop.example/',
  'ada@example.com',
  '192.0.2.10',
  '2001:db8::1',
  'NL',
  'GB',
  'XX',
  'EUR',
  'ABC',
  'Ada Lovelace',
];

/** Text of the units above, whole samples, and runs whose length (in code points or UTF-16 units) sits at a limit. */
function text(limits: readonly number[]): fc.Arbitrary<string> {
  const piece = fc.oneof(fc.constantFrom(...UNITS), fc.constantFrom(...SAMPLES));
  const mixed = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
  const atLimit = fc
    .tuple(
      fc.constantFrom(...limits),
      fc.integer({ min: -2, max: 2 }),
      fc.constantFrom('a', ' ', '7', '😀', '\ud800', 'Ü'),
      fc.integer({ min: 0, max: 3 }),
      fc.oneof(fc.constant(''), mixed),
    )
    .map(([limit, delta, unit, astral, tail]) => {
      const length = Math.max(0, limit + delta);
      const pairs = Math.min(astral, length);
      return `${unit.repeat(length - pairs)}${'😀'.repeat(pairs)}${tail}`;
    });
  const url = fc
    .tuple(
      fc.constantFrom('https://', 'http://', 'ftp://', ''),
      mixed,
      fc.constantFrom('', '/a b', '?card=4242424242424242'),
    )
    .map(([scheme, middle, end]) => `${scheme}${middle}${end}`);
  return fc.oneof(mixed, atLimit, url, fc.constantFrom(...SAMPLES));
}

const issues = (result: z.ZodSafeParseResult<unknown>) => (result.success ? [] : result.error.issues);

describe('stringRules', () => {
  describe.each(FIELDS)('$name', ({ schema, reference, limits }) => {
    it('raises the same issues, in the same order, as the chain of zod checks it replaces', () => {
      fc.assert(
        fc.property(text(limits), (input) => {
          const actual = schema.safeParse(input);
          const expected = reference.safeParse(input);
          expect(actual.success).toBe(expected.success);
          expect(actual.data).toEqual(expected.data);
          expect(issues(actual)).toEqual(issues(expected));
        }),
        { numRuns: NUM_RUNS },
      );
    });

    it('reports the same for values that are not strings', () => {
      const values = [undefined, null, 0, 12, true, {}, [], Array.from({ length: 3000 }, () => 'a'), { length: 5 }];
      for (const value of values) {
        const report = (s: z.ZodType) => finalizeIssues(fromZodIssues(issues(s.safeParse(value)), value));
        expect(report(schema)).toEqual(report(reference));
      }
    });

    it('gives JSON Schema the same length bounds and patterns', () => {
      expect(z.toJSONSchema(schema, { io: 'input' })).toEqual(z.toJSONSchema(reference, { io: 'input' }));
    });
  });

  it('keeps zod’s introspection of the length bounds', () => {
    const schema = z.string().check(
      stringRules([
        { min: 2, message: 'short' },
        { max: 9, message: 'long' },
      ]),
    );
    expect([schema.minLength, schema.maxLength]).toEqual([2, 9]);
  });
});
