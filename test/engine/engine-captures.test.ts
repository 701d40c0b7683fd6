import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { makeEngineHarness } from '../support/engine-harness.js';
import { createHosted, eventTypes, PROFILE } from '../support/engine-helpers.js';
import { amounts, authorized, current } from '../support/money-helpers.js';

const target = (paymentId: string) => ({ paymentId, profileId: PROFILE });

describe('automatic capture', () => {
  it('is a sale: a succeeded payment has captured its whole amount and nothing is capturable', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 2_500, 'automatic');
    expect(payment.capture_method).toBe('automatic');
    expect(amounts(payment)).toEqual({ capturable: 0, captured: 2_500, refunded: 0 });
    expect(payment.authorization_expires_at).toBeUndefined();
    const capture = await h.engine.capturePayment(target(payment.id));
    expect(capture._unsafeUnwrapErr().code).toBe('payment_not_capturable');
  });
});

describe('capturePayment', () => {
  it('captures all of a manual payment by default, final', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 10_000);
    expect(amounts(payment)).toEqual({ capturable: 10_000, captured: 0, refunded: 0 });
    expect(payment.authorization_expires_at).toBeDefined();
    const capture = (await h.engine.capturePayment(target(payment.id)))._unsafeUnwrap();
    expect(capture).toMatchObject({ payment_id: payment.id, amount: 10_000, currency: 'EUR', state: 'succeeded' });
    expect(capture.id).toMatch(/^capture_[0-9a-f]{32}$/);
    const after = await current(h, payment.id);
    expect(after.state).toBe('succeeded');
    expect(amounts(after)).toEqual({ capturable: 0, captured: 10_000, refunded: 0 });
    expect(after.authorization_expires_at).toBeUndefined();
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.succeeded', 'payment.captured']);
  });

  it('captures part and releases the rest when final', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 10_000);
    (await h.engine.capturePayment({ ...target(payment.id), body: { amount: 4_000 } }))._unsafeUnwrap();
    expect(amounts(await current(h, payment.id))).toEqual({ capturable: 0, captured: 4_000, refunded: 0 });
    const again = await h.engine.capturePayment({ ...target(payment.id), body: { amount: 1 } });
    expect(again._unsafeUnwrapErr().code).toBe('payment_not_capturable');
  });

  it('takes several non-final captures, never above the amount', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 10_000);
    const part = { ...target(payment.id), body: { amount: 3_000, final: false } };
    (await h.engine.capturePayment(part))._unsafeUnwrap();
    (await h.engine.capturePayment(part))._unsafeUnwrap();
    expect(amounts(await current(h, payment.id))).toEqual({ capturable: 4_000, captured: 6_000, refunded: 0 });
    const over = await h.engine.capturePayment({ ...target(payment.id), body: { amount: 4_001 } });
    expect(over._unsafeUnwrapErr().code).toBe('amount_exceeds_capturable');
    (await h.engine.capturePayment({ ...target(payment.id), body: { final: false } }))._unsafeUnwrap();
    expect(amounts(await current(h, payment.id))).toEqual({ capturable: 0, captured: 10_000, refunded: 0 });
    const list = (await h.engine.listCaptures(target(payment.id)))._unsafeUnwrap();
    expect(list.items.map((capture) => capture.amount)).toEqual([3_000, 3_000, 4_000]);
  });

  it('is idempotent by capture id: the same id answers the same capture, the acquirer hears of it once', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 10_000);
    let calls = 0;
    const capture = h.acquirer.capture.bind(h.acquirer);
    h.acquirer.capture = (request) => {
      calls += 1;
      return capture(request);
    };
    const captureId = h.engine.newOperationId('capture');
    const command = { ...target(payment.id), captureId, body: { amount: 1_000, final: false } };
    const first = (await h.engine.capturePayment(command))._unsafeUnwrap();
    const second = (await h.engine.capturePayment(command))._unsafeUnwrap();
    expect(second).toEqual(first);
    expect(first.id).toBe(captureId);
    expect(calls).toBe(1);
    expect(amounts(await current(h, payment.id)).captured).toBe(1_000);
  });

  it('refuses a malformed amount, a payment of another profile, and a payment not authorized', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h);
    const bad = await h.engine.capturePayment({ ...target(payment.id), body: { amount: 0 } });
    expect(bad._unsafeUnwrapErr()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'amount' }] });
    const other = await h.engine.capturePayment({ paymentId: payment.id, profileId: 'profile_other' });
    expect(other._unsafeUnwrapErr().code).toBe('not_found');
    const hosted = await createHosted(h);
    expect((await h.engine.capturePayment(target(hosted.id)))._unsafeUnwrapErr().code).toBe('payment_not_capturable');
  });

  it('a declined capture fails, its amount capturable again', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 10_000);
    const declined = makeDecliningCapture(h);
    const capture = (await h.engine.capturePayment(target(payment.id)))._unsafeUnwrap();
    expect(declined.calls).toBe(1);
    expect(capture).toMatchObject({ state: 'failed', failure_reason: 'capture_declined' });
    expect(amounts(await current(h, payment.id))).toEqual({ capturable: 10_000, captured: 0, refunded: 0 });
    expect(await eventTypes(h, payment.id)).toContain('payment.capture_failed');
  });
});

function makeDecliningCapture(h: ReturnType<typeof makeEngineHarness>) {
  const state = { calls: 0 };
  h.acquirer.capture = async () => {
    state.calls += 1;
    return ok({ kind: 'declined' as const, responseCode: '05', reason: 'capture_declined' as const });
  };
  return state;
}
