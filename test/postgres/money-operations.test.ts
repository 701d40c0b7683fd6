import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPostgresPaymentRepository, MIGRATIONS, migrate } from '../../adapters/postgres/index.js';
import type { OperationRecord } from '../../src/domain/money-operation.js';
import { makeEvent, makeRecord, makeSucceededRecord, MINUTE, nextVersion, T0 } from '../contracts/fixtures.js';
import { expectErr, expectOk } from '../contracts/payment-repository.contract.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';
import { count, refund, reserving, sale } from './support/money-fixtures.js';
import { COLUMNS_BEFORE_MONEY, insertAsBeforeMoney } from './support/version-14-rows.js';

const db = useMigratedDatabase();

describe('migration 15 (money operations)', () => {
  it('upgrades a database populated at version 14: a succeeded payment captured its amount, others nothing', async () => {
    const schema = `s_${randomBytes(4).toString('hex')}`;
    await db.pool.query(`CREATE SCHEMA ${schema}`);
    const pool = new pg.Pool({ connectionString: db.connectionString, options: `-c search_path=${schema}`, max: 2 });
    pool.on('error', () => undefined);
    try {
      await migrate(pool, { migrations: MIGRATIONS.filter((migration) => migration.version <= 14) });
      // Rows as version 14 wrote them, without the money columns.
      const succeeded = makeSucceededRecord({ amount: 4_200 });
      const waiting = makeRecord({ amount: 1_500 });
      const failed = makeSucceededRecord({ state: 'failed', amount: 700, failureReason: 'declined' });
      for (const record of [succeeded, waiting, failed]) await insertAsBeforeMoney(pool, record);
      expect(COLUMNS_BEFORE_MONEY).toHaveLength(32);

      const report = (await migrate(pool))._unsafeUnwrap();
      expect(report.applied.map((applied) => applied.version)).toEqual(
        MIGRATIONS.filter((migration) => migration.version >= 15).map((migration) => migration.version),
      );

      const repository = createPostgresPaymentRepository({ pool });
      expect(await expectOk(repository.load(succeeded.id))).toStrictEqual({
        ...succeeded,
        captureReserved: 4_200,
        amountCaptured: 4_200,
      });
      expect(await expectOk(repository.load(waiting.id))).toStrictEqual(waiting);
      expect(await expectOk(repository.load(failed.id))).toStrictEqual(failed);

      // The upgraded sale can be refunded, within what it captured only.
      const upgraded = (await expectOk(repository.load(succeeded.id)))!;
      await expectOk(
        repository.insertOperation({
          operation: refund(upgraded, 4_000),
          payment: reserving(upgraded, 4_000),
          events: [],
        }),
      );
      const after = (await expectOk(repository.load(succeeded.id)))!;
      expect(
        (
          await expectErr(
            repository.insertOperation({ operation: refund(after, 201), payment: reserving(after, 201), events: [] }),
          )
        ).code,
      ).toBe('conflict');
      await repository.close();

      const { rows: checks } = await pool.query<{ conname: string }>(
        `SELECT conname FROM pg_constraint WHERE conrelid = 'paystate_payments'::regclass AND conname LIKE 'paystate_payments_money_%' ORDER BY conname`,
      );
      expect(checks.map((row) => row.conname)).toEqual([
        'paystate_payments_money_captures',
        'paystate_payments_money_non_negative',
        'paystate_payments_money_refunds',
      ]);
    } finally {
      await pool.end();
      await db.pool.query(`DROP SCHEMA ${schema} CASCADE`);
    }
  });

  it('refuses, on the row itself, counters that break an invariant (whatever writes them)', async () => {
    await resetTables(db.pool);
    const repository = createPostgresPaymentRepository({ pool: db.pool });
    const payment = sale();
    await expectOk(repository.insert(payment, []));
    for (const change of [
      'refund_reserved = 101',
      'capture_reserved = 101',
      'amount_captured = 101',
      'amount_refunded = 1',
      'refund_reserved = -1',
    ]) {
      await expect(
        db.pool.query(`UPDATE paystate_payments SET ${change} WHERE id = $1`, [payment.id]),
      ).rejects.toMatchObject({
        code: '23514',
      });
    }
    // Through the port: a conflict, nothing stored.
    const error = await expectErr(
      repository.update(nextVersion(payment, { refundReserved: 101 }), [makeEvent(payment)]),
    );
    expect(error.code).toBe('conflict');
    expect(await expectOk(repository.load(payment.id))).toStrictEqual(payment);
    expect(await count(db.pool, 'paystate_outbox')).toBe(0);
    await repository.close();
  });
});

