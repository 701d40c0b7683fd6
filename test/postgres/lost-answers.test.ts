import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresIdempotencyStore, createPostgresPool } from '../../adapters/postgres/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { namedPool } from './support/backends.js';
import { startCuttingProxy, type CuttingProxy } from './support/cutting-proxy.js';
import { HTTP_PROFILE, httpInstances } from './support/http-instances.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';
import { engineInstances } from './support/multi-instance.js';
import { compliantClient, createDirect, makePostgresEngine } from './support/postgres-engine.js';

/*
 * The answer of a statement lost after the server ran it (and committed it): a proxy cuts the
 * connection between the server's answer and the client. The adapter reports a lost connection
 * (`unavailable`, retryable); the write is not made twice, and the engine finds out that it landed
 * by reading the payment back (its `write_id`), or says `outcome: 'unknown'` when it cannot.
 */

const db = useMigratedDatabase();
const MINUTE = 60_000;
let proxy: CuttingProxy;
let pool: pg.Pool;

beforeAll(async () => {
  proxy = await startCuttingProxy(db.connectionString);
  pool = namedPool(proxy.connectionString, 'lost-answers', { max: 4 });
});
afterAll(async () => {
  await pool.end();
  await proxy.close();
});

async function outbox(paymentId: string): Promise<string[]> {
  const { rows } = await db.pool.query<{ event_type: string }>(
    'SELECT event_type FROM paystate_outbox WHERE payment_id = $1 ORDER BY sequence',
    [paymentId],
  );
  return rows.map((row) => row.event_type);
}

async function stored(): Promise<{ id: string; state: string; version: number }[]> {
  const { rows } = await db.pool.query<{ id: string; state: string; version: number }>(
    'SELECT id, state, version FROM paystate_payments ORDER BY id',
  );
  return rows;
}

describe('a write whose answer is lost after it committed', () => {
  for (const [statement, retries] of [
    ['paystate_payment_insert', 2],
    ['paystate_payment_insert', 0],
    ['paystate_payment_update', 2],
    ['paystate_payment_update', 0],
  ] as const) {
    it(`${statement} (retries ${retries}): stored once, confirmed by reading it back, authorized once`, async () => {
      await resetTables(db.pool);
      const harness = makePostgresEngine({ pool, seed: 7, options: { retries } });
      const before = proxy.lost;
      proxy.loseAnswers(statement);
      const payment = await createDirect(harness);
      expect(proxy.lost).toBe(before + 1);
      expect(payment.state).toBe('succeeded');
      expect(harness.sandboxAcquirer.authorizeCalls(payment.id)).toBe(1);
      expect(await stored()).toEqual([{ id: payment.id, state: 'succeeded', version: 2 }]);
      expect(await outbox(payment.id)).toEqual(['payment.created', 'payment.succeeded']);
      await harness.close();
    });
  }

  it('the intent insert and the read that would confirm it: outcome unknown, then reconciled, never authorized', async () => {
    await resetTables(db.pool);
    const harness = makePostgresEngine({ pool, seed: 8, options: { retries: 0 } });
    proxy.loseAnswers('paystate_payment_insert');
    proxy.loseAnswers('paystate_payment_load');
    const created = await harness.engine.createPayment({
      client: compliantClient,
      profileId: 'profile_0001',
      body: directRequest('4242424242424242'),
    });
    expect(created._unsafeUnwrapErr()).toMatchObject({ code: 'unavailable', outcome: 'unknown', retryable: true });
    // It did land: the intent, which the sweeper reconciles with the acquirer (that never heard of it).
    const [intent] = await stored();
    expect(intent).toMatchObject({ state: 'authorizing', version: 1 });
    const id = intent?.id ?? '';
    for (let sweep = 0; sweep < 20 && (await stored())[0]?.state === 'authorizing'; sweep++) {
      harness.clock.advance(24 * 60 * MINUTE);
      (await harness.engine.sweep())._unsafeUnwrap();
    }
    expect(await stored()).toMatchObject([{ id, state: 'failed' }]);
    expect(harness.sandboxAcquirer.authorizeCalls(id)).toBe(0);
    await harness.close();
  });
});

describe('a claim or an outbox read whose answer is lost after it committed', () => {
  it('findDue: the retry of the same instance gets its claims, and the payment expires', async () => {
    await resetTables(db.pool);
    const harness = makePostgresEngine({ pool, seed: 9 });
    const payment = (
      await harness.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: hostedRequest() })
    )._unsafeUnwrap();
    harness.clock.advance(61 * MINUTE);
    const before = proxy.lost;
    proxy.loseAnswers('paystate_payment_find_due');
    const report = (await harness.engine.sweep())._unsafeUnwrap();
    expect(proxy.lost).toBe(before + 1);
    expect(report.expired).toBe(1);
    expect(await stored()).toEqual([{ id: payment.id, state: 'expired', version: 2 }]);
    await harness.close();
  });

  it('readOutbox and markDelivered: every event delivered, in order, none lost', async () => {
    await resetTables(db.pool);
    const harness = makePostgresEngine({ pool, seed: 10 });
    const payment = await createDirect(harness);
    const before = proxy.lost;
    proxy.loseAnswers('paystate_outbox_read');
    proxy.loseAnswers('paystate_outbox_mark_delivered');
    let delivered = 0;
    for (let tick = 0; tick < 10 && delivered < 2; tick++) {
      const result = await harness.engine.deliverEvents();
      if (result.isOk()) delivered += result.value;
    }
    expect(proxy.lost).toBe(before + 2);
    const types = harness.events.events().map((event) => `${event.paymentId} ${event.type}`);
    // At least once: an event whose mark was lost may come again, but in order, and none is missing.
    expect([...new Set(types)]).toEqual([`${payment.id} payment.created`, `${payment.id} payment.succeeded`]);
    const { rows } = await db.pool.query<{ undelivered: number }>(
      'SELECT count(*)::int AS undelivered FROM paystate_outbox WHERE delivered_at IS NULL',
    );
    expect(rows[0]?.undelivered).toBe(0);
    await harness.close();
  });
});

