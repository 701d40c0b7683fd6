import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { CAPTURE_METHODS, type CaptureMethod } from '../domain/capture-method.js';
import type { CardData } from '../domain/card.js';
import { contactInOrder, type BrowserData, type Contact } from '../domain/contact.js';
import { urlContainsCardNumber } from '../domain/card-number.js';
import { CURRENCY_CODES, isCurrencyCode } from '../domain/currency.js';
import {
  REDIRECT_URL_FORM,
  REDIRECT_URL_MAX_LENGTH,
  redirectUrlProblem,
  type RedirectUrlProblem,
} from '../domain/redirect-url.js';
import type { ValidationIssue } from '../errors/payment-error.js';
import { browserDataSchema } from './browser-data.js';
import { contactSchema } from './contact.js';
import { creditCardRequestSchema, expiredCardIssue, toCardData, unknownSchemeIssue } from './credit-card.js';
import { requiredTogether } from './required-together.js';
import { stringRules } from './string-rules.js';
import { CARD_NUMBER_IN_TEXT, isWellFormedText, NOT_UNICODE, optionalText } from './text.js';
import { finalizeIssues, fromZodIssues } from './validation-issues.js';

/** Largest `amount` accepted, in minor units. */
export const AMOUNT_MAX = 999_999_999_999;

const AMOUNT_MESSAGE = 'Must be an integer from 1 to 999,999,999,999, in minor units of the currency';

/** What a client is told for each `RedirectUrlProblem`. */
export const REDIRECT_URL_MESSAGES: Readonly<Record<RedirectUrlProblem, string>> = {
  too_long: `Must be at most ${REDIRECT_URL_MAX_LENGTH} characters`,
  too_long_encoded: `Must be at most ${REDIRECT_URL_MAX_LENGTH} characters once percent-encoded (a non-ASCII character takes up to 12)`,
  invalid_characters: 'Must not contain spaces or control characters',
  not_absolute: 'Must be an absolute URL',
  insecure: 'Must use https (http is accepted only for localhost and loopback addresses)',
  credentials: 'Must not contain a user name or password',
};

/** What a client is told when a URL `redirectUrlProblem` accepts is not written in `REDIRECT_URL_FORM`. */
export const REDIRECT_URL_FORM_MESSAGE =
  'Must start with `https://` and a host, or with `http://` and `localhost`, `127.x.x.x` or `[::1]` written as such';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** `session` of the create request. */
export const sessionSchema = z.strictObject({
  redirect_url: z.string().check(
    stringRules([
      { max: REDIRECT_URL_MAX_LENGTH, message: REDIRECT_URL_MESSAGES.too_long },
      {
        problem: (url) => {
          const problem = redirectUrlProblem(url);
          // Over-long (in characters, as the rule above counts): that rule reports it.
          if (problem === 'too_long') return null;
          if (!isWellFormedText(url)) return NOT_UNICODE;
          if (problem !== null) return REDIRECT_URL_MESSAGES[problem];
          return urlContainsCardNumber(url) ? CARD_NUMBER_IN_TEXT : null;
        },
      },
      // After the rule above, whose more precise message comes first; JSON Schema states this one.
      { pattern: REDIRECT_URL_FORM, message: REDIRECT_URL_FORM_MESSAGE },
    ]),
  ),
});

/**
 * Body of `POST /v1/profiles/{profile_id}/payments` (docs/http-api.md, Create a payment), for both flows.
 * Holds every rule except "card expiry not before the current month", which depends on the
 * caller's clock: use {@link parseCreatePaymentRequest} to validate a request.
 */
export const createPaymentRequestSchema = z
  .strictObject({
    description: optionalText(255),
    reference: optionalText(255),
    method: z.literal('creditcard', 'Must be `creditcard`'),
    currency: z.string().check(
      stringRules([
        { pattern: /^[A-Z]{3}$/, message: 'Must be a three-letter ISO 4217 currency code in upper case' },
        {
          refine: isCurrencyCode,
          message: 'Must be an active ISO 4217 currency code',
          jsonSchema: { enum: CURRENCY_CODES },
        },
      ]),
    ),
    amount: z.int(AMOUNT_MESSAGE).min(1, AMOUNT_MESSAGE).max(AMOUNT_MAX, AMOUNT_MESSAGE),
    billing: contactSchema,
    shipping: contactSchema,
    session: sessionSchema,
    creditcard: creditCardRequestSchema.optional(),
    user: browserDataSchema.optional(),
    capture_method: z.enum(CAPTURE_METHODS, 'Must be `automatic` or `manual`').optional(),
  })
  .check(
    requiredTogether('creditcard', 'user', (present) =>
      present === 'user'
        ? { path: ['user'], message: 'user is only accepted with creditcard (direct flow)' }
        : {
            path: ['user'],
            message: 'Required (the direct flow sends the browser data in user with creditcard)',
            missing: true,
          },
    ),
  );

/** A validated create request: `creditcard` in the domain form (camelCase, scheme detected). */
export interface CreatePaymentInput {
  readonly description?: string;
  readonly reference?: string;
  readonly method: 'creditcard';
  readonly currency: string;
  readonly amount: number;
  readonly billing: Contact;
  readonly shipping: Contact;
  readonly session: { readonly redirect_url: string };
  readonly creditcard?: CardData;
  readonly user?: BrowserData;
  /** Extension (docs/http-api.md, Captures); absent means `automatic`. */
  readonly capture_method?: CaptureMethod;
}

/**
 * Validates a create-payment request body. `now` (epoch ms, from the clock port) decides
 * whether the card has expired. Issues are sorted by path, one per path, and never contain
 * card data.
 */
export function parseCreatePaymentRequest(
  input: unknown,
  options: { readonly now: number },
): Result<CreatePaymentInput, ValidationIssue[]> {
  const parsed = createPaymentRequestSchema.safeParse(input);
  const issues = parsed.success ? [] : fromZodIssues(parsed.error.issues, input);
  const expired = expiredCardIssue(isRecord(input) ? input['creditcard'] : undefined, ['creditcard'], options.now);
  if (expired !== null) issues.push(expired);
  if (!parsed.success || issues.length > 0) return err(finalizeIssues(issues));

  const r = parsed.data;
  const value: { -readonly [K in keyof CreatePaymentInput]: CreatePaymentInput[K] } = {
    method: r.method,
    currency: r.currency,
    amount: r.amount,
    billing: contactInOrder(r.billing),
    shipping: contactInOrder(r.shipping),
    session: { redirect_url: r.session.redirect_url },
  };
  if (r.description !== undefined) value.description = r.description;
  if (r.reference !== undefined) value.reference = r.reference;
  if (r.creditcard !== undefined) {
    const card = toCardData(r.creditcard);
    if (card === null) return err(finalizeIssues([unknownSchemeIssue(['creditcard'])]));
    value.creditcard = card;
  }
  if (r.user !== undefined) value.user = r.user;
  if (r.capture_method !== undefined) value.capture_method = r.capture_method;
  return ok(value);
}
