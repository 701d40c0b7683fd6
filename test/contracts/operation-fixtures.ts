import type { OperationKind, OperationRecord } from '../../src/domain/money-operation.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import { makeSucceededRecord, T0, uniqueHex } from './fixtures.js';

/** A succeeded manual payment of 100 (an open authorization), nothing captured yet. */
export function makeManualPayment(overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return makeSucceededRecord({
    amount: 100,
    currency: 'EUR',
    captureMethod: 'manual',
    authorizationExpiresAt: T0 + 7 * 24 * 60 * 60_000,
    ...overrides,
  });
}

/** A succeeded automatic payment of 100: all of it captured. */
export function makeSalePayment(overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return makeSucceededRecord({
    amount: 100,
    currency: 'EUR',
    captureReserved: 100,
    amountCaptured: 100,
    ...overrides,
  });
}

/** A `processing` operation of `payment` (version 1, every nullable field filled where it can be). */
export function makeOperation(
  payment: PaymentRecord,
  kind: OperationKind,
  overrides: Partial<OperationRecord> = {},
): OperationRecord {
  return {
    id: `${kind}_${uniqueHex()}`,
    kind,
    paymentId: payment.id,
    partnerId: payment.partnerId,
    profileId: payment.profileId,
    amount: 60,
    currency: payment.currency,
    final: true,
    state: 'processing',
    failureReason: null,
    reference: kind === 'refund' ? 'refund-ref — “ü”' : null,
    description: kind === 'refund' ? 'Returned goods' : null,
    acquirerReference: null,
    status: 'requested',
    nextInquiryAt: T0 + 2 * 60_000,
    inquiryAttempts: 0,
    notFoundAnswers: 0,
    version: 1,
    writeId: `wr_${uniqueHex()}`,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}
