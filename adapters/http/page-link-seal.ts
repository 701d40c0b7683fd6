import type { Payment } from '../../src/domain/payment.js';
import type { PaymentEngine } from '../../src/engine/payment-engine.js';
import type { HttpAnswer } from './http-answer.js';

/**
 * What a stored create answer holds in place of the hosted page link, when the engine makes links
 * from its `pageTokens`: the idempotency store (a database table) then holds no link that opens
 * the card form, and a replay puts the link back (`unsealPageLink`).
 */
export const SEALED_PAGE_LINK = 'paystate:hosted-page-link';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `answer` as the idempotency store keeps it: `next.redirect` replaced by `SEALED_PAGE_LINK` when
 * it is the engine's hosted page link; else undefined (keep `answer` as it is).
 */
export function sealPageLink(
  engine: Pick<PaymentEngine, 'hostedPageLink'>,
  answer: HttpAnswer,
  payment: Payment,
): HttpAnswer | undefined {
  const redirect = payment.next?.redirect;
  if (redirect === undefined || redirect !== engine.hostedPageLink(payment.id)) return undefined;
  // `answer`'s body is this payment's JSON: the same members in the same order, but the link.
  return { ...answer, body: JSON.stringify({ ...payment, next: { ...payment.next, redirect: SEALED_PAGE_LINK } }) };
}

/**
 * A stored answer as a replay sends it: the engine's hosted page link of the payment put back in
 * place of `SEALED_PAGE_LINK` (byte for byte the first answer: the link is the same every time), or
 * `next` left out when the engine makes no links any more. Any other answer as it is.
 */
export function unsealPageLink(engine: Pick<PaymentEngine, 'hostedPageLink'>, stored: HttpAnswer): HttpAnswer {
  if (!stored.body.includes(SEALED_PAGE_LINK)) return stored;
  let body: unknown;
  try {
    body = JSON.parse(stored.body);
  } catch {
    return stored;
  }
  if (!isRecord(body) || typeof body['id'] !== 'string') return stored;
  const next = body['next'];
  if (!isRecord(next) || next['redirect'] !== SEALED_PAGE_LINK) return stored;
  const link = engine.hostedPageLink(body['id']);
  const { next: _sealed, ...rest } = body;
  // `next` keeps its place among the members (JSON.stringify follows insertion order).
  const restored = link === null ? rest : { ...body, next: { ...next, redirect: link } };
  return { ...stored, body: JSON.stringify(restored) };
}
