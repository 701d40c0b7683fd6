import { describe, expect, it } from 'vitest';
import { FAILURE_REASONS } from '../../src/domain/failure-reason.js';
import type { Acquirer, OperationOutcome, OperationRequest } from '../../src/ports/acquirer.js';
import { paymentId, uniqueHex } from './fixtures.js';
import { expectOk } from './payment-repository.contract.js';

/** What the operations part of the acquirer contract needs: an acquirer and an approved manual authorization. */
export interface AcquirerOperationsHarness {
  readonly acquirer: Acquirer;
  /** Authorizes `amount` (manual) for a new payment and answers its id and rrn. */
  authorize(amount: number): Promise<{ readonly paymentId: string; readonly rrn: string }>;
}

const REFERENCE = /^[A-Za-z0-9_-]{1,32}$/;

/** The rules the engine checks operation answers against (docs/ports.md). */
function expectWellFormed(outcome: OperationOutcome): void {
  if (outcome.kind === 'succeeded') expect(outcome.reference).toMatch(REFERENCE);
  else if (outcome.kind === 'declined') {
    expect(outcome.responseCode).toMatch(/^[A-Za-z0-9]{2}$/);
    expect(FAILURE_REASONS).toContain(outcome.reason);
  } else expect(typeof outcome.detail).toBe('string');
}

/**
 * Captures, cancels and refunds (decisions.md section 8): keyed by operation id, the same id
 * answers the same decision and acts once; an inquiry answers that decision, `not_found` for an id
 * the acquirer never received. `makeHarness` gives a fresh acquirer per test.
 */
export function acquirerOperationsContract(name: string, makeHarness: () => AcquirerOperationsHarness): void {
  describe(`Acquirer contract, money operations: ${name}`, () => {
    const request = async (
      harness: AcquirerOperationsHarness,
      kind: string,
      amount: number,
    ): Promise<OperationRequest> => {
      const authorized = await harness.authorize(1_000);
      return {
        operationId: `${kind}_${uniqueHex()}`,
        paymentId: authorized.paymentId,
        profileId: 'profile_contract',
        amount,
        currency: 'EUR',
        authorization: { rrn: authorized.rrn },
      };
    };

    it('capture: well-formed, once per operation id, inquiry answers the same', async () => {
      const harness = makeHarness();
      const req = await request(harness, 'capture', 600);
      const first = await expectOk(harness.acquirer.capture({ ...req, final: false }));
      expectWellFormed(first);
      expect(await expectOk(harness.acquirer.capture({ ...req, final: false }))).toEqual(first);
      const inquiry = { operationId: req.operationId, paymentId: req.paymentId };
      if (first.kind !== 'unknown') expect(await expectOk(harness.acquirer.inquireCapture(inquiry))).toEqual(first);
    });

    it('refund and cancel: well-formed, inquiry answers the same', async () => {
      const harness = makeHarness();
      const refund = await request(harness, 'refund', 300);
      const refunded = await expectOk(harness.acquirer.refund(refund));
      expectWellFormed(refunded);
      const refundInquiry = { operationId: refund.operationId, paymentId: refund.paymentId };
      if (refunded.kind !== 'unknown')
        expect(await expectOk(harness.acquirer.inquireRefund(refundInquiry))).toEqual(refunded);
      const cancel = await request(harness, 'cancel', 1_000);
      const canceled = await expectOk(harness.acquirer.cancel(cancel));
      expectWellFormed(canceled);
      const cancelInquiry = { operationId: cancel.operationId, paymentId: cancel.paymentId };
      if (canceled.kind !== 'unknown')
        expect(await expectOk(harness.acquirer.inquireCancel(cancelInquiry))).toEqual(canceled);
    });

    it('an inquiry about an operation id never sent answers not_found', async () => {
      const { acquirer } = makeHarness();
      const unknown = { operationId: `refund_${uniqueHex()}`, paymentId: paymentId() };
      expect(await expectOk(acquirer.inquireRefund(unknown))).toEqual({ kind: 'not_found' });
      expect(await expectOk(acquirer.inquireCapture({ ...unknown, operationId: `capture_${uniqueHex()}` }))).toEqual({
        kind: 'not_found',
      });
      expect(await expectOk(acquirer.inquireCancel({ ...unknown, operationId: `cancel_${uniqueHex()}` }))).toEqual({
        kind: 'not_found',
      });
    });
  });
}
