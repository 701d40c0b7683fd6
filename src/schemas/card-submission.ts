import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import type { CardData } from '../domain/card.js';
import type { BrowserData } from '../domain/contact.js';
import type { ValidationIssue } from '../errors/payment-error.js';
import { browserDataSchema } from './browser-data.js';
import { creditCardRequestSchema, expiredCardIssue, toCardData, unknownSchemeIssue } from './credit-card.js';
import { finalizeIssues, fromZodIssues } from './validation-issues.js';

/**
 * What the hosted payment page submits: the card and the cardholder's browser data, with the
 * same rules as the direct flow except the clock-dependent expiry check (see {@link parseCardSubmission}).
 */
export const cardSubmissionSchema = z.strictObject({
  creditcard: creditCardRequestSchema,
  user: browserDataSchema,
});

/** A validated hosted-page submission. */
export interface CardSubmission {
  readonly card: CardData;
  readonly browser: BrowserData;
}

/**
 * Validates a hosted-page submission `{ creditcard, user }`. `now` (epoch ms, from the clock
 * port) decides whether the card has expired. Issues are sorted by path and never contain card data.
 */
export function parseCardSubmission(
  input: unknown,
  options: { readonly now: number },
): Result<CardSubmission, ValidationIssue[]> {
  const parsed = cardSubmissionSchema.safeParse(input);
  const issues = parsed.success ? [] : fromZodIssues(parsed.error.issues, input);
  const card =
    typeof input === 'object' && input !== null ? (input as Record<string, unknown>)['creditcard'] : undefined;
  const expired = expiredCardIssue(card, ['creditcard'], options.now);
  if (expired !== null) issues.push(expired);
  if (!parsed.success || issues.length > 0) return err(finalizeIssues(issues));

  const converted = toCardData(parsed.data.creditcard);
  if (converted === null) return err(finalizeIssues([unknownSchemeIssue(['creditcard'])]));
  return ok({ card: converted, browser: parsed.data.user });
}
