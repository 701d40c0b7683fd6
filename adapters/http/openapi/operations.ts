import type { ProblemCode } from '../problem-details.js';
import { MONEY_OPERATIONS } from './money-operations.js';
import { POST_PROBLEMS, READ_PROBLEMS, type OperationDescription } from './operation-description.js';
import { CREATE_PAYMENT_EXAMPLES } from './request-examples.js';

export {
  READ_PROBLEMS,
  TAGS,
  type OperationDescription,
  type QueryParameterName,
  type TagName,
} from './operation-description.js';

/** The route description table, keyed by the route's name in `ROUTES`. */
export const OPERATIONS: Readonly<Record<string, OperationDescription>> = {
  'POST /v1/profiles/{profile_id}/payments': {
    operationId: 'createPayment',
    tag: 'Payments',
    summary: 'Create a payment',
    description:
      "Hosted flow (no `creditcard`): the payment starts `processing` with `next.redirect` set to the hosted payment page. Direct flow (`creditcard` and `user`, PCI DSS compliant clients only): 3-D Secure and, when no challenge is needed, the authorization run before the answer; a payment whose 3-D Secure needs a challenge answers `processing` with `next.redirect` set to the issuer's page.\n\nRetries are safe with an `Idempotency-Key`: the same request gets the first answer again with `Idempotency-Replayed: true`. If the first request died before it answered, a retry gets `409` until it is stale (5 minutes old by default), then `201` with the payment that request created (or creates it under the id it reserved): never a second payment.",
    idempotent: true,
    paymentMayExist: true,
    requestBody: {
      component: 'CreatePaymentRequest',
      description: 'The payment, as UTF-8 JSON of at most 64 KiB.',
      examples: CREATE_PAYMENT_EXAMPLES,
    },
    success: {
      status: 201,
      description: 'The payment was created. `Location` is its `_links.self.href`.',
      component: 'Payment',
      headers: ['Location', 'Idempotency-Replayed'],
    },
    problems: [...POST_PROBLEMS.filter((code) => code !== 'not_found'), 'direct_flow_not_permitted'],
  },
  'GET /v1/profiles/{profile_id}/payments': {
    operationId: 'listPayments',
    tag: 'Payments',
    summary: 'List payments',
    description:
      "The profile's payments, newest first, a page at a time. An `after` that is not a payment of this list (malformed, unknown, or of another profile or partner) is a `400 validation_failed` on `after`, the same answer for each.",
    query: ['limit', 'after'],
    success: { status: 200, description: 'A page of payments.', component: 'PaymentList' },
    problems: READ_PROBLEMS.filter((code) => code !== 'not_found'),
  },
  'GET /v1/profiles/{profile_id}/payments/{payment_id}': {
    operationId: 'getPayment',
    tag: 'Payments',
    summary: 'Get a payment',
    description: 'The payment as it is now. A payment of another profile is `404`: its existence is never revealed.',
    success: { status: 200, description: 'The payment.', component: 'Payment' },
    problems: READ_PROBLEMS,
  },
  'GET /v1/partners/{partner_id}/profiles/{profile_id}/payments/{payment_id}': {
    operationId: 'getPartnerPayment',
    tag: 'Payments',
    summary: 'Get a payment by its self link',
    description:
      "The same payment as `getPayment`, at the path of its `_links.self.href`. A partner other than the client's is `404`.",
    success: { status: 200, description: 'The payment.', component: 'Payment' },
    problems: READ_PROBLEMS,
  },
  'GET /v1/partners/{partner_id}/profiles/{profile_id}': {
    operationId: 'getProfile',
    tag: 'Profiles',
    summary: 'Get a profile',
    description: "The target of a payment's `_links.profile.href`.",
    success: { status: 200, description: 'The profile.', component: 'Profile' },
    problems: READ_PROBLEMS,
  },
  ...MONEY_OPERATIONS,
};

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