describe('postgres money operations', () => {
  it('stores an operation with the payment and its events, then a versioned update of both', async () => {
    await resetTables(db.pool);
    const repository = createPostgresPaymentRepository({ pool: db.pool });
    const payment = sale();
    await expectOk(repository.insert(payment, []));
    const operation = refund(payment, 60, { nextInquiryAt: T0 + 2 * MINUTE });
    const reserved = reserving(payment, 60);
    await expectOk(repository.insertOperation({ operation, payment: reserved, events: [makeEvent(reserved)] }));
    expect(await expectOk(repository.loadOperation(operation.id))).toStrictEqual(operation);
    expect(await expectOk(repository.load(payment.id))).toStrictEqual(reserved);
    expect(await expectOk(repository.loadOperation('refund_unknown'))).toBeNull();

    // Due for an inquiry, then not once it succeeded.
    expect(
      (await expectOk(repository.findDueOperations({ now: T0 + 2 * MINUTE, limit: 10 }))).map((due) => due.id),
    ).toEqual([operation.id]);
    expect(await expectOk(repository.findDueOperations({ now: T0 + MINUTE, limit: 10 }))).toEqual([]);
    const done: OperationRecord = {
      ...operation,
      state: 'succeeded',
      status: null,
      nextInquiryAt: null,
      acquirerReference: 'acq_ref_1',
      version: 2,
    };
    const refunded = nextVersion(reserved, { amountRefunded: 60 });
    // A stale operation version or payment version: conflict, nothing written.
    expect(
      (
        await expectErr(
          repository.updateOperation({ operation: { ...done, version: 3 }, payment: refunded, events: [] }),
        )
      ).code,
    ).toBe('conflict');
    expect(
      (await expectErr(repository.updateOperation({ operation: done, payment: nextVersion(refunded), events: [] })))
        .code,
    ).toBe('conflict');
    expect(await expectOk(repository.loadOperation(operation.id))).toStrictEqual(operation);
    await expectOk(
      repository.updateOperation({
        operation: done,
        payment: refunded,
        events: [makeEvent(refunded, 'refund.succeeded')],
      }),
    );
    expect(await expectOk(repository.loadOperation(operation.id))).toStrictEqual(done);
    expect(await expectOk(repository.load(payment.id))).toStrictEqual(refunded);
    expect(await expectOk(repository.findDueOperations({ now: T0 + 10 * MINUTE, limit: 10 }))).toEqual([]);
    const events = await expectOk(repository.readOutbox({ now: T0, limit: 10 }));
    expect(events.map((entry) => entry.event.type)).toEqual(['payment.created', 'refund.succeeded']);

    // Without a payment change: the operation alone, checked against its own version.
    const rescheduled = { ...done, version: 3, updatedAt: done.updatedAt + 1 };
    await expectOk(repository.updateOperation({ operation: rescheduled, payment: null, events: [] }));
    expect((await expectOk(repository.load(payment.id)))?.version).toBe(refunded.version);
    await repository.close();
  });

  it('refuses a taken id, an unknown payment, a stale payment and counters past the invariants: nothing written', async () => {
    await resetTables(db.pool);
    const repository = createPostgresPaymentRepository({ pool: db.pool });
    const payment = sale();
    await expectOk(repository.insert(payment, []));
    const first = refund(payment, 30);
    await expectOk(repository.insertOperation({ operation: first, payment: reserving(payment, 30), events: [] }));
    const stored = (await expectOk(repository.load(payment.id)))!;
    const attempts = [
      { operation: { ...first }, payment: reserving(stored, 30), events: [makeEvent(stored)] },
      { operation: refund(makeRecord(), 1), payment: null, events: [makeEvent(stored)] },
      { operation: refund(stored, 10), payment: reserving(payment, 10), events: [makeEvent(stored)] },
      { operation: refund(stored, 71), payment: reserving(stored, 71), events: [makeEvent(stored)] },
    ];
    for (const write of attempts) {
      const error = await expectErr(repository.insertOperation(write));
      expect(error.code).toBe('conflict');
    }
    expect(await expectOk(repository.load(payment.id))).toStrictEqual(stored);
    expect(await count(db.pool, 'paystate_operations')).toBe(1);
    expect(await count(db.pool, 'paystate_outbox')).toBe(0);
    await repository.close();
  });

  it('lists a payment operations oldest first, by kind, with a cursor', async () => {
    await resetTables(db.pool);
    const repository = createPostgresPaymentRepository({ pool: db.pool });
    let payment = sale();
    await expectOk(repository.insert(payment, []));
    const stored: OperationRecord[] = [];
    for (const [index, amount] of [10, 20, 30].entries()) {
      const operation = refund(payment, amount, { createdAt: T0 + (3 - index) * MINUTE });
      const next = reserving(payment, amount);
      await expectOk(repository.insertOperation({ operation, payment: next, events: [] }));
      stored.push(operation);
      payment = next;
    }
    const oldestFirst = [...stored].reverse().map((operation) => operation.id);
    const first = await expectOk(repository.listOperations({ paymentId: payment.id, limit: 2 }));
    expect(first.items.map((item) => item.id)).toEqual(oldestFirst.slice(0, 2));
    const second = await expectOk(
      repository.listOperations({ paymentId: payment.id, limit: 2, after: first.nextCursor! }),
    );
    expect(second).toEqual({ items: [stored[0]], nextCursor: null });
    expect(await expectOk(repository.listOperations({ paymentId: payment.id, limit: 5, kind: 'capture' }))).toEqual({
      items: [],
      nextCursor: null,
    });
    expect(
      await expectOk(repository.listOperations({ paymentId: payment.id, limit: 5, after: 'refund_unknown' })),
    ).toEqual({ items: [], nextCursor: null });
    await repository.close();
  });

  it('finds open manual authorizations whose expiry passed', async () => {
    await resetTables(db.pool);
    const repository = createPostgresPaymentRepository({ pool: db.pool });
    const open = sale({
      captureMethod: 'manual',
      captureReserved: 0,
      amountCaptured: 0,
      authorizationExpiresAt: T0 + 5 * MINUTE,
    });
    const later = sale({
      captureMethod: 'manual',
      captureReserved: 0,
      amountCaptured: 0,
      authorizationExpiresAt: T0 + 50 * MINUTE,
    });
    const closed = sale({
      captureMethod: 'manual',
      captureClosedBy: 'expiry',
      captureReserved: 0,
      amountCaptured: 0,
      authorizationExpiresAt: T0,
    });
    for (const record of [open, later, closed]) await expectOk(repository.insert(record, []));
    const due = await expectOk(repository.findDue({ now: T0 + 10 * MINUTE, limit: 10 }));
    expect(due.authorizationExpiries.map((record) => record.id)).toEqual([open.id]);
    expect(due.expiries).toEqual([]);
    await repository.close();
  });
});
