import type { PaymentRecord } from './payment-record.js';

type Counters = Pick<
  PaymentRecord,
  'state' | 'captureMethod' | 'amount' | 'captureReserved' | 'amountCaptured' | 'refundReserved' | 'captureClosedBy'
>;

/** Whether a manual payment's authorization is still open to captures and cancels. */
export function authorizationOpen(record: Counters): boolean {
  return record.state === 'succeeded' && record.captureMethod === 'manual' && record.captureClosedBy === null;
}

/** `amount_capturable`: `amount` minus captures not failed while the authorization is open, else 0. */
export function amountCapturable(record: Counters): number {
  return authorizationOpen(record) ? Math.max(0, record.amount - record.captureReserved) : 0;
}

/** What may still be refunded: succeeded captures minus refunds not failed (0 unless `succeeded`). */
export function amountRefundable(record: Counters): number {
  return record.state === 'succeeded' ? Math.max(0, record.amountCaptured - record.refundReserved) : 0;
}

/**
 * The money invariants (docs/http-api.md, Captures) that every stored version of a payment keeps:
 * captures not failed ≤ `amount`, refunds not failed ≤ `amount_captured`, succeeded ≤ reserved,
 * all non-negative. Repositories refuse a write that breaks one, where the data lives.
 */
export function moneyInvariantsHold(record: Counters & Pick<PaymentRecord, 'amountRefunded'>): boolean {
  return (
    record.amountCaptured >= 0 &&
    record.amountRefunded >= 0 &&
    record.amountCaptured <= record.captureReserved &&
    record.captureReserved <= record.amount &&
    record.amountRefunded <= record.refundReserved &&
    record.refundReserved <= record.amountCaptured
  );
}