/*
 * Found by the failure-injection review: a `begin` whose answer was lost after it stored the key
 * answered `unavailable`, and left the key in progress with nobody running it: the client's retry
 * with the same key got `409 idempotency_in_progress` until the attempt was stale (5 minutes),
 * for a request that never ran. `begin` now runs again after a failure that may have lost its
 * answer, and knows the entry its own write stored (its reserved id, started at its `now`).
 */
describe('an idempotency begin whose answer is lost after it stored the key', () => {
  const DAY = 24 * 60 * MINUTE;
  const T0 = Date.UTC(2026, 0, 15, 12);

  it('answers started with its own reserved id, and a concurrent request with the key still waits', async () => {
    await resetTables(db.pool);
    const store = createPostgresIdempotencyStore({ pool });
    const request = {
      clientId: 'client_lost_begin',
      key: 'k1',
      fingerprint: 'f',
      now: T0,
      ttlMs: DAY,
      reservedId: `payment_${'1'.repeat(32)}`,
      staleAfterMs: 5 * MINUTE,
    };
    const before = proxy.lost;
    proxy.loseAnswers('paystate_idempotency_begin');
    expect((await store.begin(request))._unsafeUnwrap()).toEqual({
      kind: 'started',
      reservedId: request.reservedId,
      takeover: false,
    });
    expect(proxy.lost).toBe(before + 1);
    // Another request with the key (its own reserved id, a moment later) finds it in progress.
    const other = { ...request, now: T0 + 1, reservedId: `payment_${'2'.repeat(32)}` };
    expect((await store.begin(other))._unsafeUnwrap()).toEqual({ kind: 'in_progress' });
    // So does one with the very same start but another reserved id.
    expect((await store.begin({ ...request, reservedId: other.reservedId }))._unsafeUnwrap()).toEqual({
      kind: 'in_progress',
    });
    // The owner settles it as usual.
    const response = { status: 201, headers: { 'content-type': 'application/json' }, body: '{}' };
    (await store.complete({ clientId: request.clientId, key: request.key, startedAt: T0, response }))._unsafeUnwrap();
    expect((await store.begin(other))._unsafeUnwrap()).toEqual({ kind: 'completed', response });
  });

  it('over HTTP: the keyed create answers 201 at once, and the retry replays it', async () => {
    await resetTables(db.pool);
    const group = engineInstances([pool]);
    const api = await httpInstances([pool], group);
    const request = {
      method: 'POST',
      path: `/v1/profiles/${HTTP_PROFILE}/payments`,
      body: directRequest('4242424242424242', { reference: 'lost-begin' }),
      key: 'lost-begin',
    };
    const before = proxy.lost;
    proxy.loseAnswers('paystate_idempotency_begin');
    const first = await api.send(0, request);
    expect(proxy.lost).toBe(before + 1);
    expect(first.status, first.text).toBe(201);
    const retry = await api.send(0, request);
    expect(retry.status).toBe(201);
    expect(retry.json?.id).toBe(first.json?.id);
    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM paystate_payments');
    expect(rows).toEqual([{ id: first.json?.id }]);
    await group.close();
  });
});

/*
 * Found by the failure-injection review: connections that go dark (a firewall or NAT forgets the
 * flows, a failed-over server's address vanishes; no FIN, no RST) never answered, and `pg` waits
 * for an answer for as long as the kernel keeps the socket (about 15 minutes on Linux). Each
 * statement sent on one held its pool connection that long; the statement time-out cannot help,
 * the server being out of reach. Once the pool's connections were all held so, every command
 * waited out the connect time-out and answered 503, also after the network had recovered for new
 * connections. The pool `createPostgresPool` makes now gives a statement up on the client side too
 * (`queryTimeoutMs`, by default the statement time-out and 5 s more), and with it the connection.
 */
describe('connections that go dark, under the pool the adapter makes', () => {
  it('are given up, and commands succeed again on new connections', async () => {
    await resetTables(db.pool);
    const dark = await startCuttingProxy(db.connectionString);
    const darkPool = createPostgresPool(dark.connectionString, {
      max: 2,
      connectionTimeoutMs: 1_000,
      statementTimeoutMs: 500,
      applicationName: 'dark',
    });
    const harness = makePostgresEngine({
      pool: darkPool,
      seed: 11,
      options: { retries: 1, timeouts: { storageMs: 1_000 } },
    });
    const create = () =>
      harness.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: hostedRequest() });
    try {
      // Both connections open, then both go dark.
      const opened = await Promise.all([darkPool.connect(), darkPool.connect()]);
      for (const client of opened) client.release();
      expect((await create()).isOk()).toBe(true);
      dark.blackholeOpenConnections();

      const answers: string[] = [];
      const deadline = Date.now() + 40_000;
      for (;;) {
        const result = await create();
        answers.push(result.isOk() ? 'ok' : result.error.code);
        if (result.isOk()) break;
        if (Date.now() > deadline) throw new Error(`no command succeeded within 40 s: ${answers.join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // The commands sent on the dark connections failed as unavailable, never worse.
      expect(answers.slice(0, -1).every((code) => code === 'unavailable')).toBe(true);
      expect(answers.length).toBeGreaterThan(1);
    } finally {
      // The proxy first: closing it ends the dark connections, which a pool waits for.
      await dark.close();
      await harness.close();
      await darkPool.end();
    }
  });
});
