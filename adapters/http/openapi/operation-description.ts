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

/** When each problem is answered (the response descriptions). */
export const PROBLEM_WHEN: Readonly<Record<ProblemCode, string>> = {
  invalid_json: 'the body is not UTF-8 JSON',
  validation_failed: 'the body, the query or the `Idempotency-Key` header breaks a rule; `errors` lists each field',
  unauthorized: 'no, a malformed or an unknown bearer token',
  forbidden_profile: 'a profile the client may not act on, or one that does not exist',
  direct_flow_not_permitted: 'card data from a client not registered as PCI DSS compliant',
  not_found: "an unknown payment or profile, or a partner other than the client's",
  method_not_allowed: 'a method the path does not allow (`Allow` lists those it does)',
  not_acceptable: '`Accept` excludes JSON',
  conflict: 'the payment was changed concurrently; retry',
  invalid_state: 'the payment cannot take this action in its state',
  payment_not_capturable: 'the payment is not a succeeded manual payment with an amount left to capture',
  payment_not_cancelable:
    'the payment is neither a manual payment with an amount left to capture nor waiting for the cardholder',
  payment_not_refundable: 'the payment has no captured amount left to refund',
  amount_exceeds_capturable: '`amount` is more than `amount_capturable`',
  amount_exceeds_refundable: '`amount` is more than what was captured and not yet refunded',
  idempotency_in_progress:
    'a request with the same `Idempotency-Key` is still running (`Retry-After`); one that died without an answer is taken over by the first retry once it is stale (5 minutes after it started by default), which answers the payment it reserved',
  payload_too_large: 'the body is larger than 64 KiB',
  unsupported_media_type: 'the body is not `application/json`',
  idempotency_key_reused: 'the `Idempotency-Key` was used with a different request',
  rate_limited:
    'the client sent more requests than its rate limit allows (when the host sets one, as the sandbox does; every authenticated request counts): wait `Retry-After` seconds',
  internal_error: 'a bug; never the answer to anything a client sends',
  unavailable: 'storage or a provider is unavailable; retry after `Retry-After` seconds',
};

/** What `unavailable` adds for a capture, cancel or refund that may have been made (`operationMayExist`). */
export const OPERATION_MAY_EXIST_WHEN =
  '; the operation may have been made: retry with the same `Idempotency-Key`, or, when none was sent (the answer then has no `Retry-After`), look at the payment before retrying';

/** What `unavailable` adds for an operation that may have created the payment (`paymentMayExist`). */
export const PAYMENT_MAY_EXIST_WHEN =
  "; with `payment_may_exist: true` the payment may have been created: retry with the same `Idempotency-Key`, or, when none was sent (the answer then has no `Retry-After`), look the payment up in the profile's list before retrying";
