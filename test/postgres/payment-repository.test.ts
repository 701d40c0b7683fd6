import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createPostgresPaymentRepository } from '../../adapters/postgres/index.js';
import { FIND_DUE, LIST_AFTER, LIST_FIRST, READ_OUTBOX } from '../../adapters/postgres/payment-statements.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import { expectErr, expectOk, paymentRepositoryContract } from '../contracts/payment-repository.contract.js';
import { makeEvent, makeRecord, makeSucceededRecord, MINUTE, nextVersion, T0 } from '../contracts/fixtures.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';

const db = useMigratedDatabase();

paymentRepositoryContract(
  'postgres',
  async () => {
    await resetTables(db.pool);
    const repository = createPostgresPaymentRepository({ pool: db.pool });
    return { repository, close: () => repository.close() };
    // Money operations are stored on Postgres from branch ops-pg on, which turns them on here.
  },
  { operations: false },
);

const now = T0 + 60 * MINUTE;
const expiring = (minutesAgo: number): PaymentRecord =>
  makeRecord({ state: 'awaiting_card_data', expiresAt: now - minutesAgo * MINUTE });
const ids = (records: readonly PaymentRecord[]): string[] => records.map((record) => record.id);

paymentRepositoryContract(
  'postgres without prepared statements',
  async () => {
    await resetTables(db.pool);
    const repository = createPostgresPaymentRepository({ pool: db.pool, preparedStatements: false });
    return { repository, close: () => repository.close() };
    // Money operations are stored on Postgres from branch ops-pg on, which turns them on here.
  },
  { operations: false },
);

