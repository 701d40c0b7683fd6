import type { ProblemCode } from '../problem-details.js';
import type { ResponseHeaderName } from './http-schemas.js';
import type { OpenApiExample } from './openapi-types.js';
import { WEBHOOKS_TAG } from './webhook-operations.js';

/** The query parameters of the lists: `after` of the payment list, or of a payment's captures or refunds. */
export type QueryParameterName = 'limit' | 'after' | 'capture_after' | 'refund_after';

export const TAGS = [
  {
    name: 'Captures and refunds',
    description:
      'After the authorization: capture a manual payment (in part or whole), cancel it, refund what was captured.',
  },
  { name: 'Payments', description: 'Create payments and follow them to a final state.' },
  { name: 'Profiles', description: "The profiles (merchant accounts) of the client's partner." },
  WEBHOOKS_TAG,
] as const;

export type TagName = (typeof TAGS)[number]['name'];

/** What the document says about one route of `ROUTES`, beside what the schemas say. */
export interface OperationDescription {
  readonly operationId: string;
  readonly tag: TagName;
  readonly summary: string;
  readonly description: string;
  readonly query?: readonly QueryParameterName[];
  /** Accepts an `Idempotency-Key` header. */
  readonly idempotent?: boolean;
  readonly requestBody?: {
    readonly component: string;
    readonly description: string;
    readonly examples?: Readonly<Record<string, OpenApiExample>>;
    /** The body may be left out (no body means the defaults). */
    readonly optional?: true;
  };
  readonly success: {
    readonly status: 200 | 201;
    readonly description: string;
    readonly component: string;
    readonly headers?: readonly ResponseHeaderName[];
  };
  /** Every problem code the route can answer. */
  readonly problems: readonly ProblemCode[];
  /**
   * Its `unavailable` may say that the payment may have been created (`payment_may_exist`), and
   * then has no `Retry-After` when the request had no `Idempotency-Key`.
   */
  readonly paymentMayExist?: true;
  /**
   * Its `unavailable` may say that the capture, cancel or refund may have been made, and then has
   * no `Retry-After` when the request had no `Idempotency-Key`.
   */
  readonly operationMayExist?: true;
}

/** The problem codes every read (`GET`) can answer. */
export const READ_PROBLEMS: readonly ProblemCode[] = [
  'validation_failed',
  'unauthorized',
  'forbidden_profile',
  'not_found',
  'not_acceptable',
  'rate_limited',
  'internal_error',
  'unavailable',
];

/** The problems of a POST on a payment: an idempotent write with a JSON body. */
export const POST_PROBLEMS: readonly ProblemCode[] = [
  'invalid_json',
  'validation_failed',
  'unauthorized',
  'forbidden_profile',
  'not_found',
  'not_acceptable',
  'conflict',
  'idempotency_in_progress',
  'payload_too_large',
  'unsupported_media_type',
  'idempotency_key_reused',
  'rate_limited',
  'internal_error',
  'unavailable',
];
