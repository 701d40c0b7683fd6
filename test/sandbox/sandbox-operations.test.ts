import { describe, expect, it } from 'vitest';
import { createSandboxAcquirer, type SandboxAcquirer } from '../../adapters/sandbox/index.js';
import type { CaptureMethod } from '../../src/domain/capture-method.js';
import type { AuthorizationRequest, CaptureRequest, OperationRequest } from '../../src/ports/acquirer.js';

function authorization(number: string, paymentId: string, captureMethod: CaptureMethod): AuthorizationRequest {
  return {
    paymentId,
    profileId: 'profile_1',
    amount: 10_000,
    currency: 'EUR',
    card: { number, cvc: '918', expiration: '2030-12-01T00:00:00.000Z', holderName: 'Jane Doe', scheme: 'visa' },
    threeDS: null,
    authentication: null,
    captureMethod,
  };
}

function operation(operationId: string, paymentId: string, amount: number, rrn: string): OperationRequest {
  return { operationId, paymentId, profileId: 'profile_1', amount, currency: 'EUR', authorization: { rrn } };
}

const capture = (id: string, paymentId: string, amount: number, rrn: string, final = true): CaptureRequest => ({
  ...operation(id, paymentId, amount, rrn),
  final,
});

/** An approved authorization of 100.00 EUR with this card; answers its rrn. */
async function authorize(sandbox: SandboxAcquirer, number: string, paymentId: string, method: CaptureMethod) {
  const answer = (await sandbox.authorize(authorization(number, paymentId, method)))._unsafeUnwrap();
  if (answer.kind !== 'approved') throw new Error(`expected an approval, got ${answer.kind}`);
  return answer.rrn;
}

function sandbox(): SandboxAcquirer {
  let n = 0;
  return createSandboxAcquirer({ rrn: () => String((n += 1)).padStart(12, '0') });
}

