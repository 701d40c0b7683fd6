import { describe, expect, it } from 'vitest';
import { type EngineHarness, compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { PROFILE } from '../support/engine-helpers.js';
import { amounts, current } from '../support/money-helpers.js';
import { directRequest } from '../support/requests.js';

// decisions.md section 8: each test card for captures and refunds, through the engine and the
// sandbox acquirer: create manual, capture part, refund part.

const MINUTE = 60_000;
const target = (paymentId: string) => ({ paymentId, profileId: PROFILE });

async function manualPayment(h: EngineHarness, number: string) {
  const body = directRequest(number, { amount: 10_000, capture_method: 'manual' });
  const payment = (await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body }))._unsafeUnwrap();
  expect(payment.state).toBe('succeeded');
  return payment;
}

/** Runs the sweeper until nothing is left unknown (at most a few hours of simulated time). */
async function settle(h: EngineHarness): Promise<void> {
  for (let i = 0; i < 5; i += 1) {
    h.clock.advance(60 * MINUTE);
    if ((await h.engine.sweep())._unsafeUnwrap().stillUnknown === 0) return;
  }
}

describe('sandbox test cards for captures and refunds, through the engine', () => {
  it('4000000000005126: captures; every refund fails with refund_declined', async () => {
    const h = makeEngineHarness();
    const payment = await manualPayment(h, '4000000000005126');
    const capture = (await h.engine.capturePayment({ ...target(payment.id), body: { amount: 6_000 } }))._unsafeUnwrap();
    expect(capture.state).toBe('succeeded');
    const refund = (await h.engine.refundPayment({ ...target(payment.id), body: { amount: 1_000 } }))._unsafeUnwrap();
    expect(refund).toMatchObject({ state: 'failed', failure_reason: 'refund_declined' });
    expect(amounts(await current(h, payment.id))).toEqual({ capturable: 0, captured: 6_000, refunded: 0 });
    expect(h.acquirer.operationCalls(refund.id)).toBe(1);
  });

  it('4000000000007726: a refund is processing after its time-out, then succeeded by the inquiry', async () => {
    const h = makeEngineHarness();
    const payment = await manualPayment(h, '4000000000007726');
    (await h.engine.capturePayment({ ...target(payment.id), body: { amount: 6_000 } }))._unsafeUnwrap();
    const refund = (await h.engine.refundPayment({ ...target(payment.id), body: { amount: 1_000 } }))._unsafeUnwrap();
    expect(refund.state).toBe('processing');
    await settle(h);
    const settled = (await h.engine.getRefund({ ...target(payment.id), operationId: refund.id }))._unsafeUnwrap();
    expect(settled.state).toBe('succeeded');
    expect(amounts(await current(h, payment.id))).toEqual({ capturable: 0, captured: 6_000, refunded: 1_000 });
    expect(h.acquirer.operationCalls(refund.id)).toBe(1);
  });

  it('4000000000000341: every capture fails with capture_declined; nothing to refund', async () => {
    const h = makeEngineHarness();
    const payment = await manualPayment(h, '4000000000000341');
    const capture = (await h.engine.capturePayment({ ...target(payment.id), body: { amount: 6_000 } }))._unsafeUnwrap();
    expect(capture).toMatchObject({ state: 'failed', failure_reason: 'capture_declined' });
    expect(amounts(await current(h, payment.id)).captured).toBe(0);
    expect((await h.engine.refundPayment(target(payment.id)))._unsafeUnwrapErr().code).toBe('payment_not_refundable');
    expect(h.acquirer.operationCalls(capture.id)).toBe(1);
  });

  it('4000000000000259: a capture is processing after its time-out, then succeeded; its refund succeeds', async () => {
    const h = makeEngineHarness();
    const payment = await manualPayment(h, '4000000000000259');
    const capture = (await h.engine.capturePayment({ ...target(payment.id), body: { amount: 6_000 } }))._unsafeUnwrap();
    expect(capture.state).toBe('processing');
    await settle(h);
    const settled = (await h.engine.getCapture({ ...target(payment.id), operationId: capture.id }))._unsafeUnwrap();
    expect(settled.state).toBe('succeeded');
    const refund = (await h.engine.refundPayment({ ...target(payment.id), body: { amount: 1_000 } }))._unsafeUnwrap();
    expect(refund.state).toBe('succeeded');
    expect(amounts(await current(h, payment.id))).toEqual({ capturable: 0, captured: 6_000, refunded: 1_000 });
    expect(h.acquirer.operationCalls(capture.id)).toBe(1);
  });
});
