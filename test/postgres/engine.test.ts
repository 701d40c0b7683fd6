import { err } from 'neverthrow';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import {
  createMemoryCardVault,
  createMemoryEventSink,
  createSequentialIdGenerator,
  createTestClock,
} from '../../adapters/memory/index.js';
import { createPostgresAdapters, createPostgresPaymentRepository } from '../../adapters/postgres/index.js';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from '../../adapters/sandbox/index.js';
import type { PaymentRepository } from '../../src/index.js';
import { createPaymentEngine } from '../../src/index.js';
import { cardSubmission, directRequest, hostedRequest } from '../support/requests.js';
import { compliantClient, countingRepository, makePostgresEngine } from './support/postgres-engine.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';

const db = useMigratedDatabase();
const MINUTE = 60_000;

async function outboxTypes(paymentId: string): Promise<string[]> {
  const { rows } = await db.pool.query<{ event_type: string }>(
    'SELECT event_type FROM paystate_outbox WHERE payment_id = $1 ORDER BY sequence',
    [paymentId],
  );
  return rows.map((row) => row.event_type);
}

const create = (harness: ReturnType<typeof makePostgresEngine>, body: Record<string, unknown>) =>
  harness.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body });

describe('the engine on Postgres', () => {
  it('runs a direct payment without 3DS to succeeded in two commits', async () => {
    await resetTables(db.pool);
    const harness = makePostgresEngine({ pool: db.pool });
    const payment = (await create(harness, directRequest('4242424242424242')))._unsafeUnwrap();
    expect(payment.state).toBe('succeeded');
    expect(harness.repository.writes).toEqual({ inserts: 1, updates: 1 });
    expect(await outboxTypes(payment.id)).toEqual(['payment.created', 'payment.succeeded']);

    const stored = (await harness.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
    expect(stored.version).toBe(2);
    expect(stored.card?.last4).toBe('4242');
    expect(JSON.stringify(stored)).not.toContain('4242424242424242');

    expect((await harness.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(harness.events.events().map((event) => event.type)).toEqual(['payment.created', 'payment.succeeded']);
    expect((await harness.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    await harness.close();
  });

  it('defers an event the sink refuses, stores its attempt and retry time, and delivers it when due', async () => {
    await resetTables(db.pool);
    const harness = makePostgresEngine({ pool: db.pool, options: { retries: 0 } });
    const payment = (await create(harness, directRequest('4242424242424242')))._unsafeUnwrap();
    harness.events.injectFailure();
    expect((await harness.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    const { rows } = await db.pool.query<{
      event_type: string;
      attempts: number;
      retry_at: Date | null;
      waits_until: Date | null;
    }>(
      'SELECT event_type, attempts, retry_at, waits_until FROM paystate_outbox WHERE payment_id = $1 ORDER BY sequence',
      [payment.id],
    );
    const retryAt = new Date(harness.clock.now() + 1000);
    expect(rows).toEqual([
      { event_type: 'payment.created', attempts: 1, retry_at: retryAt, waits_until: retryAt },
      // The later event waits as long, out of the index of ready events.
      { event_type: 'payment.succeeded', attempts: 0, retry_at: null, waits_until: retryAt },
    ]);
    expect((await harness.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    harness.clock.advance(1000);
    expect((await harness.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(harness.events.events().map((event) => event.type)).toEqual(['payment.created', 'payment.succeeded']);
    await harness.close();
  });

  it('stores any text the schemas accept and answers it back unchanged (what Postgres refuses, they refuse)', async () => {
    await resetTables(db.pool);
    const harness = makePostgresEngine({ pool: db.pool });
    const exotic = 'Zoë 😀 日本 e\u0301 \u00a0 \u200b \uffff \u{10ffff}';
    const created = (
      await create(
        harness,
        directRequest('4242424242424242', {
          description: exotic,
          reference: '\u2028\u2029',
          session: { redirect_url: 'https://例え.jp/返回?q=ü' },
        }),
      )
    )._unsafeUnwrap();
    const read = (await harness.engine.getPaymentRecord(created.id))._unsafeUnwrap();
    expect(read.description).toBe(exotic);
    expect(read.reference).toBe('\u2028\u2029');
    expect(read.redirectUrl).toBe('https://例え.jp/返回?q=ü');

    for (const bad of ['a\u0000b', 'a\ud800b']) {
      const refused = await create(harness, directRequest('4242424242424242', { description: bad }));
      expect(refused._unsafeUnwrapErr().code).toBe('validation_failed');
    }
    await harness.close();
  });

  it('never stores a card number or CVC in any column', async () => {
    await resetTables(db.pool);
    const harness = makePostgresEngine({ pool: db.pool });
    const number = '4000000000003220';
    const payment = (await create(harness, directRequest(number)))._unsafeUnwrap();
    expect(payment.next?.redirect).toBeDefined();
    const { rows } = await db.pool.query(
      `SELECT row_to_json(p)::text AS payment FROM paystate_payments p
       UNION ALL SELECT row_to_json(o)::text FROM paystate_outbox o`,
    );
    for (const row of rows as { payment: string }[]) {
      expect(row.payment).not.toContain(number);
      expect(row.payment).not.toMatch(/"cvc"/);
    }
    await harness.close();
  });

  it('pages, expires a hosted payment by the sweeper, and authorizes a challenged one after acceptance', async () => {
    await resetTables(db.pool);
    const harness = makePostgresEngine({ pool: db.pool, seed: 1 });
    const hosted = (await create(harness, hostedRequest()))._unsafeUnwrap();
    const paid = (await create(harness, hostedRequest()))._unsafeUnwrap();
    const challenged = (await create(harness, directRequest('4000000000003220')))._unsafeUnwrap();

    const submitted = await harness.engine.submitCard({
      paymentId: paid.id,
      token: harness.hostedToken(paid),
      body: cardSubmission('5555555555554444'),
    });
    expect(submitted._unsafeUnwrap().state).toBe('succeeded');
    const accepted = await harness.engine.completeChallenge(await harness.challengeAnswer(challenged.id, 'authorise'));
    expect(accepted._unsafeUnwrap().state).toBe('succeeded');

    const list = (await harness.engine.listPayments({ profileId: 'profile_0001', limit: 2 }))._unsafeUnwrap();
    expect(list.items.map((item) => item.id)).toEqual([challenged.id, paid.id]);
    const rest = await harness.engine.listPayments({
      profileId: 'profile_0001',
      limit: 2,
      after: list.next_cursor ?? '',
    });
    expect(rest._unsafeUnwrap().items.map((item) => item.id)).toEqual([hosted.id]);

    harness.clock.advance(61 * MINUTE);
    const report = (await harness.engine.sweep())._unsafeUnwrap();
    expect(report.expired).toBe(1);
    expect(
      (await harness.engine.getPayment({ paymentId: hosted.id, profileId: 'profile_0001' }))._unsafeUnwrap().state,
    ).toBe('expired');
    expect(await outboxTypes(hosted.id)).toEqual(['payment.created', 'payment.expired']);
    await harness.close();
  });

  it('resolves an authorization that timed out by inquiry on a later sweep', async () => {
    await resetTables(db.pool);
    const harness = makePostgresEngine({ pool: db.pool, seed: 2 });
    const payment = (await create(harness, directRequest('4000000000000119')))._unsafeUnwrap();
    expect(payment.state).toBe('processing');
    const record = (await harness.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
    expect(record.state).toBe('authorizing');
    expect(record.nextInquiryAt).not.toBeNull();

    harness.clock.set(record.nextInquiryAt ?? 0);
    const report = (await harness.engine.sweep())._unsafeUnwrap();
    expect(report.reconciled).toBe(1);
    expect((await harness.engine.getPaymentRecord(payment.id))._unsafeUnwrap().state).toBe('succeeded');
    expect(harness.sandboxAcquirer.authorizeCalls(payment.id)).toBe(1);
    await harness.close();
  });

  it('survives a connection lost in the middle of a write: nothing half-written, the engine retries', async () => {
    await resetTables(db.pool);
    const harness = makePostgresEngine({ pool: db.pool, seed: 3 });
    // Hold the outbox so the insert of the payment waits half-done inside its statement.
    const locker = await db.pool.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE paystate_outbox IN EXCLUSIVE MODE');
    const pending = create(harness, hostedRequest());
    let victim: number | undefined;
    for (let attempt = 0; attempt < 200 && victim === undefined; attempt++) {
      const { rows } = await db.pool.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO paystate_payments%'`,
      );
      victim = rows[0]?.pid;
      if (victim === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(victim).toBeDefined();
    const during = await db.pool.query('SELECT count(*)::int AS n FROM paystate_payments');
    expect(during.rows[0]).toEqual({ n: 0 });
    await db.pool.query('SELECT pg_terminate_backend($1)', [victim]);
    await locker.query('ROLLBACK');
    locker.release();

    const payment = (await pending)._unsafeUnwrap();
    expect(harness.repository.writes.inserts).toBe(2);
    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM paystate_payments');
    expect(rows.map((row) => row.id)).toEqual([payment.id]);
    expect(await outboxTypes(payment.id)).toEqual(['payment.created']);
    await harness.close();
  });
});

// Found by a reviewing helper: nothing ever deleted delivered events or expired idempotency keys,
// so a host that only used the documented API grew both tables without bound.
describe('housekeeping (createPostgresAdapters().housekeep)', () => {
  it('deletes delivered events past their retention and expired idempotency keys, and nothing else', async () => {
    await resetTables(db.pool);
    const adapters = await createPostgresAdapters({ pool: db.pool, migrate: false });
    const harness = makePostgresEngine({ pool: db.pool });
    const delivered = (await create(harness, directRequest('4242424242424242')))._unsafeUnwrap();
    expect((await harness.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    const waiting = (await create(harness, directRequest('4242424242424242')))._unsafeUnwrap();
    // The delivered events were delivered 8 days ago; the other payment's are not delivered yet.
    await db.pool.query(`UPDATE paystate_outbox SET delivered_at = now() - interval '8 days' WHERE payment_id = $1`, [
      delivered.id,
    ]);
    const DAY = 24 * 60 * MINUTE;
    const now = Date.now();
    const keys = adapters.idempotency;
    (
      await keys.begin({ clientId: 'c', key: 'old', fingerprint: 'f', now: now - 25 * 60 * MINUTE, ttlMs: DAY })
    )._unsafeUnwrap();
    (
      await keys.begin({ clientId: 'c', key: 'new', fingerprint: 'f', now: now - 60 * MINUTE, ttlMs: DAY })
    )._unsafeUnwrap();

    // Kept for 9 days: nothing of the outbox goes.
    expect((await adapters.housekeep(now, { keepDeliveredEventsMs: 9 * DAY }))._unsafeUnwrap()).toEqual({
      deliveredEvents: 0,
      idempotencyKeys: 1,
      cardVaultEntries: 0,
    });
    // The default keeps 7 days.
    expect((await adapters.housekeep(now))._unsafeUnwrap()).toEqual({
      deliveredEvents: 2,
      idempotencyKeys: 0,
      cardVaultEntries: 0,
    });
    expect(await outboxTypes(delivered.id)).toEqual([]);
    expect(await outboxTypes(waiting.id)).toEqual(['payment.created', 'payment.succeeded']);
    const { rows } = await db.pool.query<{ key: string }>('SELECT key FROM paystate_idempotency_keys');
    expect(rows).toEqual([{ key: 'new' }]);
    // With a card vault, cards past their deadline go too.
    const withVault = await createPostgresAdapters({
      pool: db.pool,
      migrate: false,
      cardVaultKeys: [{ id: 'k1', key: new Uint8Array(32).fill(7) }],
    });
    const card = {
      number: '4000000000003220',
      cvc: '737',
      expiration: '2030-12-01T00:00:00.000Z',
      holderName: 'A',
      scheme: 'visa' as const,
    };
    (await withVault.cardVault?.put('payment_old_card', card, now - 1))?._unsafeUnwrap();
    (await withVault.cardVault?.put('payment_young_card', card, now + DAY))?._unsafeUnwrap();
    expect((await withVault.housekeep(now))._unsafeUnwrap().cardVaultEntries).toBe(1);
    expect((await withVault.cardVault?.take('payment_young_card'))?._unsafeUnwrap()).toEqual(card);
    // Undelivered events stay whatever their age.
    expect(
      (await adapters.housekeep(now + 365 * DAY, { keepDeliveredEventsMs: 0 }))._unsafeUnwrap().deliveredEvents,
    ).toBe(0);
    expect(await outboxTypes(waiting.id)).toHaveLength(2);
    expect(() => adapters.housekeep(now, { keepDeliveredEventsMs: -1 })).toThrow(RangeError);
    await harness.close();
    await adapters.close();
  });
});

// Found by a reviewing helper: stop() used to leave the retry of an abandoned sweeper write (and
// the load confirming it) running, so a host that closed its pool once stop() resolved, as the
// docs say, had writes sent to the closed pool, and the process waited for them.
describe('the background worker on Postgres: stop(), then close the pool', () => {
  it('sends nothing more to the pool after stop() resolved, whatever the abandoned write does', async () => {
    await resetTables(db.pool);
    const pool = new pg.Pool({ connectionString: db.connectionString, max: 2 });
    const postgres = createPostgresPaymentRepository({ pool });
    const calls: string[] = [];
    let fail = () => undefined as void;
    const failed = new Promise<void>((resolve) => {
      fail = resolve;
    });
    const counted = countingRepository(postgres);
    const repository: PaymentRepository = Object.fromEntries(
      Object.entries(counted)
        .filter(([, value]) => typeof value === 'function')
        .map(([name, method]: [string, (...args: unknown[]) => unknown]) => [
          name,
          (...args: unknown[]) => {
            calls.push(name);
            if (name === 'update' && calls.filter((call) => call === 'update').length === 1) {
              return failed.then(() => err({ code: 'unavailable', message: 'connection reset', retryable: true }));
            }
            return method(...args);
          },
        ]),
    ) as unknown as PaymentRepository;
    const clock = createTestClock();
    const logs: string[] = [];
    const record = (level: string) => (_fields: Record<string, unknown>, message: string) =>
      void logs.push(`${level} ${message}`);
    const engine = createPaymentEngine({
      repository,
      acquirer: createSandboxAcquirer(),
      threeDS: createSandboxThreeDSProvider({ secret: 's', challengeUrl: (id, tx) => `https://acs.test/${id}/${tx}` }),
      cardVault: createMemoryCardVault(clock),
      clock,
      ids: createSequentialIdGenerator(41),
      events: createMemoryEventSink(),
      logger: { debug: () => undefined, info: () => undefined, warn: record('warn'), error: record('error') },
      options: { retries: 2 },
    });
    const created = (
      await engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: hostedRequest() })
    )._unsafeUnwrap();
    clock.advance(61 * MINUTE);
    const worker = engine.startBackgroundWorker({ intervalMs: 60_000 });
    await vi.waitFor(() => expect(calls).toContain('update'), { timeout: 5_000, interval: 1 });

    await worker.stop({ waitMs: 20 });
    await pool.end();
    const atStop = [...calls];
    fail();
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(calls).toEqual(atStop);
    const { rows } = await db.pool.query<{ state: string }>('SELECT state FROM paystate_payments WHERE id = $1', [
      created.id,
    ]);
    expect(rows).toEqual([{ state: 'awaiting_card_data' }]);
    expect(logs.filter((line) => line.startsWith('error'))).toEqual([]);
  });
});