describe('sandbox acquirer: captures, cancels and refunds', () => {
  it('captures a manual authorization in parts up to its amount, then declines more (13)', async () => {
    const acquirer = sandbox();
    const rrn = await authorize(acquirer, '4242424242424242', 'payment_m', 'manual');
    expect((await acquirer.capture(capture('capture_1', 'payment_m', 6000, rrn, false)))._unsafeUnwrap()).toEqual({
      kind: 'succeeded',
      reference: '000000000002',
    });
    expect((await acquirer.capture(capture('capture_2', 'payment_m', 4001, rrn, false)))._unsafeUnwrap()).toEqual({
      kind: 'declined',
      responseCode: '13',
      reason: 'capture_declined',
    });
    expect((await acquirer.capture(capture('capture_3', 'payment_m', 4000, rrn)))._unsafeUnwrap().kind).toBe(
      'succeeded',
    );
    expect((await acquirer.cancel(operation('cancel_1', 'payment_m', 1, rrn)))._unsafeUnwrap()).toEqual({
      kind: 'declined',
      responseCode: '12',
      reason: 'declined',
    });
  });

  it('treats an automatic authorization as a sale: nothing to capture or cancel, all of it refundable', async () => {
    const acquirer = sandbox();
    const rrn = await authorize(acquirer, '4242424242424242', 'payment_a', 'automatic');
    expect((await acquirer.capture(capture('capture_a', 'payment_a', 100, rrn)))._unsafeUnwrap().kind).toBe('declined');
    expect((await acquirer.cancel(operation('cancel_a', 'payment_a', 100, rrn)))._unsafeUnwrap().kind).toBe('declined');
    expect((await acquirer.refund(operation('refund_1', 'payment_a', 7000, rrn)))._unsafeUnwrap().kind).toBe(
      'succeeded',
    );
    expect((await acquirer.refund(operation('refund_2', 'payment_a', 3001, rrn)))._unsafeUnwrap()).toEqual({
      kind: 'declined',
      responseCode: '13',
      reason: 'refund_declined',
    });
    expect((await acquirer.refund(operation('refund_3', 'payment_a', 3000, rrn)))._unsafeUnwrap().kind).toBe(
      'succeeded',
    );
  });

  it('refunds no more than was captured, and cancels what is left uncaptured once', async () => {
    const acquirer = sandbox();
    const rrn = await authorize(acquirer, '4242424242424242', 'payment_c', 'manual');
    expect((await acquirer.refund(operation('refund_0', 'payment_c', 1, rrn)))._unsafeUnwrap().kind).toBe('declined');
    await acquirer.capture(capture('capture_c', 'payment_c', 2500, rrn, false));
    expect((await acquirer.refund(operation('refund_c', 'payment_c', 2501, rrn)))._unsafeUnwrap().kind).toBe(
      'declined',
    );
    expect((await acquirer.cancel(operation('cancel_c', 'payment_c', 7500, rrn)))._unsafeUnwrap().kind).toBe(
      'succeeded',
    );
    expect((await acquirer.capture(capture('capture_d', 'payment_c', 1, rrn)))._unsafeUnwrap().kind).toBe('declined');
    expect(
      (await acquirer.inquireCancel({ operationId: 'cancel_c', paymentId: 'payment_c' }))._unsafeUnwrap().kind,
    ).toBe('succeeded');
  });

  it('answers a repeated operation id with its first outcome and counts the calls', async () => {
    const acquirer = sandbox();
    const rrn = await authorize(acquirer, '4242424242424242', 'payment_r', 'automatic');
    const first = (await acquirer.refund(operation('refund_r', 'payment_r', 10_000, rrn)))._unsafeUnwrap();
    const again = (await acquirer.refund(operation('refund_r', 'payment_r', 10_000, rrn)))._unsafeUnwrap();
    expect(again).toEqual(first);
    expect(first.kind).toBe('succeeded');
    expect(acquirer.operationCalls('refund_r')).toBe(2);
    expect(acquirer.operations()).toHaveLength(1);
    expect((await acquirer.inquireRefund({ operationId: 'refund_x', paymentId: 'payment_r' }))._unsafeUnwrap()).toEqual(
      {
        kind: 'not_found',
      },
    );
    // The id is a refund's: a capture inquiry does not find it.
    expect(
      (await acquirer.inquireCapture({ operationId: 'refund_r', paymentId: 'payment_r' }))._unsafeUnwrap(),
    ).toEqual({
      kind: 'not_found',
    });
  });

  it('records an operation whose answer is lost, and records nothing when unreachable', async () => {
    const acquirer = sandbox();
    const rrn = await authorize(acquirer, '4242424242424242', 'payment_f', 'automatic');
    acquirer.failNextOperation('refund', 'unavailable');
    expect((await acquirer.refund(operation('refund_u', 'payment_f', 100, rrn))).isErr()).toBe(true);
    expect(
      (await acquirer.inquireRefund({ operationId: 'refund_u', paymentId: 'payment_f' }))._unsafeUnwrap().kind,
    ).toBe('not_found');
    acquirer.failNextOperation('refund', 'answer_lost');
    expect((await acquirer.refund(operation('refund_l', 'payment_f', 100, rrn))).isErr()).toBe(true);
    acquirer.failNextOperationInquiry('refund');
    expect((await acquirer.inquireRefund({ operationId: 'refund_l', paymentId: 'payment_f' })).isErr()).toBe(true);
    expect(
      (await acquirer.inquireRefund({ operationId: 'refund_l', paymentId: 'payment_f' }))._unsafeUnwrap().kind,
    ).toBe('succeeded');
  });
});

