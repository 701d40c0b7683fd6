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

/** The acquirer (or PSP gateway) that authorizes card payments. */
export interface Acquirer {
  /** Called at most once per payment. A malformed answer is an unknown outcome, reconciled by `inquire`. */
  authorize(request: AuthorizationRequest): PortResult<AuthorizationOutcome, AcquirerError>;
  /**
   * Asks what became of the authorization of `paymentId`; safe to repeat. A malformed answer is a
   * failed inquiry: asked again on the inquiry schedule.
   */
  inquire(request: { readonly paymentId: string }): PortResult<InquiryOutcome, AcquirerError>;
}
