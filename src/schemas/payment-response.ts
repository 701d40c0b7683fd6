import { z } from 'zod';
import { CAPTURE_METHODS } from '../domain/capture-method.js';
import { CARD_SCHEMES } from '../domain/card.js';
import { OPERATION_STATES } from '../domain/money-operation.js';
import { FAILURE_REASONS } from '../domain/failure-reason.js';
import { PUBLIC_STATES } from '../domain/payment-state.js';
import { EXPIRATION_PATTERN } from './card-expiration.js';
import { contactSchema } from './contact.js';

const linkSchema = z.object({ href: z.string(), type: z.literal('application/json') });

/** `creditcard` in the response form: never the number or the CVC. */
export const publicCreditCardSchema = z.object({
  rrn: z.string().optional(),
  fees: z.object({ interchange: z.int(), assesment: z.int() }).optional(),
  card: z.object({
    scheme: z.enum(CARD_SCHEMES),
    type: z.string().optional(),
    region: z.string().optional(),
    last4: z.string().regex(/^\d{4}$/),
    bin: z.string().regex(/^\d{2,8}$/),
    expiration: z.string().regex(EXPIRATION_PATTERN),
    holder_name: z.string(),
    issuing_country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .optional(),
  }),
});

/** The payment as the API returns it (src/domain/payment.ts, payments-api.md "Payment"). */
export const paymentSchema = z.object({
  id: z.string().regex(/^payment_[0-9a-f]+$/),
  description: z.string().optional(),
  reference: z.string().optional(),
  method: z.literal('creditcard'),
  currency: z.string().regex(/^[A-Z]{3}$/),
  amount: z.int(),
  billing: contactSchema,
  shipping: contactSchema,
  creditcard: publicCreditCardSchema.optional(),
  session: z.object({ redirect_url: z.string() }),
  next: z.object({ redirect: z.string() }).optional(),
  state: z.enum(PUBLIC_STATES),
  failure_reason: z.enum(FAILURE_REASONS).optional(),
  created: z.iso.datetime({ precision: 3 }),
  capture_method: z.enum(CAPTURE_METHODS),
  amount_capturable: z.int().min(0),
  amount_captured: z.int().min(0),
  amount_refunded: z.int().min(0),
  authorization_expires_at: z.iso.datetime({ precision: 3 }).optional(),
  _links: z.object({ self: linkSchema, profile: linkSchema }),
});

/** A capture or refund as the API returns it (src/domain/money-operation.ts; docs/http-api.md, Captures). */
export const operationSchema = z.object({
  id: z.string().regex(/^(capture|refund)_[0-9a-f]{32}$/),
  payment_id: z.string().regex(/^payment_[0-9a-f]+$/),
  amount: z.int().min(1),
  currency: z.string().regex(/^[A-Z]{3}$/),
  state: z.enum(OPERATION_STATES),
  failure_reason: z.enum(FAILURE_REASONS).optional(),
  reference: z.string().optional(),
  description: z.string().optional(),
  created: z.iso.datetime({ precision: 3 }),
  _links: z.object({ self: linkSchema, payment: linkSchema }),
});

/**
 * A page of `GET /v1/profiles/{profile_id}/payments` (the engine's `PaymentList`): newest first;
 * `next_cursor` is absent on the last page.
 */
export const paymentListSchema = z.object({
  items: z.array(paymentSchema),
  next_cursor: z.string().optional(),
});
