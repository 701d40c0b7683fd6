import type { Payment } from '../../src/index.js';
import type { EngineHarness } from './engine-harness.js';
import { compliantClient } from './engine-harness.js';
import { PROFILE, VISA } from './engine-helpers.js';
import { directRequest } from './requests.js';

/** A succeeded direct payment of `amount` with `capture_method` `manual` (default) or `automatic`. */
export async function authorized(
  h: EngineHarness,
  amount = 10_000,
  captureMethod: 'manual' | 'automatic' = 'manual',
): Promise<Payment> {
  const body = directRequest(VISA, { amount, capture_method: captureMethod });
  const payment = (await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body }))._unsafeUnwrap();
  if (payment.state !== 'succeeded') throw new Error(`expected a succeeded payment, got ${payment.state}`);
  return payment;
}

/** The payment as `getPayment` shows it now. */
export async function current(h: EngineHarness, id: string): Promise<Payment> {
  return (await h.engine.getPayment({ paymentId: id, profileId: PROFILE }))._unsafeUnwrap();
}

/** Which sums the payment shows: capturable, captured, refunded. */
export function amounts(payment: Payment) {
  return {
    capturable: payment.amount_capturable,
    captured: payment.amount_captured,
    refunded: payment.amount_refunded,
  };
}
