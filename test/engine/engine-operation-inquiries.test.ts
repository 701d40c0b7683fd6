import { err, ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { OperationInquiryOutcome } from '../../src/ports/acquirer.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { eventTypes, MINUTE, PROFILE } from '../support/engine-helpers.js';
import { amounts, authorized, current } from '../support/money-helpers.js';

const target = (paymentId: string) => ({ paymentId, profileId: PROFILE });
const lost = { code: 'unavailable', message: 'The connection to the acquirer was lost', retryable: true } as const;

describe('unknown outcomes of captures and refunds', () => {
  it('a capture whose answer is lost stays processing and is reconciled by inquiry, never sent again', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 10_000);
    let captures = 0;
    const answers: OperationInquiryOutcome[] = [{ kind: 'unknown', detail: 'still working' }];
    h.acquirer.capture = () => {
      captures += 1;
      return err(lost);
    };
    h.acquirer.inquireCapture = (request) =>
      ok(answers.shift() ?? { kind: 'succeeded', reference: `cap_${request.operationId.slice(-8)}` });
    const capture = (await h.engine.capturePayment({ ...target(payment.id), body: { amount: 4_000 } }))._unsafeUnwrap();
    expect(capture.state).toBe('processing');
    // Reserved while processing: nothing more than the rest can be captured meanwhile.
    expect(amounts(await current(h, payment.id))).toEqual({ capturable: 0, captured: 0, refunded: 0 });

    expect((await h.engine.sweep())._unsafeUnwrap().stillUnknown).toBe(0); // not due yet
    h.clock.advance(60 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap().stillUnknown).toBe(1);
    h.clock.advance(60 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap().reconciled).toBe(1);

    const settled = (await h.engine.getCapture({ ...target(payment.id), operationId: capture.id }))._unsafeUnwrap();
    expect(settled.state).toBe('succeeded');
    expect(captures).toBe(1);
    expect(amounts(await current(h, payment.id))).toEqual({ capturable: 0, captured: 4_000, refunded: 0 });
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.succeeded', 'payment.captured']);
  });

  it('a refund the acquirer never received fails once not_found is believed, and is refundable again', async () => {
    const h = makeEngineHarness({ notFoundIsFinalAfterInquiries: 2 });
    const payment = await authorized(h, 1_000, 'automatic');
    let refunds = 0;
    const refundForReal = h.acquirer.refund.bind(h.acquirer);
    h.acquirer.refund = () => {
      refunds += 1;
      return err(lost);
    };
    h.acquirer.inquireRefund = () => ok({ kind: 'not_found' });
    const refund = (await h.engine.refundPayment(target(payment.id)))._unsafeUnwrap();
    expect(refund.state).toBe('processing');
    expect((await h.engine.refundPayment(target(payment.id)))._unsafeUnwrapErr().code).toBe('payment_not_refundable');
    for (let i = 0; i < 4; i += 1) {
      h.clock.advance(60 * MINUTE);
      (await h.engine.sweep())._unsafeUnwrap();
    }
    const settled = (await h.engine.getRefund({ ...target(payment.id), operationId: refund.id }))._unsafeUnwrap();
    expect(settled).toMatchObject({ state: 'failed', failure_reason: 'processing_error' });
    expect(refunds).toBe(1);
    expect(amounts(await current(h, payment.id)).refunded).toBe(0);
    h.acquirer.refund = refundForReal;
    (await h.engine.refundPayment(target(payment.id)))._unsafeUnwrap();
    expect(amounts(await current(h, payment.id)).refunded).toBe(1_000);
    expect(await eventTypes(h, payment.id)).toEqual([
      'payment.created',
      'payment.succeeded',
      'refund.failed',
      'refund.succeeded',
    ]);
  });

  it('a cancel whose outcome is unknown keeps the authorization closed until the inquiry says', async () => {
    const h = makeEngineHarness();
    const payment = await authorized(h, 10_000);
    h.acquirer.cancel = () => err(lost);
    h.acquirer.inquireCancel = () => ok({ kind: 'succeeded', reference: 'void_1' });
    const canceled = (await h.engine.cancelPayment(target(payment.id)))._unsafeUnwrap();
    expect(canceled.amount_capturable).toBe(0);
    expect((await h.engine.capturePayment(target(payment.id)))._unsafeUnwrapErr().code).toBe('payment_not_capturable');
    h.clock.advance(60 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap().reconciled).toBe(1);
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.succeeded', 'payment.canceled']);
  });
});
