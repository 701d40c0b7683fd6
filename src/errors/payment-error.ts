/** One problem found while validating input: where it is and what is wrong. Never echoes card data. */
export interface ValidationIssue {
  /** Dotted path of the field (`billing.address.country`); empty for the input as a whole. */
  readonly path: string;
  /** What is wrong, in words; never card data. */
  readonly message: string;
}

/**
 * Every expected failure of the public API, discriminated by a stable snake_case `code`
 * (docs/http-api.md, Errors). `retryable` tells a caller whether the same call may succeed later.
 */
export type PaymentError =
  | {
      readonly code: 'validation_failed';
      readonly message: string;
      readonly errors: readonly ValidationIssue[];
      readonly retryable: false;
    }
  | { readonly code: 'unauthorized'; readonly message: string; readonly retryable: false }
  | { readonly code: 'forbidden_profile'; readonly message: string; readonly retryable: false }
  | { readonly code: 'direct_flow_not_permitted'; readonly message: string; readonly retryable: false }
  | { readonly code: 'not_found'; readonly message: string; readonly retryable: false }
  | { readonly code: 'invalid_state'; readonly message: string; readonly state: string; readonly retryable: false }
  | { readonly code: 'conflict'; readonly message: string; readonly retryable: true }
  | { readonly code: 'idempotency_in_progress'; readonly message: string; readonly retryable: true }
  | { readonly code: 'idempotency_key_reused'; readonly message: string; readonly retryable: false }
  | {
      readonly code: 'unavailable';
      readonly message: string;
      readonly retryable: true;
      /**
       * `unknown`: a write was sent and whether it was stored cannot be told (its answer was lost
       * and the read that would confirm it failed too), so the payment may exist. Absent when
       * nothing was stored.
       */
      readonly outcome?: 'unknown';
    }
  | {
      /** 409 (docs/http-api.md, Captures): the payment, as it stands, allows no such operation. */
      readonly code: MoneyOperationRefusal;
      readonly message: string;
      readonly retryable: false;
    }
  | { readonly code: 'internal_error'; readonly message: string; readonly retryable: false };

/** The 409 refusals of captures, cancels and refunds (docs/http-api.md, Captures). */
export const MONEY_OPERATION_REFUSALS = Object.freeze([
  'payment_not_capturable',
  'payment_not_cancelable',
  'payment_not_refundable',
  'amount_exceeds_capturable',
  'amount_exceeds_refundable',
] as const);
/** One of `MONEY_OPERATION_REFUSALS`. */
export type MoneyOperationRefusal = (typeof MONEY_OPERATION_REFUSALS)[number];

/** The stable `code` of a `PaymentError`: switch on it, its members never change meaning. */
export type PaymentErrorCode = PaymentError['code'];

/**
 * One line for a list of validation issues: the issue itself when there is one (`amount: Must be
 * …`, or the message alone for the request as a whole, whose path is empty), else how many.
 */
export function summarizeIssues(errors: readonly ValidationIssue[]): string {
  const [only] = errors;
  if (errors.length !== 1 || only === undefined) return `${errors.length} fields are invalid`;
  return only.path === '' ? only.message : `${only.path}: ${only.message}`;
}

/** Builds each `PaymentError` with its usual message, for adapters and hosts that answer as the engine does. */
export const paymentError = Object.freeze({
  validation: (errors: readonly ValidationIssue[]): PaymentError => ({
    code: 'validation_failed',
    message: summarizeIssues(errors),
    errors,
    retryable: false,
  }),
  unauthorized: (message = 'Missing or unknown bearer token'): PaymentError => ({
    code: 'unauthorized',
    message,
    retryable: false,
  }),
  forbiddenProfile: (profileId: string): PaymentError => ({
    code: 'forbidden_profile',
    message: `This client may not act on profile ${profileId}`,
    retryable: false,
  }),
  directFlowNotPermitted: (): PaymentError => ({
    code: 'direct_flow_not_permitted',
    message: 'Card data may only be sent by clients registered as PCI DSS compliant; use the hosted flow',
    retryable: false,
  }),
  notFound: (what: string): PaymentError => ({ code: 'not_found', message: `${what} not found`, retryable: false }),
  invalidState: (state: string, action: string): PaymentError => ({
    code: 'invalid_state',
    message: `Cannot ${action}: the payment is ${state}`,
    state,
    retryable: false,
  }),
  conflict: (message = 'The payment was changed concurrently; retry'): PaymentError => ({
    code: 'conflict',
    message,
    retryable: true,
  }),
  idempotencyInProgress: (): PaymentError => ({
    code: 'idempotency_in_progress',
    message: 'A request with this Idempotency-Key is still being processed',
    retryable: true,
  }),
  idempotencyKeyReused: (): PaymentError => ({
    code: 'idempotency_key_reused',
    message: 'This Idempotency-Key was used with a different request body',
    retryable: false,
  }),
  unavailable: (message: string, outcome?: 'unknown'): PaymentError => ({
    code: 'unavailable',
    message,
    retryable: true,
    ...(outcome !== undefined && { outcome }),
  }),
  /** A 409 refusal of a capture, cancel or refund, with what the payment allows in `message`. */
  refused: (code: MoneyOperationRefusal, message: string): PaymentError => ({ code, message, retryable: false }),
  internal: (message = 'Internal error'): PaymentError => ({ code: 'internal_error', message, retryable: false }),
} as const);
