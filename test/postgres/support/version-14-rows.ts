import type pg from 'pg';
import { PAYMENT_WRITE_COLUMNS, paymentParams } from '../../../adapters/postgres/payment-row.js';
import type { PaymentRecord } from '../../../src/domain/payment-record.js';

/** The payment columns a release before migration 15 (the money counters) wrote. */
export const COLUMNS_BEFORE_MONEY = PAYMENT_WRITE_COLUMNS.slice(0, PAYMENT_WRITE_COLUMNS.indexOf('capture_method'));

/** Inserts `record` as a release before migration 15 wrote it: those columns only. */
export async function insertAsBeforeMoney(pool: pg.Pool, record: PaymentRecord): Promise<void> {
  await pool.query(
    `INSERT INTO paystate_payments (id, ${COLUMNS_BEFORE_MONEY.join(', ')})
     VALUES ($1, ${COLUMNS_BEFORE_MONEY.map((_, index) => `$${index + 2}`).join(', ')})`,
    [record.id, ...paymentParams(record).slice(0, COLUMNS_BEFORE_MONEY.length)],
  );
}
