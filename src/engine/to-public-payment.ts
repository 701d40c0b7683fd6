import type { Payment, PublicCreditCard } from '../domain/payment.js';
import { paymentPath, profilePath } from '../domain/payment.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import { isoTime } from '../domain/iso-time.js';
import { amountCapturable, authorizationOpen } from '../domain/money-counters.js';
import { cardholderMustAct, toPublicState } from '../machine/public-state.js';

function creditcardOf(record: PaymentRecord): PublicCreditCard | undefined {
  const card = record.card;
  if (card === null) return undefined;
  const authorization = record.authorization;
  if (authorization === null) return freeze({ card });
  return freeze({
    rrn: authorization.rrn,
    fees: freeze({ interchange: authorization.fees.interchange, assesment: authorization.fees.assesment }),
    card: freeze({
      scheme: card.scheme,
      type: authorization.card.type,
      region: authorization.card.region,
      last4: card.last4,
      bin: card.bin,
      expiration: card.expiration,
      holder_name: card.holder_name,
      issuing_country: authorization.card.issuingCountry,
    }),
  });
}

const freeze = Object.freeze;

/** Options of `toPublicPayment`. */
export interface PublicPaymentOptions {
  /**
   * The hosted page link of a payment, for one awaiting card data whose record stores none (the
   * engine's `pageTokens` make it). Without it such a payment shows no `next`, as events do.
   */
  readonly hostedPageLink?: (paymentId: string) => string;
}

/** Where the cardholder must go now: the stored URL, else the hosted page link made when shown. */
function redirectOf(record: PaymentRecord, options: PublicPaymentOptions): string | null {
  if (!cardholderMustAct(record.state)) return null;
  if (record.nextRedirect !== null) return record.nextRedirect;
  const link = options.hostedPageLink;
  return record.state === 'awaiting_card_data' && record.flow === 'hosted' && link !== undefined
    ? link(record.id)
    : null;
}

/**
 * The payment as the API shows it: public state, `next` only when the cardholder must act, no
 * secrets. Every object it builds is frozen; what it takes from the record (contacts, the card
 * summary) is shared, so the result is frozen all the way down when the record's objects are, as
 * the engine's always are.
 */
export function toPublicPayment(record: PaymentRecord, options: PublicPaymentOptions = {}): Payment {
  const creditcard = creditcardOf(record);
  const redirect = redirectOf(record, options);
  return freeze({
    id: record.id,
    ...(record.description !== null ? { description: record.description } : {}),
    ...(record.reference !== null ? { reference: record.reference } : {}),
    method: record.method,
    currency: record.currency,
    amount: record.amount,
    billing: record.billing,
    shipping: record.shipping,
    ...(creditcard !== undefined ? { creditcard } : {}),
    session: freeze({ redirect_url: record.redirectUrl }),
    ...(redirect !== null ? { next: freeze({ redirect }) } : {}),
    state: toPublicState(record.state),
    ...(record.state === 'failed' && record.failureReason !== null ? { failure_reason: record.failureReason } : {}),
    created: isoTime(record.createdAt),
    capture_method: record.captureMethod,
    amount_capturable: amountCapturable(record),
    amount_captured: record.amountCaptured,
    amount_refunded: record.amountRefunded,
    ...(authorizationOpen(record) && record.authorizationExpiresAt !== null
      ? { authorization_expires_at: isoTime(record.authorizationExpiresAt) }
      : {}),
    _links: freeze({
      self: freeze({ href: paymentPath(record.partnerId, record.profileId, record.id), type: 'application/json' }),
      profile: freeze({ href: profilePath(record.partnerId, record.profileId), type: 'application/json' }),
    }),
  });
}
