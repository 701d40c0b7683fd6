import type pg from 'pg';
import type { OperationRecord } from '../../../src/domain/money-operation.js';
import type { PaymentRecord } from '../../../src/domain/payment-record.js';
import { makeSucceededRecord, MINUTE, nextVersion, T0, uniqueHex } from '../../contracts/fixtures.js';

/** Money-operation fixtures of the Postgres tests. */

/** A succeeded automatic payment of 100 that captured it all. */
export const sale = (overrides: Partial<PaymentRecord> = {}): PaymentRecord =>
  makeSucceededRecord({ amount: 100, captureReserved: 100, amountCaptured: 100, ...overrides });

/** A `processing` refund of `amount` on `payment`. */
export const refund = (
  payment: PaymentRecord,
  amount: number,
  overrides: Partial<OperationRecord> = {},
): OperationRecord => ({
  id: `refund_${uniqueHex()}`,
  kind: 'refund',
  paymentId: payment.id,
  partnerId: payment.partnerId,
  profileId: payment.profileId,
  amount,
  currency: payment.currency,
  final: true,
  state: 'processing',
  failureReason: null,
  reference: 'rma-7',
  description: 'Returned: “crème brûlée” ✓',
  acquirerReference: null,
  status: 'requested',
  nextInquiryAt: null,
  inquiryAttempts: 0,
  notFoundAnswers: 0,
  version: 1,
  writeId: `wr_${uniqueHex()}`,
  createdAt: T0 + MINUTE,
  updatedAt: T0 + MINUTE,
  ...overrides,
});

/** The payment's next version with `amount` more reserved for refunds. */
export const reserving = (payment: PaymentRecord, amount: number): PaymentRecord =>
  nextVersion(payment, { refundReserved: payment.refundReserved + amount });

export const count = async (pool: pg.Pool, sql: string, values: unknown[] = []): Promise<number> =>
  (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, values)).rows[0]!.n;
