import type { Payment, PublicCreditCard } from '../domain/payment.js';
import { paymentPath, profilePath } from '../domain/payment.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import { cardholderMustAct, toPublicState } from '../machine/public-state.js';

function creditcardOf(record: PaymentRecord): PublicCreditCard | undefined {
  const card = record.card;
  if (card === null) return undefined;
  const authorization = record.authorization;
  if (authorization === null) return { card };
  return {
    rrn: authorization.rrn,
    fees: { interchange: authorization.fees.interchange, assesment: authorization.fees.assesment },
    card: {
      scheme: card.scheme,
      type: authorization.card.type,
      region: authorization.card.region,
      last4: card.last4,
      bin: card.bin,
      expiration: card.expiration,
      holder_name: card.holder_name,
      issuing_country: authorization.card.issuingCountry,
    },
  };
}

/** The payment as the API shows it: public state, `next` only when the cardholder must act, no secrets. */
export function toPublicPayment(record: PaymentRecord): Payment {
  const creditcard = creditcardOf(record);
  const redirect = cardholderMustAct(record.state) ? record.nextRedirect : null;
  return {
    id: record.id,
    ...(record.description !== null ? { description: record.description } : {}),
    ...(record.reference !== null ? { reference: record.reference } : {}),
    method: record.method,
    currency: record.currency,
    amount: record.amount,
    billing: record.billing,
    shipping: record.shipping,
    ...(creditcard !== undefined ? { creditcard } : {}),
    session: { redirect_url: record.redirectUrl },
    ...(redirect !== null ? { next: { redirect } } : {}),
    state: toPublicState(record.state),
    ...(record.state === 'failed' && record.failureReason !== null ? { failure_reason: record.failureReason } : {}),
    created: new Date(record.createdAt).toISOString(),
    _links: {
      self: { href: paymentPath(record.partnerId, record.profileId, record.id), type: 'application/json' },
      profile: { href: profilePath(record.partnerId, record.profileId), type: 'application/json' },
    },
  };
}
