import { z } from 'zod';
import { operationSchema, paymentListSchema } from '../../../src/schemas/payment-response.js';
import { validationIssueSchema } from '../../../src/schemas/validation-issues.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency.js';
import { PROBLEM_STATUS, type ProblemCode } from '../problem-details.js';
import { MAX_REQUEST_ID_LENGTH } from '../request-id.js';

/**
 * The zod schemas of what the HTTP layer adds around the engine's schemas (`src/schemas`):
 * problem documents, the profile resource, parameters and headers. The OpenAPI document is
 * generated from these and from the engine's schemas, never written by hand.
 */

/** Every problem `code`, in the order of `PROBLEM_STATUS`. */
const PROBLEM_CODES = Object.keys(PROBLEM_STATUS) as ProblemCode[];

const linkSchema = z.object({ href: z.string(), type: z.literal('application/json') });

/** An RFC 9457 problem document as the API sends it (`ProblemDocument`). */
export const problemDocumentSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.int().min(400).max(599),
  detail: z.string(),
  code: z.enum(PROBLEM_CODES as [ProblemCode, ...ProblemCode[]]),
  errors: z.array(validationIssueSchema).optional(),
  payment_may_exist: z.literal(true).optional(),
});

/**
 * What an operation's problem answers of one status hold beyond `problemDocumentSchema`: that
 * status and the codes the operation answers with it (combined with the problem schema in `allOf`).
 */
export function problemNarrowingSchema(status: number, codes: readonly ProblemCode[]) {
  return z.looseObject({ status: z.literal(status), code: z.enum(codes as [ProblemCode, ...ProblemCode[]]) });
}

/** The profile resource (`ProfileResource`): what a payment's `_links.profile` points at. */
export const profileResourceSchema = z.object({
  id: z.string().regex(/^profile_/),
  partner_id: z.string().regex(/^partner_/),
  name: z.string(),
  _links: z.object({ self: linkSchema }),
});

/**
 * A page of the list as the API returns it (`PaymentListResource`): the engine's page and its
 * `_links`, `self` and, when more payments follow, `next`.
 */
export const paymentListResourceSchema = paymentListSchema.extend({
  _links: z.object({ self: linkSchema, next: linkSchema.optional() }),
});

/** A capture as the API returns it (docs/http-api.md, Captures): no `reference` or `description`. */
export const captureResourceSchema = operationSchema.omit({ reference: true, description: true }).extend({
  id: z.string().regex(/^capture_[0-9a-f]{32}$/),
});

/** A refund as the API returns it (docs/http-api.md, Captures). */
export const refundResourceSchema = operationSchema.extend({ id: z.string().regex(/^refund_[0-9a-f]{32}$/) });

const pageLinksSchema = z.object({ self: linkSchema, next: linkSchema.optional() });

/** A page of a payment's captures or refunds (`OperationListResource`), oldest first. */
const operationListSchema = <Item extends z.ZodType>(item: Item) =>
  z.object({ items: z.array(item), next_cursor: z.string().optional(), _links: pageLinksSchema });

/** A page of a payment's captures (`OperationListResource`), oldest first. */
export const captureListResourceSchema = operationListSchema(captureResourceSchema);

/** A page of a payment's refunds (`OperationListResource`), oldest first. */
export const refundListResourceSchema = operationListSchema(refundResourceSchema);

/** Path parameters, by name. */
export const pathParameterSchemas = {
  profile_id: z.string().min(1),
  partner_id: z.string().min(1),
  payment_id: z.string().min(1),
  capture_id: z.string().min(1),
  refund_id: z.string().min(1),
} as const;

/** Query parameters of the list. */
export const listQuerySchemas = {
  limit: z.int().min(1).max(100).default(20),
  /** A payment id (`isPaymentId`): anything else is a `400` on `after`. */
  after: z.string().regex(/^payment_[0-9a-f]{32}$/),
  /** A capture id of the payment: anything else is a `400` on `after`. */
  captureAfter: z.string().regex(/^capture_[0-9a-f]{32}$/),
  /** A refund id of the payment: anything else is a `400` on `after`. */
  refundAfter: z.string().regex(/^refund_[0-9a-f]{32}$/),
} as const;

/** The `Idempotency-Key` request header. */
export const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(MAX_IDEMPOTENCY_KEY_LENGTH)
  .regex(/^[\x20-\x7e]+$/);

/** Response headers, by name. */
export const responseHeaderSchemas = {
  'Request-Id': z
    .string()
    .min(1)
    .max(MAX_REQUEST_ID_LENGTH)
    .regex(/^[\x21-\x7e]+$/),
  Location: z.string(),
  'Idempotency-Replayed': z.literal('true'),
  'WWW-Authenticate': z.string(),
  'Retry-After': z.int().min(0),
} as const;

export type ResponseHeaderName = keyof typeof responseHeaderSchemas;