describe('postgres payment repository', () => {
  it('has bigint amounts, timestamptz times and no column for a card number or CVC', async () => {
    const { rows } = await db.pool.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT table_name, column_name, data_type FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name LIKE 'paystate_%'`,
    );
    const type = (column: string) =>
      rows.find((row) => row.table_name === 'paystate_payments' && row.column_name === column)?.data_type;
    expect(type('amount')).toBe('bigint');
    for (const column of ['created_at', 'updated_at', 'expires_at', 'next_inquiry_at']) {
      expect(type(column)).toBe('timestamp with time zone');
    }
    for (const row of rows) expect(row.column_name).not.toMatch(/pan|card_number|cvc|cvv|security_code/);
  });

  it('stores epoch milliseconds exactly and refuses a BIN that is a whole card number', async () => {
    await resetTables(db.pool);
    const repository = createPostgresPaymentRepository({ pool: db.pool });
    const record = makeRecord({ createdAt: T0 + 123, updatedAt: T0 + 456, expiresAt: T0 + 789 });
    await expectOk(repository.insert(record, []));
    expect(await expectOk(repository.load(record.id))).toStrictEqual(record);
    const { rows } = await db.pool.query<{ created: string }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS created FROM paystate_payments`,
    );
    expect(rows[0]?.created).toBe('2026-01-15T12:00:00.123');

    const full = makeSucceededRecord({ card: { ...makeSucceededRecord().card!, bin: '4242424242424242' } });
    const error = await expectErr(repository.insert(full, []));
    expect(error).toMatchObject({ code: 'unavailable', retryable: false });
    expect(error.message).toContain('23514');
    expect(error.message).not.toContain('4242424242424242');
    await repository.close();
  });

  it('leases what findDue returns: another instance does not get it until the lease ends', async () => {
    await resetTables(db.pool);
    const a = createPostgresPaymentRepository({ pool: db.pool, claimLeaseMs: 300 });
    const b = createPostgresPaymentRepository({ pool: db.pool, claimLeaseMs: 300 });
    const records = [expiring(5), expiring(4), expiring(3)];
    for (const record of records) await expectOk(a.insert(record, []));

    const first = await expectOk(a.findDue({ now, limit: 2 }));
    expect(ids(first.expiries)).toEqual(ids(records.slice(0, 2)));
    const second = await expectOk(b.findDue({ now, limit: 10 }));
    expect(ids(second.expiries)).toEqual([records[2]?.id]);
    // The lease holder sees its own claims again (a retry of a tick that failed).
    expect(ids((await expectOk(a.findDue({ now, limit: 10 }))).expiries)).toEqual(ids(records.slice(0, 2)));
    expect((await expectOk(b.findDue({ now, limit: 10 }))).expiries).toHaveLength(1);

    await sleep(350);
    expect(ids((await expectOk(b.findDue({ now, limit: 10 }))).expiries)).toEqual(ids(records));
    await a.close();
    await b.close();
  });

  it('ends the lease with any update of the payment', async () => {
    await resetTables(db.pool);
    const a = createPostgresPaymentRepository({ pool: db.pool });
    const b = createPostgresPaymentRepository({ pool: db.pool });
    const record = makeRecord({
      state: 'authorizing',
      authorizationStatus: 'unknown',
      expiresAt: null,
      nextInquiryAt: now,
    });
    await expectOk(a.insert(record, []));
    expect((await expectOk(a.findDue({ now, limit: 10 }))).inquiries).toHaveLength(1);
    expect((await expectOk(b.findDue({ now, limit: 10 }))).inquiries).toHaveLength(0);
    await expectOk(a.update(nextVersion(record, { inquiryAttempts: 1 }), []));
    expect(ids((await expectOk(b.findDue({ now, limit: 10 }))).inquiries)).toEqual([record.id]);
    await a.close();
    await b.close();
  });

  it('skips payments another transaction has locked', async () => {
    await resetTables(db.pool);
    const repository = createPostgresPaymentRepository({ pool: db.pool, claimLeaseMs: 0 });
    const [locked, free] = [expiring(2), expiring(1)];
    for (const record of [locked, free]) await expectOk(repository.insert(record!, []));
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM paystate_payments WHERE id = $1 FOR UPDATE', [locked!.id]);
      const due = await expectOk(repository.findDue({ now, limit: 10 }));
      expect(ids(due.expiries)).toEqual([free!.id]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect((await expectOk(repository.findDue({ now, limit: 10 }))).expiries).toHaveLength(2);
    await repository.close();
  });

  it('shares due payments between concurrent sweepers without overlap', async () => {
    await resetTables(db.pool);
    const sweepers = Array.from({ length: 4 }, () => createPostgresPaymentRepository({ pool: db.pool }));
    const records = Array.from({ length: 40 }, (_, index) => expiring(index + 1));
    for (const record of records) await expectOk(sweepers[0]!.insert(record, []));
    const batches = await Promise.all(sweepers.map((sweeper) => expectOk(sweeper.findDue({ now, limit: 15 }))));
    const claimed = batches.flatMap((batch) => ids(batch.expiries));
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.length).toBe(40);
    for (const sweeper of sweepers) await sweeper.close();
  });

  it('lets one instance at a time read the outbox, until it closes or its lease runs out', async () => {
    await resetTables(db.pool);
    const a = createPostgresPaymentRepository({ pool: db.pool, outboxLeaseMs: 300 });
    const b = createPostgresPaymentRepository({ pool: db.pool, outboxLeaseMs: 300 });
    const record = makeRecord();
    await expectOk(a.insert(record, [makeEvent(record), makeEvent(record, 'payment.expired')]));
    expect(await expectOk(a.readOutbox({ now, limit: 10 }))).toHaveLength(2);
    expect(await expectOk(b.readOutbox({ now, limit: 10 }))).toEqual([]);
    await sleep(350);
    expect(await expectOk(b.readOutbox({ now, limit: 10 }))).toHaveLength(2);
    expect(await expectOk(a.readOutbox({ now, limit: 10 }))).toEqual([]);
    await b.close();
    expect(await expectOk(a.readOutbox({ now, limit: 10 }))).toHaveLength(2);
    await a.close();
  });

  it('purges delivered events only', async () => {
    await resetTables(db.pool);
    const repository = createPostgresPaymentRepository({ pool: db.pool });
    const record = makeRecord();
    await expectOk(repository.insert(record, [makeEvent(record), makeEvent(record, 'payment.expired')]));
    const [first] = await expectOk(repository.readOutbox({ now, limit: 10 }));
    await expectOk(repository.markDelivered([first!.sequence]));
    expect(await expectOk(repository.purgeDelivered(Date.now() + MINUTE))).toBe(1);
    expect(await expectOk(repository.readOutbox({ now, limit: 10 }))).toHaveLength(1);
    await repository.close();
  });

  it('answers unavailable and retryable when the server cannot be reached', async () => {
    const repository = createPostgresPaymentRepository({
      connectionString: 'postgres://nobody:secret@127.0.0.1:1/nothing',
      poolOptions: { connectionTimeoutMs: 1_000 },
    });
    const error = await expectErr(repository.load(makeRecord().id));
    expect(error).toMatchObject({ code: 'unavailable', retryable: true });
    expect(error.message).not.toContain('secret');
    await repository.close();
  });

  it('uses the indexes for the list, the due payments and the outbox', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const plan = async (sql: string, values: unknown[]) =>
        (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, values)).rows
          .map((row) => row['QUERY PLAN'])
          .join('\n');
      const at = new Date(now).toISOString();
      for (const partner of [null, 'partner_x']) {
        const list = await plan(LIST_AFTER.text, ['profile_x', 21, 'payment_x', partner]);
        expect(list).toContain('paystate_payments_by_profile');
        expect(list).toMatch(/Index Cond: \(\(profile_id = .*\) AND \(ROW\(created_at, id\) < ROW\(/);
        expect(list).not.toContain('Sort');
        const first = await plan(LIST_FIRST.text, ['profile_x', 21, partner]);
        expect(first).toMatch(/Index Scan using paystate_payments_by_profile .*\n.*Index Cond: \(profile_id = /);
        expect(first).not.toContain('Sort');
      }
      const due = await plan(FIND_DUE.text, [at, 10, 'instance', 1000]);
      expect(due).toContain('paystate_payments_due_expiry');
      expect(due).toContain('paystate_payments_due_inquiry');
      const outbox = await plan(READ_OUTBOX.text, ['instance', 1000, 10, at]);
      expect(outbox).toContain('paystate_outbox_ready');
      expect(outbox).toContain('paystate_outbox_waiting');
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });

  it('reads the outbox visiting about what it returns, however many events wait behind refusals', async () => {
    await resetTables(db.pool);
    const repository = createPostgresPaymentRepository({ pool: db.pool });
    // 2,000 payments whose first event was refused and deferred for an hour, two more events behind it.
    const stuck = Array.from({ length: 2_000 }, () => makeRecord());
    for (let from = 0; from < stuck.length; from += 250) {
      await Promise.all(
        stuck
          .slice(from, from + 250)
          .map((record) =>
            expectOk(
              repository.insert(record, [
                makeEvent(record),
                makeEvent(record, 'payment.action_required'),
                makeEvent(record, 'payment.expired'),
              ]),
            ),
          ),
      );
    }
    const heads = (await expectOk(repository.readOutbox({ now, limit: 10_000 }))).filter(
      (entry) => entry.event.type === 'payment.created',
    );
    await expectOk(
      repository.deferDelivery(
        heads.map((entry) => ({ sequence: entry.sequence, attempts: 1, retryAt: now + 60 * MINUTE })),
      ),
    );
    const fresh = Array.from({ length: 10 }, () => makeRecord());
    for (const record of fresh) await expectOk(repository.insert(record, [makeEvent(record)]));
    await db.pool.query('ANALYZE paystate_outbox');

    const read = await expectOk(repository.readOutbox({ now, limit: 10 }));
    expect(read.map((entry) => entry.event.paymentId)).toEqual(fresh.map((record) => record.id));

    // Rows every scan of the statement visited, returned or filtered out, from the server's own count.
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('UPDATE paystate_outbox_lease SET holder = NULL');
      const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${READ_OUTBOX.text}`,
        ['explain', 1000, 10, new Date(now).toISOString()],
      );
      await client.query('ROLLBACK');
      let visited = 0;
      const walk = (node: Record<string, unknown>): void => {
        if (String(node['Node Type']).includes('Scan')) {
          const loops = Number(node['Actual Loops'] ?? 1);
          visited += (Number(node['Actual Rows'] ?? 0) + Number(node['Rows Removed by Filter'] ?? 0)) * loops;
        }
        for (const child of (node['Plans'] as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk((rows[0]?.['QUERY PLAN'] as [{ Plan: Record<string, unknown> }])[0].Plan);
      // 6,000 events wait; the read visits the 10 it returns and their order checks.
      expect(visited).toBeLessThan(100);
    } finally {
      client.release();
    }
    await repository.close();
  });
});
