import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPostgresPaymentRepository } from '../../adapters/postgres/index.js';
import { makeEvent } from '../contracts/fixtures.js';
import { expectErr, expectOk } from '../contracts/payment-repository.contract.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';
import { count, refund, reserving, sale } from './support/money-fixtures.js';

const db = useMigratedDatabase();

describe('postgres money operations under concurrency and interruption', () => {
  it('two concurrent refunds of 60 on 100 from two pools: exactly one lands, every time', async () => {
    await resetTables(db.pool);
    const pools = [0, 1].map(() => {
      const pool = new pg.Pool({ connectionString: db.connectionString, max: 2 });
      pool.on('error', () => undefined);
      return pool;
    });
    const [one, two] = pools.map((pool) => createPostgresPaymentRepository({ pool }));
    try {
      for (let round = 0; round < 20; round++) {
        const payment = sale();
        await expectOk(one!.insert(payment, []));
        const [a, b] = await Promise.all(
          [one!, two!].map((repository) =>
            repository.insertOperation({
              operation: refund(payment, 60),
              payment: reserving(payment, 60),
              events: [makeEvent(payment, 'refund.succeeded')],
            }),
          ),
        );
        expect([a!.isOk(), b!.isOk()].sort()).toEqual([false, true]);
        const lost = (a!.isErr() ? a : b)!;
        expect(lost._unsafeUnwrapErr().code).toBe('conflict');
        expect((await expectOk(one!.load(payment.id)))?.refundReserved).toBe(60);
        expect(await count(db.pool, 'paystate_operations WHERE payment_id = $1', [payment.id])).toBe(1);
        expect(await count(db.pool, 'paystate_outbox WHERE payment_id = $1', [payment.id])).toBe(1);
      }
    } finally {
      await one!.close();
      await two!.close();
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('a statement cut off half-way (its connection killed while it waits) leaves nothing', async () => {
    await resetTables(db.pool);
    const pool = new pg.Pool({ connectionString: db.connectionString, max: 2, application_name: 'interrupted_refund' });
    pool.on('error', () => undefined);
    const repository = createPostgresPaymentRepository({ pool });
    const payment = sale();
    await expectOk(repository.insert(payment, []));
    const blocker = await db.pool.connect();
    try {
      // The outbox is locked: the refund's statement has locked the payment and may have written
      // the operation and the payment when it waits for it.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE paystate_outbox IN ACCESS EXCLUSIVE MODE');
      const pending = repository.insertOperation({
        operation: refund(payment, 60),
        payment: reserving(payment, 60),
        events: [makeEvent(payment)],
      });
      let killed = 0;
      for (let attempt = 0; attempt < 100 && killed === 0; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        killed = await count(
          db.pool,
          `(SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'interrupted_refund' AND wait_event_type = 'Lock') AS t`,
        );
      }
      expect(killed).toBe(1);
      const error = await expectErr(pending);
      expect(error).toMatchObject({ code: 'unavailable', retryable: true });
      await blocker.query('ROLLBACK');
    } finally {
      blocker.release();
    }
    expect(await expectOk(repository.load(payment.id))).toStrictEqual(payment);
    expect(await count(db.pool, 'paystate_operations')).toBe(0);
    expect(await count(db.pool, 'paystate_outbox')).toBe(0);
    await repository.close();
    await pool.end();
  });
});
