import type { CaptureMethod } from '../domain/capture-method.js';
import type { CardData, CardProfile, Fees } from '../domain/card.js';
import type { FailureReason } from '../domain/failure-reason.js';
import type { ThreeDSAuthentication, ThreeDSOutcome } from '../domain/three-ds.js';
import type { PortFailure, PortResult } from './port-result.js';

/** What the engine asks the acquirer to authorize: one payment's amount, card and 3DS outcome. */
export interface AuthorizationRequest {
  /** The idempotency key towards the acquirer: one payment, one authorization. */
  readonly paymentId: string;
  readonly profileId: string;
  readonly amount: number;
  readonly currency: string;
  readonly card: CardData;
  readonly threeDS: ThreeDSOutcome | null;
  /**
   * The authentication value, DS transaction id and protocol version of the 3DS that ran for
   * this authorization (frictionless or challenge), null when none ran or none was given. The
   * authentication value lives for this call only: never store or log it.
   */
  readonly authentication: ThreeDSAuthentication | null;
  /**
   * `automatic`: a sale, authorized and captured at once (approved means the money is taken).
   * `manual`: an authorization only; `capture` or `cancel` follow, or it lapses.
   */
  readonly captureMethod: CaptureMethod;
}

/**
 * The acquirer's answer to `authorize` (and to `inquire`, when it knows): approved, declined or
 * unknown. The engine checks every answer (`src/engine/port-answers.ts`, docs/ports.md): one that
 * breaks a rule below, or has another `kind`, counts as `unknown` (for `inquire`, as a failed
 * inquiry) and is logged at error level, naming the field but never its value.
 */
export type AuthorizationOutcome =
  | {
      readonly kind: 'approved';
      /**
       * The retrieval reference number (ISO 8583 data element 37): 1 to 12 letters and digits,
       * never the card number.
       */
      readonly rrn: string;
      /** ISO 8583 data element 39: 2 letters or digits (`00`). */
      readonly responseCode: string;
      /** Non-negative safe integers, in the payment currency's minor units. */
      readonly fees: Fees;
      /** Type and region from `CARD_TYPES` and `CARD_REGIONS`; an ISO 3166-1 alpha-2 issuing country (`isCountryCode`). */
      readonly card: CardProfile;
      /**
       * The scheme's trace id of this authorization (Visa transaction id, Mastercard trace id), for
       * later merchant-initiated payments: 1 to 32 letters and digits. Kept on the internal record.
       */
      readonly networkTransactionId?: string;
    }
  | {
      readonly kind: 'declined';
      /** ISO 8583 data element 39: 2 letters or digits (`05`, `51`). */
      readonly responseCode: string;
      /** One of `FAILURE_REASONS` (`failureReasonFromResponseCode` maps response codes to them). */
      readonly reason: FailureReason;
    }
  /** The acquirer could not say (time-out, issuer unavailable): the card may have been charged. `detail` is not stored. */
  | { readonly kind: 'unknown'; readonly detail: string };

/** What an inquiry can add: the acquirer never received an authorization for this payment (not an answer of `authorize`). */
export type InquiryOutcome = AuthorizationOutcome | { readonly kind: 'not_found' };

/**
 * `unavailable`: the call did not reach the acquirer or its answer was lost. For `authorize`
 * the engine treats this as an unknown outcome and never authorizes again; it inquires.
 */
export type AcquirerError = PortFailure<'unavailable'>;

/** What the acquirer returned for the authorization an operation acts on: its references. */
export interface AuthorizationReferences {
  /** The authorization's retrieval reference number. */
  readonly rrn: string;
  /** The scheme's trace id of the authorization, when the acquirer gave one. */
  readonly networkTransactionId?: string;
}

/**
 * A capture, cancel (void) or refund the engine asks for: `operationId` is the idempotency key
 * towards the acquirer (one operation id, one call), `amount` in the currency's minor units.
 */
export interface OperationRequest {
  /** `capture_…`, `cancel_…` or `refund_…`: the acquirer must never act twice on one. */
  readonly operationId: string;
  readonly paymentId: string;
  readonly profileId: string;
  /** Captured, voided (for a cancel: what is still uncaptured) or refunded. */
  readonly amount: number;
  readonly currency: string;
  readonly authorization: AuthorizationReferences;
}

/** A capture: `final` says whether the rest of the authorization is released with it. */
export interface CaptureRequest extends OperationRequest {
  readonly final: boolean;
}

/**
 * The acquirer's answer to `capture`, `cancel` or `refund` (and to their inquiries when it knows).
 * Checked like authorization answers: a malformed one counts as `unknown`.
 */
export type OperationOutcome =
  | {
      readonly kind: 'succeeded';
      /** The acquirer's reference of this operation: 1 to 32 letters, digits, `_` or `-`. */
      readonly reference: string;
    }
  | {
      readonly kind: 'declined';
      /** ISO 8583 data element 39: 2 letters or digits. */
      readonly responseCode: string;
      /** `capture_declined`, `refund_declined` or `processing_error` (cancels: `declined`). */
      readonly reason: FailureReason;
    }
  /** The acquirer could not say (time-out): the operation may have been done. `detail` is not stored. */
  | { readonly kind: 'unknown'; readonly detail: string };

/** What an operation inquiry can add: the acquirer never received that operation id. */
export type OperationInquiryOutcome = OperationOutcome | { readonly kind: 'not_found' };

/** What an operation inquiry names: the operation id (the key) and its payment. */
export interface OperationInquiry {
  readonly operationId: string;
  readonly paymentId: string;
}

/** The acquirer (or PSP gateway) that authorizes card payments. */
export interface Acquirer {
  /** Called at most once per payment. A malformed answer is an unknown outcome, reconciled by `inquire`. */
  authorize(request: AuthorizationRequest): PortResult<AuthorizationOutcome, AcquirerError>;
  /**
   * Asks what became of the authorization of `paymentId`; safe to repeat. A malformed answer is a
   * failed inquiry: asked again on the inquiry schedule.
   */
  inquire(request: { readonly paymentId: string }): PortResult<InquiryOutcome, AcquirerError>;
  /** Captures (part of) a manual authorization; called at most once per `operationId`. `unavailable` is an unknown outcome. */
  capture(request: CaptureRequest): PortResult<OperationOutcome, AcquirerError>;
  /** Asks what became of capture `operationId`; safe to repeat. */
  inquireCapture(request: OperationInquiry): PortResult<OperationInquiryOutcome, AcquirerError>;
  /** Voids the uncaptured rest of a manual authorization; called at most once per `operationId`. */
  cancel(request: OperationRequest): PortResult<OperationOutcome, AcquirerError>;
  /** Asks what became of cancel `operationId`; safe to repeat. */
  inquireCancel(request: OperationInquiry): PortResult<OperationInquiryOutcome, AcquirerError>;
  /** Refunds (part of) what was captured; called at most once per `operationId`. */
  refund(request: OperationRequest): PortResult<OperationOutcome, AcquirerError>;
  /** Asks what became of refund `operationId`; safe to repeat. */
  inquireRefund(request: OperationInquiry): PortResult<OperationInquiryOutcome, AcquirerError>;
}
