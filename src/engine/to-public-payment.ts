import type { Payment, PublicCreditCard } from '../domain/payment.js';
import { paymentPath, profilePath } from '../domain/payment.js';
import type { PaymentRecord } from '../domain/payment-record.js';
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

/**
 * The payment as the API shows it: public state, `next` only when the cardholder must act, no
 * secrets. Every object it builds is frozen; what it takes from the record (contacts, the card
 * summary) is shared, so the result is frozen all the way down when the record's objects are, as
 * the engine's always are.
 */
export function toPublicPayment(record: PaymentRecord): Payment {
  // Keys are added in the order of the API's examples (they are serialized in that order);
  // optional ones only when present.
  const payment: { -readonly [K in keyof Payment]: Payment[K] } = {
    id: record.id,
  } as Payment;
  if (record.description !== null) payment.description = record.description;
  if (record.reference !== null) payment.reference = record.reference;
  payment.method = record.method;
  payment.currency = record.currency;
  payment.amount = record.amount;
  payment.billing = record.billing;
  payment.shipping = record.shipping;
  const creditcard = creditcardOf(record);
  if (creditcard !== undefined) payment.creditcard = creditcard;
  payment.session = freeze({ redirect_url: record.redirectUrl });
  if (cardholderMustAct(record.state) && record.nextRedirect !== null) {
    payment.next = freeze({ redirect: record.nextRedirect });
  }
  payment.state = toPublicState(record.state);
  if (record.state === 'failed' && record.failureReason !== null) payment.failure_reason = record.failureReason;
  payment.created = new Date(record.createdAt).toISOString();
  payment._links = freeze({
    self: freeze({ href: paymentPath(record.partnerId, record.profileId, record.id), type: 'application/json' }),
    profile: freeze({ href: profilePath(record.partnerId, record.profileId), type: 'application/json' }),
  });
  return freeze(payment);
}
