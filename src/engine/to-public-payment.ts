import type { Payment, PublicCreditCard } from '../domain/payment.js';
import { paymentPath, profilePath } from '../domain/payment.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import { isoTime } from '../domain/iso-time.js';
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
  const creditcard = creditcardOf(record);
  const redirect = cardholderMustAct(record.state) ? record.nextRedirect : null;
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
    _links: freeze({
      self: freeze({ href: paymentPath(record.partnerId, record.profileId, record.id), type: 'application/json' }),
      profile: freeze({ href: profilePath(record.partnerId, record.profileId), type: 'application/json' }),
    }),
  });
}
