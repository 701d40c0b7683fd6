import { z } from 'zod';
import type { CardData } from '../domain/card.js';
import { cvcLength, detectScheme, luhnValid } from '../domain/card-number.js';
import { EXPIRATION_PATTERN, isExpirationBefore } from './card-expiration.js';
import { stringRules } from './string-rules.js';
import { requiredText } from './text.js';
import type { RawIssue } from './validation-issues.js';

const CARD_NUMBER = /^\d{12,19}$/;
const CARD_NUMBER_MESSAGE = 'Must be 12 to 19 digits, without spaces or separators';
const CVC = /^\d{3,4}$/;
const UNKNOWN_SCHEME = 'Is not a card number of a supported scheme';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * `creditcard` in the request (direct flow and hosted page). Every card rule of docs/http-api.md
 * (Create a payment) except "not before the current month", which needs the caller's clock: the parse
 * functions add it. Messages never repeat the card data.
 */
export const creditCardRequestSchema = z
  .strictObject({
    number: z.string().check(
      stringRules([
        { pattern: CARD_NUMBER, message: CARD_NUMBER_MESSAGE },
        // The pattern's length again, as JSON Schema's minLength and maxLength.
        { min: 12, message: CARD_NUMBER_MESSAGE },
        { max: 19, message: CARD_NUMBER_MESSAGE },
        {
          problem: (number) => {
            if (!CARD_NUMBER.test(number)) return null;
            if (!luhnValid(number)) return 'Is not a valid card number (Luhn check failed)';
            return detectScheme(number) === null ? UNKNOWN_SCHEME : null;
          },
        },
      ]),
    ),
    cvc: z.string().regex(CVC, 'Must be 3 digits (4 for American Express)'),
    expiration: z
      .string()
      .regex(EXPIRATION_PATTERN, 'Must be the first day of the expiry month, formatted `YYYY-MM-01T00:00:00.000Z`'),
    holder_name: requiredText(45, 2),
  })
  .superRefine(
    (card, ctx) => {
      // The CVC length depends on the scheme; judged only when both fields are otherwise well-formed.
      const { number, cvc } = card as Record<string, unknown>;
      if (typeof number !== 'string' || typeof cvc !== 'string' || !CVC.test(cvc)) return;
      const scheme = detectScheme(number);
      if (scheme === null) return;
      const expected = cvcLength(scheme);
      if (cvc.length !== expected) {
        ctx.addIssue({
          code: 'custom',
          path: ['cvc'],
          message: expected === 4 ? 'Must be 4 digits for American Express' : 'Must be 3 digits for this card scheme',
        });
      }
    },
    { when: (payload) => isRecord(payload.value) },
  );

/** Converts a parsed `creditcard` to the domain form; null only if the number has no scheme (cannot happen after parsing). */
export function toCardData(card: z.output<typeof creditCardRequestSchema>): CardData | null {
  const scheme = detectScheme(card.number);
  if (scheme === null) return null;
  return {
    number: card.number,
    cvc: card.cvc,
    expiration: card.expiration,
    holderName: card.holder_name,
    scheme,
  };
}

/**
 * The "not before the current month" rule, which needs the caller's clock. `card` is the raw
 * `creditcard` value at `path`; an issue only when its expiration is well-formed and past.
 */
export function expiredCardIssue(card: unknown, path: readonly string[], now: number): RawIssue | null {
  if (!isRecord(card)) return null;
  const expiration = card['expiration'];
  if (typeof expiration !== 'string' || !isExpirationBefore(expiration, now)) return null;
  return {
    path: [...path, 'expiration'],
    message: 'The card has expired: the expiry month is before the current month',
  };
}

/** The issue for a number without a scheme, for callers that convert with {@link toCardData}. */
export function unknownSchemeIssue(path: readonly string[]): RawIssue {
  return { path: [...path, 'number'], message: UNKNOWN_SCHEME };
}
