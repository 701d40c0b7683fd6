import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { createFetchHandler, type FetchHandler } from '../../adapters/http/index.js';
import {
  createMemoryCardVault,
  createMemoryEventSink,
  createMemoryIdempotencyStore,
  createSequentialIdGenerator,
  createTestClock,
} from '../../adapters/memory/index.js';
import { createPostgresPaymentRepository, createPostgresPool } from '../../adapters/postgres/index.js';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from '../../adapters/sandbox/index.js';
import {
  createPaymentEngine,
  type CredentialStore,
  type PaymentEngine,
  type PaymentRepository,
} from '../../src/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { namedPool } from './support/backends.js';
import { startCuttingProxy } from './support/cutting-proxy.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';
import { compliantClient, makePostgresEngine } from './support/postgres-engine.js';

/*
 * A write that certainly never reached the server stored nothing, and a client told so may simply
 * retry. It used to be answered as a write whose outcome is unknown (`outcome: 'unknown'`, over
 * HTTP `payment_may_exist: true`) whenever the read that would confirm it failed too, which it
 * always does when the server is down or no connection can be had: every client then had to go
 * and reconcile a payment that could not exist. The adapter now marks the failures of getting a
 * connection `notSent`, and the engine answers a plain `unavailable` when every attempt of a write
 * failed so. A write whose answer was lost after it was sent still says the payment may exist.
 */

const db = useMigratedDatabase();
const external = (process.env['DATABASE_URL'] ?? '') !== '';
const PROFILE = 'profile_0001';
const TOKEN = 'tok_unsent_writes';
const PAYMENTS = `/v1/profiles/${PROFILE}/payments`;

async function storedIds(): Promise<string[]> {
  const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM paystate_payments ORDER BY id');
  return rows.map((row) => row.id);
}

async function storedReferences(): Promise<(string | null)[]> {
  const { rows } = await db.pool.query<{ reference: string | null }>(
    'SELECT reference FROM paystate_payments ORDER BY reference',
  );
  return rows.map((row) => row.reference);
}

/** A credential store that knows one token: the test's client, on the profile the engine harness uses. */
const credentials: CredentialStore = {
  authenticate: (token) => ok(token === TOKEN ? compliantClient : null),
  findProfile: (profileId) => ok({ id: profileId, partnerId: compliantClient.partnerId, name: 'Shop' }),
};

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
  readonly json: any;
}

/**
 * The HTTP API over `engine`, its credentials and idempotency keys in memory, so that only the
 * payment writes meet the database.
 */
function api(engine: PaymentEngine): (body: unknown, key?: string) => Promise<Answer> {
  const handler: FetchHandler = createFetchHandler({
    engine,
    credentials,
    idempotency: createMemoryIdempotencyStore(),
    clock: createTestClock(),
    storeTimeoutMs: 3_000,
  });
  return async (body, key) => {
    const response = await handler(
      new Request(`http://paystate.test${PAYMENTS}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          ...(key !== undefined && { 'idempotency-key': key }),
        },
        body: JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return { status: response.status, retryAfter: response.headers.get('retry-after'), json: JSON.parse(text) };
  };
}

/** A plain, retryable 503: no `payment_may_exist`, with `Retry-After`. */
function expectPlain503(answer: Answer): void {
  expect(answer.status, JSON.stringify(answer.json)).toBe(503);
  expect(answer.json.code).toBe('unavailable');
  expect(answer.json.payment_may_exist).toBeUndefined();
  expect(answer.retryAfter).toBe('1');
}

describe('a write that never reached the server', () => {
  it('no connection free within the pool’s connect time-out: a plain unavailable, nothing stored', async () => {
    await resetTables(db.pool);
    const pool = createPostgresPool(db.connectionString, { max: 1, connectionTimeoutMs: 300, applicationName: 'full' });
    // The one connection of the pool is busy for the whole test.
    const held = await pool.connect();
    const harness = makePostgresEngine({ pool, seed: 21, options: { retries: 2 } });
    try {
      for (const body of [hostedRequest(), directRequest('4242424242424242')]) {
        const created = await harness.engine.createPayment({ client: compliantClient, profileId: PROFILE, body });
        const error = created._unsafeUnwrapErr();
        expect(error).toMatchObject({ code: 'unavailable', retryable: true });
        expect(error).not.toHaveProperty('outcome');
      }
      expect(await storedIds()).toEqual([]);
      expect(harness.sandboxAcquirer.authorizations()).toEqual([]);
    } finally {
      held.release();
      await harness.close();
      await pool.end();
    }
  });

  it.skipIf(external)(
    'the server stopped: the engine and the API answer a plain unavailable; a keyed create retried once it is back creates the payment',
    async () => {
      await resetTables(db.pool);
      const control = db.database.server;
      if (control === null) throw new Error('needs the embedded server');
      await control.stop();
      let stopped = true;
      // Made after the stop: no connection of it was open when the server went (that one's
      // statement may have been sent: see the lost answers below).
      const pool = createPostgresPool(db.connectionString, {
        max: 2,
        connectionTimeoutMs: 1_000,
        applicationName: 'down',
      });
      const harness = makePostgresEngine({ pool, seed: 22, options: { retries: 2 } });
      const post = api(harness.engine);
      try {
        const direct = await harness.engine.createPayment({
          client: compliantClient,
          profileId: PROFILE,
          body: directRequest('4242424242424242'),
        });
        const error = direct._unsafeUnwrapErr();
        expect(error).toMatchObject({ code: 'unavailable', retryable: true });
        expect(error.message).toMatch(/ECONNREFUSED/);
        expect(error).not.toHaveProperty('outcome');

        expectPlain503(await post(hostedRequest({ reference: 'unkeyed-down' })));
        const keyed = directRequest('4242424242424242', { reference: 'keyed-down' });
        expectPlain503(await post(keyed, 'key-down'));
        // Retried while still down: the same plain 503 (the key was released), not 409 in progress.
        expectPlain503(await post(keyed, 'key-down'));

        await control.start();
        stopped = false;
        const retried = await post(keyed, 'key-down');
        expect(retried.status, JSON.stringify(retried.json)).toBe(201);
        expect(retried.json.state).toBe('succeeded');
        expect(await storedReferences()).toEqual(['keyed-down']);
      } finally {
        if (stopped) await control.start();
        await harness.close();
        await pool.end();
      }
    },
  );
});

/** An engine like the harness's, on `repository` (the one a test wraps). */
function engineOn(repository: PaymentRepository): PaymentEngine {
  const clock = createTestClock();
  return createPaymentEngine({
    repository,
    acquirer: createSandboxAcquirer(),
    threeDS: createSandboxThreeDSProvider({
      challengeUrl: (paymentId, transactionId) => `https://acs.sandbox.test/challenge/${paymentId}/${transactionId}`,
      secret: 'unsent-writes',
    }),
    cardVault: createMemoryCardVault(clock),
    clock,
    ids: createSequentialIdGenerator(23),
    events: createMemoryEventSink(),
    options: { retries: 2 },
  });
}

