import type { CaptureMethod } from './capture-method.js';
import type { CardProfile, CardSummary, Fees } from './card.js';
import type { BrowserData, Contact } from './contact.js';
import type { FailureReason } from './failure-reason.js';
import type { AuthorizationStatus, InternalState } from './payment-state.js';
import type { ThreeDSOutcome } from './three-ds.js';

/** `hosted`: the cardholder types the card on the hosted page; `direct`: the client sent card data (PCI DSS compliant clients only). */
export type PaymentFlow = 'hosted' | 'direct';

/** The acquirer's answer to an approved authorization, kept on the record. */
export interface AuthorizationRecord {
  readonly rrn: string;
  readonly responseCode: string;
  readonly fees: Fees;
  readonly card: CardProfile;
  /** The scheme's trace id, when the acquirer gave one (docs/ports.md); internal only. */
  readonly networkTransactionId?: string;
}

/**
 * The stored payment: everything the engine needs to resume a payment, and nothing a
 * card number or CVC could be recovered from. Timestamps are epoch milliseconds.
 */
export interface PaymentRecord {
  readonly id: string;
  readonly partnerId: string;
  readonly profileId: string;
  readonly flow: PaymentFlow;
  readonly state: InternalState;
  /** Incremented on every update; repositories compare it to refuse lost updates. */
  readonly version: number;
  readonly description: string | null;
  readonly reference: string | null;
  readonly method: 'creditcard';
  readonly currency: string;
  readonly amount: number;
  readonly billing: Contact;
  readonly shipping: Contact;
  readonly redirectUrl: string;
  readonly browser: BrowserData | null;
  readonly card: CardSummary | null;
  readonly threeDS: ThreeDSOutcome | null;
  /** URL the cardholder must visit (hosted page or ACS challenge); null when nobody must act. */
  readonly nextRedirect: string | null;
  /** Secret that the hosted page URL carries; never part of the public payment. */
  readonly hostedToken: string | null;
  readonly authorization: AuthorizationRecord | null;
  readonly authorizationStatus: AuthorizationStatus | null;
  readonly failureReason: FailureReason | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** When `awaiting_card_data` or `awaiting_challenge` ends in `expired`. */
  readonly expiresAt: number | null;
  /** When the sweeper next asks the acquirer about an authorization whose outcome is unknown. */
  readonly nextInquiryAt: number | null;
  /** Unknown outcomes so far (the first answer and every inquiry that settled nothing): paces the inquiries. */
  readonly inquiryAttempts: number;
  /** Inquiries the acquirer answered `not_found` (only these count towards giving up on it). */
  readonly notFoundAnswers: number;
  /**
   * Identifies the write that stored this version (`wr_` + 32 hex digits from the id port; null
   * before the first). After a write whose outcome is unknown (a time-out, a lost connection), the
   * engine reads the payment back: its own `writeId` at its version means the write happened.
   */
  readonly writeId: string | null;
  /** `automatic` (a sale) or `manual` (docs/http-api.md, Captures). */
  readonly captureMethod: CaptureMethod;
  /**
   * Captures not failed (processing or succeeded), minor units; a succeeded automatic payment
   * counts its whole `amount`. Never above `amount`: the repository refuses a write that would be.
   */
  readonly captureReserved: number;
  /** Succeeded captures (`amount_captured`); `amount` for a succeeded automatic payment. */
  readonly amountCaptured: number;
  /** Refunds not failed; never above `amountCaptured`: the repository refuses a write that would be. */
  readonly refundReserved: number;
  /** Succeeded refunds (`amount_refunded`). */
  readonly amountRefunded: number;
  /**
   * What closed the authorization to further captures: the id of a final capture or of a cancel
   * (reopened if that operation fails), or `expiry`; null while it is open.
   */
  readonly captureClosedBy: string | null;
  /** Manual payments: when the open authorization lapses (the sweeper releases it); null otherwise. */
  readonly authorizationExpiresAt: number | null;
}

/** A record whose fields may still be set: what {@link copyRecord} returns, filled in before it is frozen. */
export type DraftRecord = { -readonly [K in keyof PaymentRecord]: PaymentRecord[K] };

/**
 * A copy of `record`, field by field (the compiler checks that every field is listed). Cheaper
 * than a spread, which V8 copies about ten times slower from a frozen object (the engine's
 * records are frozen), and always of one shape, so that code reading records stays monomorphic.
 */
export function copyRecord(record: PaymentRecord): DraftRecord {
  return {
    id: record.id,
    partnerId: record.partnerId,
    profileId: record.profileId,
    flow: record.flow,
    state: record.state,
    version: record.version,
    description: record.description,
    reference: record.reference,
    method: record.method,
    currency: record.currency,
    amount: record.amount,
    billing: record.billing,
    shipping: record.shipping,
    redirectUrl: record.redirectUrl,
    browser: record.browser,
    card: record.card,
    threeDS: record.threeDS,
    nextRedirect: record.nextRedirect,
    hostedToken: record.hostedToken,
    authorization: record.authorization,
    authorizationStatus: record.authorizationStatus,
    failureReason: record.failureReason,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    expiresAt: record.expiresAt,
    nextInquiryAt: record.nextInquiryAt,
    inquiryAttempts: record.inquiryAttempts,
    notFoundAnswers: record.notFoundAnswers,
    writeId: record.writeId,
    captureMethod: record.captureMethod,
    captureReserved: record.captureReserved,
    amountCaptured: record.amountCaptured,
    refundReserved: record.refundReserved,
    amountRefunded: record.amountRefunded,
    captureClosedBy: record.captureClosedBy,
    authorizationExpiresAt: record.authorizationExpiresAt,
  };
}