describe('sandbox test cards for captures and refunds (decisions.md section 8)', () => {
  it('4000000000005126: approved; every refund is declined (refund_declined)', async () => {
    const acquirer = sandbox();
    const rrn = await authorize(acquirer, '4000000000005126', 'payment_1', 'manual');
    expect((await acquirer.capture(capture('capture_1', 'payment_1', 10_000, rrn)))._unsafeUnwrap().kind).toBe(
      'succeeded',
    );
    for (const id of ['refund_1', 'refund_2']) {
      const declined = { kind: 'declined', responseCode: '05', reason: 'refund_declined' };
      expect((await acquirer.refund(operation(id, 'payment_1', 100, rrn)))._unsafeUnwrap()).toEqual(declined);
      expect((await acquirer.inquireRefund({ operationId: id, paymentId: 'payment_1' }))._unsafeUnwrap()).toEqual(
        declined,
      );
    }
  });

  it("4000000000007726: approved; each refund's first answer times out, the inquiry says succeeded", async () => {
    const acquirer = sandbox();
    const rrn = await authorize(acquirer, '4000000000007726', 'payment_2', 'automatic');
    for (const id of ['refund_1', 'refund_2']) {
      expect((await acquirer.refund(operation(id, 'payment_2', 100, rrn)))._unsafeUnwrap().kind).toBe('unknown');
      const found = (await acquirer.inquireRefund({ operationId: id, paymentId: 'payment_2' }))._unsafeUnwrap();
      expect(found).toEqual({ kind: 'succeeded', reference: expect.stringMatching(/^\d{12}$/) });
    }
    // Amounts still count: the whole 100.00 refunded, one cent more is declined.
    expect((await acquirer.refund(operation('refund_3', 'payment_2', 9800, rrn)))._unsafeUnwrap().kind).toBe('unknown');
    expect((await acquirer.refund(operation('refund_4', 'payment_2', 1, rrn)))._unsafeUnwrap().kind).toBe('declined');
  });

  it('4000000000000341: approved; every capture is declined (capture_declined)', async () => {
    const acquirer = sandbox();
    const rrn = await authorize(acquirer, '4000000000000341', 'payment_3', 'manual');
    const declined = { kind: 'declined', responseCode: '05', reason: 'capture_declined' };
    expect((await acquirer.capture(capture('capture_1', 'payment_3', 100, rrn, false)))._unsafeUnwrap()).toEqual(
      declined,
    );
    expect((await acquirer.capture(capture('capture_2', 'payment_3', 10_000, rrn)))._unsafeUnwrap()).toEqual(declined);
    // Nothing captured: nothing to refund, all of it still to cancel.
    expect((await acquirer.refund(operation('refund_1', 'payment_3', 1, rrn)))._unsafeUnwrap().kind).toBe('declined');
    expect((await acquirer.cancel(operation('cancel_1', 'payment_3', 10_000, rrn)))._unsafeUnwrap().kind).toBe(
      'succeeded',
    );
  });

  it("4000000000000259: approved; each capture's first answer times out, the inquiry says succeeded", async () => {
    const acquirer = sandbox();
    const rrn = await authorize(acquirer, '4000000000000259', 'payment_4', 'manual');
    expect((await acquirer.capture(capture('capture_1', 'payment_4', 4000, rrn, false)))._unsafeUnwrap().kind).toBe(
      'unknown',
    );
    expect(
      (await acquirer.inquireCapture({ operationId: 'capture_1', paymentId: 'payment_4' }))._unsafeUnwrap().kind,
    ).toBe('succeeded');
    expect((await acquirer.capture(capture('capture_2', 'payment_4', 6000, rrn)))._unsafeUnwrap().kind).toBe('unknown');
    expect(
      (await acquirer.inquireCapture({ operationId: 'capture_2', paymentId: 'payment_4' }))._unsafeUnwrap().kind,
    ).toBe('succeeded');
    // The captured 100.00 is refundable (the card's refunds behave normally).
    expect((await acquirer.refund(operation('refund_1', 'payment_4', 10_000, rrn)))._unsafeUnwrap().kind).toBe(
      'succeeded',
    );
  });
});