describe('a write that was sent and whose answer was lost', () => {
  it('through the API: 503 with payment_may_exist, keyed or not, and the payments were indeed stored', async () => {
    await resetTables(db.pool);
    const proxy = await startCuttingProxy(db.connectionString);
    const pool = namedPool(proxy.connectionString, 'lost-http', { max: 2 });
    const harness = makePostgresEngine({ pool, seed: 24, options: { retries: 0 } });
    const post = api(harness.engine);
    try {
      proxy.loseAnswers('paystate_payment_insert');
      proxy.loseAnswers('paystate_payment_load');
      const unkeyed = await post(hostedRequest({ reference: 'lost-unkeyed' }));
      expect(unkeyed.status).toBe(503);
      expect(unkeyed.json.payment_may_exist).toBe(true);
      expect(unkeyed.retryAfter).toBeNull();

      proxy.loseAnswers('paystate_payment_insert');
      proxy.loseAnswers('paystate_payment_load');
      const keyed = await post(hostedRequest({ reference: 'lost-keyed' }), 'key-lost');
      expect(keyed.status).toBe(503);
      expect(keyed.json.payment_may_exist).toBe(true);
      expect(keyed.retryAfter).toBe('1');

      expect(proxy.lost).toBe(4);
      expect(await storedReferences()).toEqual(['lost-keyed', 'lost-unkeyed']);
    } finally {
      await harness.close();
      await pool.end();
      await proxy.close();
    }
  });

  it('sent and lost, then its retries refused and the read refused: still unknown (the first one landed)', async () => {
    await resetTables(db.pool);
    const proxy = await startCuttingProxy(db.connectionString);
    const pool = namedPool(proxy.connectionString, 'lost-then-refused', { max: 2, connectionTimeoutMillis: 1_000 });
    const postgres = createPostgresPaymentRepository({ pool });
    let refusing = false;
    // Once the first insert has failed, the proxy stops listening: every later connection is refused.
    const repository: PaymentRepository = {
      ...postgres,
      insert: async (record, events) => {
        const written = await postgres.insert(record, events);
        if (written.isErr() && !refusing) {
          refusing = true;
          await proxy.close();
        }
        return written;
      },
    };
    try {
      proxy.loseAnswers('paystate_payment_insert');
      const created = await engineOn(repository).createPayment({
        client: compliantClient,
        profileId: PROFILE,
        body: directRequest('4242424242424242'),
      });
      expect(refusing).toBe(true);
      expect(created._unsafeUnwrapErr()).toMatchObject({ code: 'unavailable', outcome: 'unknown' });
      expect((await storedIds()).length).toBe(1);
    } finally {
      await postgres.close();
      await pool.end();
      await proxy.close().catch(() => undefined);
    }
  });
});
