import { describe, expect, it } from 'vitest';
import { makeEngineHarness } from '../support/engine-harness.js';
import { CHALLENGE_CARD, createDirect, createHosted, eventTypes, MINUTE, PROFILE } from '../support/engine-helpers.js';
import { amounts, authorized, current } from '../support/money-helpers.js';

const target = (paymentId: string) => ({ paymentId, profileId: PROFILE });
const DAY = 24 * 60 * MINUTE;

describe('cancelPayment', () => {
  it('voids a manual authorization: nothing capturable, state stays succeeded', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 10_000);
    const canceled = (await h.engine.cancelPayment(target(payment.id)))._unsafeUnwrap();
    expect(canceled.state).toBe('succeeded');
    expect(amounts(canceled)).toEqual({ capturable: 0, captured: 0, refunded: 0 });
    expect((await h.engine.capturePayment(target(payment.id)))._unsafeUnwrapErr().code).toBe('payment_not_capturable');
    expect((await h.engine.cancelPayment(target(payment.id)))._unsafeUnwrapErr().code).toBe('payment_not_cancelable');
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.succeeded', 'payment.canceled']);
  });

  it('releases what a partly captured authorization has left', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 10_000);
    (await h.engine.capturePayment({ ...target(payment.id), body: { amount: 2_500, final: false } }))._unsafeUnwrap();
    const canceled = (await h.engine.cancelPayment(target(payment.id)))._unsafeUnwrap();
    expect(amounts(canceled)).toEqual({ capturable: 0, captured: 2_500, refunded: 0 });
  });

  it('fails a hosted payment not yet submitted with failure_reason canceled', async () => {
    const h = makeEngineHarness();
    const hosted = await createHosted(h);
    const canceled = (await h.engine.cancelPayment(target(hosted.id)))._unsafeUnwrap();
    expect(canceled).toMatchObject({ state: 'failed', failure_reason: 'canceled' });
    expect(canceled.next).toBeUndefined();
    expect(await eventTypes(h, hosted.id)).toEqual(['payment.created', 'payment.canceled', 'payment.failed']);
  });

  it('fails a payment waiting for its challenge', async () => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    expect(payment.next).toBeDefined();
    const canceled = (await h.engine.cancelPayment(target(payment.id)))._unsafeUnwrap();
    expect(canceled).toMatchObject({ state: 'failed', failure_reason: 'canceled' });
    // The card held for the authorization after the challenge is gone with it.
    expect((await h.cardVault.take(payment.id))._unsafeUnwrap()).toBeNull();
  });

  it('refuses an automatic payment, a failed one, and another profile', async () => {
    const h = makeEngineHarness();
    const sale = await authorized(h, 1_000, 'automatic');
    expect((await h.engine.cancelPayment(target(sale.id)))._unsafeUnwrapErr().code).toBe('payment_not_cancelable');
    const hosted = await createHosted(h);
    (await h.engine.cancelPayment(target(hosted.id)))._unsafeUnwrap();
    expect((await h.engine.cancelPayment(target(hosted.id)))._unsafeUnwrapErr().code).toBe('payment_not_cancelable');
    const other = await h.engine.cancelPayment({ paymentId: sale.id, profileId: 'profile_other' });
    expect(other._unsafeUnwrapErr().code).toBe('not_found');
  });
});

describe('authorization expiry', () => {
  it('the sweeper releases a manual authorization after 7 days by default', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 10_000);
    (await h.engine.capturePayment({ ...target(payment.id), body: { amount: 1_000, final: false } }))._unsafeUnwrap();
    expect(payment.authorization_expires_at).toBe(new Date(h.clock.now() + 7 * DAY).toISOString());
    h.clock.advance(7 * DAY - 1);
    (await h.engine.sweep())._unsafeUnwrap();
    expect(amounts(await current(h, payment.id)).capturable).toBe(9_000);
    h.clock.advance(1);
    const report = (await h.engine.sweep())._unsafeUnwrap();
    expect(report.expired).toBe(1);
    const after = await current(h, payment.id);
    expect(amounts(after)).toEqual({ capturable: 0, captured: 1_000, refunded: 0 });
    expect(after.authorization_expires_at).toBeUndefined();
    expect(await eventTypes(h, payment.id)).toContain('payment.authorization_expired');
    expect((await h.engine.capturePayment(target(payment.id)))._unsafeUnwrapErr().code).toBe('payment_not_capturable');
  });

  it('follows the engine option', async () => {
    const h = makeEngineHarness({ authorizationLifetimeMs: 60 * MINUTE });
    const payment = await authorized(h, 10_000);
    h.clock.advance(60 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(1);
    expect(amounts(await current(h, payment.id)).capturable).toBe(0);
  });
});
