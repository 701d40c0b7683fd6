import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import type { ValidationIssue } from '../errors/payment-error.js';
import { AMOUNT_MAX } from './create-payment-request.js';
import { optionalText } from './text.js';
import { finalizeIssues, fromZodIssues } from './validation-issues.js';

const AMOUNT_MESSAGE = 'Must be an integer from 1 to 999,999,999,999, in minor units of the currency';
const amount = z.int(AMOUNT_MESSAGE).min(1, AMOUNT_MESSAGE).max(AMOUNT_MAX, AMOUNT_MESSAGE).optional();

/** Body of `POST …/payments/{payment_id}/captures` (docs/http-api.md, Captures): all optional. */
export const captureRequestSchema = z.strictObject({
  amount,
  final: z.boolean('Must be true or false').optional(),
});

/** Body of `POST …/payments/{payment_id}/refunds` (docs/http-api.md, Captures): all optional. */
export const refundRequestSchema = z.strictObject({
  amount,
  reference: optionalText(255),
  description: optionalText(255),
});

/** A validated capture request. */
export type CaptureRequestBody = z.output<typeof captureRequestSchema>;
/** A validated refund request. */
export type RefundRequestBody = z.output<typeof refundRequestSchema>;

/** Validates a body (absent: `{}`) against `schema`; issues never echo the input. */
export function parseOperationRequest<S extends typeof captureRequestSchema | typeof refundRequestSchema>(
  schema: S,
  input: unknown,
): Result<z.output<S>, ValidationIssue[]> {
  const parsed = schema.safeParse(input ?? {});
  return parsed.success
    ? ok(parsed.data as z.output<S>)
    : err(finalizeIssues(fromZodIssues(parsed.error.issues, input)));
}
