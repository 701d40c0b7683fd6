import type { FailureReason } from './failure-reason.js';
import type { Link } from './payment.js';

/** The kinds of money operation on an authorized payment (docs/http-api.md, Captures). */
export const OPERATION_KINDS = Object.freeze(['capture', 'cancel', 'refund'] as const);
/** One of `OPERATION_KINDS`; also the prefix of the operation's id (`capture_` + 32 hex). */
export type OperationKind = (typeof OPERATION_KINDS)[number];

/** The lifecycle of an operation: `processing` until the acquirer's answer is known, then final. */
export const OPERATION_STATES = Object.freeze(['processing', 'succeeded', 'failed'] as const);
/** One of `OPERATION_STATES`; `succeeded` and `failed` are final. */
export type OperationState = (typeof OPERATION_STATES)[number];

/** Where the acquirer call of a `processing` operation stands: not yet answered, or its outcome unknown. */
export type OperationStatus = 'requested' | 'unknown';

/**
 * A stored capture, cancel or refund. Stored as `processing` before the acquirer is asked, together
 * with the payment's reserved counters; its id is the acquirer's idempotency key. Epoch ms times.
 */
export interface OperationRecord {
  /** `capture_`, `cancel_` or `refund_` + 32 hex from the id port. */
  readonly id: string;
  readonly kind: OperationKind;
  readonly paymentId: string;
  readonly partnerId: string;
  readonly profileId: string;
  /** Minor units: captured, voided (cancel: what was uncaptured) or refunded. */
  readonly amount: number;
  readonly currency: string;
  /** Captures: whether this capture releases the rest of the authorization; true for cancels and refunds. */
  readonly final: boolean;
  readonly state: OperationState;
  /** Why it failed (`capture_declined`, `refund_declined`, `processing_error`, …); null unless `failed`. */
  readonly failureReason: FailureReason | null;
  /** Refunds: the client's reference and description (null when not given; always null otherwise). */
  readonly reference: string | null;
  readonly description: string | null;
  /** The acquirer's reference of the operation once it succeeded; null before. */
  readonly acquirerReference: string | null;
  /** Null once final. */
  readonly status: OperationStatus | null;
  /** When the sweeper next asks the acquirer about an unknown outcome; null when nothing to ask. */
  readonly nextInquiryAt: number | null;
  /** Unknown outcomes so far: paces the inquiries (`inquiryDelayMs`). */
  readonly inquiryAttempts: number;
  /** Inquiries the acquirer answered `not_found`. */
  readonly notFoundAnswers: number;
  /** Incremented on every write; version 1 when stored. */
  readonly version: number;
  /** The write that stored this version (`wr_` + 32 hex), as on the payment record. */
  readonly writeId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A capture or refund as the API returns it (docs/http-api.md, Captures). */
export interface PublicOperation {
  readonly id: string;
  readonly payment_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly state: OperationState;
  /** Present when `state` is `failed`. */
  readonly failure_reason?: FailureReason;
  /** Refunds only, when given. */
  readonly reference?: string;
  readonly description?: string;
  readonly created: string;
  readonly _links: { readonly self: Link; readonly payment: Link };
}

/** A capture resource (`capture_…`). */
export type Capture = PublicOperation;
/** A refund resource (`refund_…`). */
export type Refund = PublicOperation;
