import type { CardData, CardProfile, Fees } from '../domain/card.js';
import type { FailureReason } from '../domain/failure-reason.js';
import type { ThreeDSOutcome } from '../domain/three-ds.js';
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
}

/** The acquirer's answer to `authorize` (and to `inquire`, when it knows): approved, declined or unknown. */
export type AuthorizationOutcome =
  | {
      readonly kind: 'approved';
      readonly rrn: string;
      readonly responseCode: string;
      readonly fees: Fees;
      readonly card: CardProfile;
    }
  | { readonly kind: 'declined'; readonly responseCode: string; readonly reason: FailureReason }
  /** The acquirer could not say (time-out, issuer unavailable): the card may have been charged. */
  | { readonly kind: 'unknown'; readonly detail: string };

/** What an inquiry can add: the acquirer never received an authorization for this payment. */
export type InquiryOutcome = AuthorizationOutcome | { readonly kind: 'not_found' };

/**
 * `unavailable`: the call did not reach the acquirer or its answer was lost. For `authorize`
 * the engine treats this as an unknown outcome and never authorizes again; it inquires.
 */
export type AcquirerError = PortFailure<'unavailable'>;

/** The acquirer (or PSP gateway) that authorizes card payments. */
export interface Acquirer {
  /** Called at most once per payment. */
  authorize(request: AuthorizationRequest): PortResult<AuthorizationOutcome, AcquirerError>;
  /** Asks what became of the authorization of `paymentId`; safe to repeat. */
  inquire(request: { readonly paymentId: string }): PortResult<InquiryOutcome, AcquirerError>;
}
