import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { makeEngineHarness } from '../support/engine-harness.js';
import { createHosted, eventTypes, PROFILE } from '../support/engine-helpers.js';
import { amounts, authorized, current } from '../support/money-helpers.js';

const target = (paymentId: string) => ({ paymentId, profileId: PROFILE });

describe('refundPayment', () => {
  it('refunds all that was captured by default', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 5_000, 'automatic');
    const refund = (await h.engine.refundPayment(target(payment.id)))._unsafeUnwrap();
    expect(refund).toMatchObject({ payment_id: payment.id, amount: 5_000, state: 'succeeded' });
    expect(refund.id).toMatch(/^refund_[0-9a-f]{32}$/);
    const after = await current(h, payment.id);
    expect(after.state).toBe('succeeded');
    expect(amounts(after)).toEqual({ capturable: 0, captured: 5_000, refunded: 5_000 });
    expect((await h.engine.refundPayment(target(payment.id)))._unsafeUnwrapErr().code).toBe('payment_not_refundable');
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.succeeded', 'refund.succeeded']);
  });

  it('takes several partial refunds with reference and description, listed oldest first', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 10_000, 'automatic');
    const refund = (amount: number, reference: string) =>
      h.engine.refundPayment({
        ...target(payment.id),
        body: { amount, reference, description: `refund ${reference}` },
      });
    (await refund(1_000, 'r1'))._unsafeUnwrap();
    h.clock.advance(1_000);
    (await refund(2_000, 'r2'))._unsafeUnwrap();
    h.clock.advance(1_000);
    const third = (await refund(3_000, 'r3'))._unsafeUnwrap();
    expect(third).toMatchObject({ reference: 'r3', description: 'refund r3' });
    expect((await refund(4_001, 'r4'))._unsafeUnwrapErr().code).toBe('amount_exceeds_refundable');
    expect(amounts(await current(h, payment.id)).refunded).toBe(6_000);
    const first = (await h.engine.listRefunds({ ...target(payment.id), limit: 2 }))._unsafeUnwrap();
    expect(first.items.map((item) => item.reference)).toEqual(['r1', 'r2']);
    const next = first.next_cursor;
    expect(next).toBeDefined();
    const rest = (await h.engine.listRefunds({ ...target(payment.id), limit: 2, after: next ?? '' }))._unsafeUnwrap();
    expect(rest.items.map((item) => item.reference)).toEqual(['r3']);
    expect(rest.next_cursor).toBeUndefined();
    const got = (await h.engine.getRefund({ ...target(payment.id), operationId: third.id }))._unsafeUnwrap();
    expect(got).toEqual(third);
    const elsewhere = await h.engine.getRefund({
      paymentId: payment.id,
      profileId: 'profile_x',
      operationId: third.id,
    });
    expect(elsewhere._unsafeUnwrapErr().code).toBe('not_found');
  });

  it('refunds only what a manual payment captured', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 10_000);
    expect((await h.engine.refundPayment(target(payment.id)))._unsafeUnwrapErr().code).toBe('payment_not_refundable');
    (await h.engine.capturePayment({ ...target(payment.id), body: { amount: 3_000, final: false } }))._unsafeUnwrap();
    const over = await h.engine.refundPayment({ ...target(payment.id), body: { amount: 3_001 } });
    expect(over._unsafeUnwrapErr().code).toBe('amount_exceeds_refundable');
    (await h.engine.refundPayment({ ...target(payment.id), body: { amount: 3_000 } }))._unsafeUnwrap();
    expect(amounts(await current(h, payment.id))).toEqual({ capturable: 7_000, captured: 3_000, refunded: 3_000 });
  });

  it('two concurrent refunds of 60 on 100: exactly one succeeds, the other is refused', async () => {
    const h = makeEngineHarness({}, 0, { acquirer: { latencyMs: 5 } });
    const payment = await authorized(h, 100, 'automatic');
    const both = await Promise.all([
      h.engine.refundPayment({ ...target(payment.id), body: { amount: 60 } }),
      h.engine.refundPayment({ ...target(payment.id), body: { amount: 60 } }),
    ]);
    const succeeded = both.filter((result) => result.isOk());
    const refused = both.filter((result) => result.isErr()).map((result) => result._unsafeUnwrapErr().code);
    expect(succeeded).toHaveLength(1);
    expect(refused).toEqual(['amount_exceeds_refundable']);
    expect(amounts(await current(h, payment.id)).refunded).toBe(60);
    expect((await h.engine.listRefunds(target(payment.id)))._unsafeUnwrap().items).toHaveLength(1);
  });

  it('a declined refund fails and its amount is refundable again', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 1_000, 'automatic');
    h.acquirer.refund = () => ok({ kind: 'declined', responseCode: '05', reason: 'refund_declined' });
    const refund = (await h.engine.refundPayment(target(payment.id)))._unsafeUnwrap();
    expect(refund).toMatchObject({ state: 'failed', failure_reason: 'refund_declined' });
    expect(amounts(await current(h, payment.id)).refunded).toBe(0);
    expect(await eventTypes(h, payment.id)).toContain('refund.failed');
    expect((await h.engine.listRefunds(target(payment.id)))._unsafeUnwrap().items).toHaveLength(1);
  });

  it('refuses a payment that never succeeded', async () => {
    const h = makeEngineHarness();
    const hosted = await createHosted(h);
    expect((await h.engine.refundPayment(target(hosted.id)))._unsafeUnwrapErr().code).toBe('payment_not_refundable');
  });
});
