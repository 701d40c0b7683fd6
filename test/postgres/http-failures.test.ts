import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresPool } from '../../adapters/postgres/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { holdTableLock, namedPool } from './support/backends.js';
import {
  expectClassified,
  HTTP_PROFILE,
  httpInstances,
  type HttpInstances,
  type HttpResult,
} from './support/http-instances.js';
import { useMigratedDatabase } from './support/migrated-database.js';
import { engineInstances, expectSettled, settle, type Instances } from './support/multi-instance.js';

/*
 * What a client of the HTTP API sees while the database fails under two instances: backends
 * killed at random in the middle of requests (credentials, idempotency keys, payment writes and
 * reads), and a table lock that makes every statement hang. Never a 500; a 503 either says when to
 * retry (`Retry-After`) or that the payment may exist (`payment_may_exist`); a client that retries
 * with its `Idempotency-Key` until it gets an answer ends with exactly one payment per key.
 */

const db = useMigratedDatabase();
const MINUTE = 60_000;
const CARDS = ['4242424242424242', '4000000000000002'];
const PAYMENTS = `/v1/profiles/${HTTP_PROFILE}/payments`;

let admin: pg.Pool;
beforeAll(() => {
  admin = namedPool(db.connectionString, 'http-admin', { max: 4 });
});
afterAll(async () => {
  await admin.end();
});

async function fresh(): Promise<void> {
  await admin.query(`TRUNCATE paystate_operations, paystate_payments, paystate_outbox, paystate_idempotency_keys, paystate_clients,
    paystate_client_tokens, paystate_profiles; UPDATE paystate_outbox_lease SET holder = NULL, held_until = NULL`);
}

const bodyFor = (index: number, reference: string) =>
  index % 3 === 2 ? hostedRequest({ reference }) : directRequest(CARDS[index % 2] ?? '', { reference });

/**
 * Opens `connections` connections in each pool (they stay open while in use now and then), trying
 * again while a busy machine takes longer than the pool's connect time-out to open one: the tests
 * time out statements and waits for a connection, not the opening of one.
 */
async function warm(pools: readonly pg.Pool[], connections: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const pool of pools) {
    for (;;) {
      const opened = await Promise.all(Array.from({ length: connections }, () => pool.connect().catch(() => null)));
      for (const client of opened) client?.release();
      if (opened.every((client) => client !== null)) break;
      if (Date.now() > deadline) throw new Error('could not open the pool connections within 60 s');
      await sleep(50);
    }
  }
}

async function storedByReference(): Promise<Map<string, string[]>> {
  const { rows } = await admin.query<{ reference: string; id: string }>('SELECT reference, id FROM paystate_payments');
  const byReference = new Map<string, string[]>();
  for (const row of rows) byReference.set(row.reference, [...(byReference.get(row.reference) ?? []), row.id]);
  return byReference;
}

/**
 * What the database holds matches what the clients were answered: exactly one payment for each
 * key (the one its answer names), and for each create without a key its payment when answered
 * 201, at most one when the answer said the payment may exist, and none otherwise.
 */
async function expectStoredAsAnswered(keyed: readonly HttpResult[], unkeyed: readonly HttpResult[]): Promise<void> {
  const stored = await storedByReference();
  keyed.forEach((result, index) => {
    expect(result.status, result.text).toBe(201);
    expect(stored.get(`keyed-${index}`)).toEqual([result.json?.id]);
  });
  unkeyed.forEach((result, index) => {
    const ids = stored.get(`unkeyed-${index}`) ?? [];
    if (result.status === 201) expect(ids).toEqual([result.json?.id]);
    else if (result.json?.payment_may_exist === true) expect(ids.length).toBeLessThanOrEqual(1);
    else expect(ids, `unkeyed-${index} answered ${result.status} without payment_may_exist`).toEqual([]);
  });
}

/**
 * A client that retries its keyed create until it gets an answer that is not 503 or 409, moving
 * the clock past the stale limit (5 minutes) when the key stays in progress, as time would.
 */
async function createWithKey(
  api: HttpInstances,
  group: Instances,
  index: number,
  seen: HttpResult[],
): Promise<HttpResult> {
  const key = `key-${index}`;
  const body = bodyFor(index, `keyed-${index}`);
  for (let attempt = 0; ; attempt++) {
    const result = await api.send(attempt + index, { method: 'POST', path: PAYMENTS, body, key });
    seen.push(result);
    if (result.status !== 503 && result.status !== 409) return result;
    if (attempt > 200) throw new Error(`key ${key}: still ${result.status} after 200 attempts`);
    if (result.status === 409 || result.json?.payment_may_exist === true) group.clock.advance(6 * MINUTE);
    await sleep(5);
  }
}

describe('the HTTP API while backends are killed', () => {
  it('never answers 500, classifies every 503, and stores one payment per Idempotency-Key', async () => {
    await fresh();
    const pools = [0, 1].map((index) => namedPool(db.connectionString, `http-${index}`, { max: 4 }));
    const group = engineInstances(pools, { retries: 1 });
    const api = await httpInstances(pools, group);
    group.startWorkers(20);

    let killing = true;
    let kills = 0;
    const killer = (async () => {
      for (let round = 0; killing; round++) {
        const { rowCount } = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = current_database() AND application_name LIKE 'http-_' AND state = 'active'
           ORDER BY random() LIMIT 1`,
        );
        kills += rowCount ?? 0;
        await sleep(2 + (round % 5));
      }
    })();

    // Waves of requests until the killer has hit enough of them.
    const seen: HttpResult[] = [];
    const keyedResults: HttpResult[] = [];
    const unkeyedResults: HttpResult[] = [];
    const WAVE = 10;
    for (let wave = 0; wave < 3 || kills < 30; wave++) {
      if (wave > 200) throw new Error(`only ${kills} kills after 200 waves`);
      const first = wave * WAVE;
      const keyed = Array.from({ length: WAVE }, (_, offset) => createWithKey(api, group, first + offset, seen));
      const unkeyed = Array.from({ length: WAVE }, async (_, offset) => {
        const index = first + offset;
        const body = bodyFor(index, `unkeyed-${index}`);
        const result = await api.send(index, { method: 'POST', path: PAYMENTS, body });
        seen.push(result);
        if (result.status === 201) {
          const id = String(result.json?.id);
          seen.push(await api.send(index + 1, { method: 'GET', path: `${PAYMENTS}/${id}` }));
          seen.push(await api.send(index, { method: 'GET', path: `${PAYMENTS}?limit=5` }));
        }
        return result;
      });
      keyedResults.push(...(await Promise.all(keyed)));
      unkeyedResults.push(...(await Promise.all(unkeyed)));
    }
    killing = false;
    await killer;

    const statuses = new Map<number, number>();
    for (const result of seen) statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
    console.log({ kills, statuses: Object.fromEntries(statuses) });
    expect(kills).toBeGreaterThan(0);
    expect(api.defects).toEqual([]);
    seen.forEach((result, index) => expectClassified(result, `answer ${index}`));

    await expectStoredAsAnswered(keyedResults, unkeyedResults);

    await settle(admin, group.clock);
    await group.close();
    for (const pool of pools) await pool.end();
    await expectSettled({ admin, instances: group, answers: [], cards: CARDS, allowedCodes: [], allCreates: false });
    for (const result of seen) for (const card of CARDS) expect(result.text).not.toContain(card);
  });
});

/** Pools for the lock test: how long a statement that waits for the lock may take. */
const LOCK_POOLS: readonly { readonly name: string; readonly pool: (index: number) => pg.Pool }[] = [
  {
    // The adapter's pool with a short statement time-out: cancelled (57014) after 500 ms.
    name: 'statement_timeout',
    pool: (index) =>
      createPostgresPool(db.connectionString, {
        max: 2,
        statementTimeoutMs: 500,
        connectionTimeoutMs: 1_000,
        applicationName: `http-lock-${index}`,
      }),
  },
  {
    // A host's pool with a lock time-out (55P03 after 500 ms) and no statement time-out.
    name: 'lock_timeout',
    pool: (index) =>
      namedPool(db.connectionString, `http-lock-${index}`, {
        max: 2,
        connectionTimeoutMillis: 1_000,
        options: '-c lock_timeout=500',
      }),
  },
  {
    // A host's pool with no time-out on the server at all: the statements hang until the lock
    // goes, holding their connections, and only the engine's and the API's time-outs answer.
    name: 'no server time-out',
    pool: (index) => namedPool(db.connectionString, `http-lock-${index}`, { max: 2, connectionTimeoutMillis: 1_000 }),
  },
];

describe('the HTTP API while a table lock makes statements hang', () => {
  for (const kind of LOCK_POOLS) {
    it(`(${kind.name}) answers 503 within the time-outs, never 500, and works again once the lock goes`, async () => {
      await fresh();
      const pools = [0, 1].map(kind.pool);
      await warm(pools, 2);
      const group = engineInstances(pools, { retries: 1, storageMs: 1_500 });
      const api = await httpInstances(pools, group);
      const before = await api.send(0, { method: 'POST', path: PAYMENTS, body: bodyFor(0, 'before'), key: 'before' });
      expect(before.status).toBe(201);

      const lock = await holdTableLock(db.connectionString, 'paystate_payments', 'ACCESS EXCLUSIVE');
      let during: HttpResult[];
      try {
        during = await Promise.all(
          Array.from({ length: 12 }, (_, index) =>
            index % 4 === 0
              ? api.send(index, { method: 'GET', path: `${PAYMENTS}/${String(before.json?.id)}` })
              : api.send(index, {
                  method: 'POST',
                  path: PAYMENTS,
                  body: bodyFor(index, `locked-${index}`),
                  ...(index % 2 === 0 && { key: `locked-${index}` }),
                }),
          ),
        );
      } finally {
        await lock.release();
      }
      console.log({
        kind: kind.name,
        during: during.map(
          (result) =>
            `${result.status} ${String(result.json?.code)} ${result.json?.payment_may_exist === true ? 'may exist' : `retry after ${String(result.retryAfter)}`}`,
        ),
      });
      during.forEach((result, index) => {
        expectClassified(result, `request ${index} under the lock`);
        expect(result.status, `request ${index} under the lock`).toBe(503);
      });
      // Statements that waited for the lock run now; nothing a 503 without payment_may_exist
      // answered is stored once they have.
      await sleep(500);
      const stored = await storedByReference();
      during.forEach((result, index) => {
        if (result.json?.payment_may_exist !== true) expect(stored.get(`locked-${index}`)).toBeUndefined();
      });

      const after = await api.send(1, { method: 'POST', path: PAYMENTS, body: bodyFor(0, 'after'), key: 'after' });
      expect(after.status, after.text).toBe(201);
      expect(api.defects).toEqual([]);
      await group.close();
      for (const pool of pools) await pool.end();
    });
  }
});

describe('the HTTP API with its pools exhausted', () => {
  it('answers what it can, 503 for the rest (never 500), and one payment per Idempotency-Key in the end', async () => {
    await fresh();
    // One connection per instance, and a request waits at most 50 ms for it: most requests find
    // the pool busy (`timeout exceeded when trying to connect`).
    const pools = [0, 1].map((index) =>
      createPostgresPool(db.connectionString, {
        max: 1,
        connectionTimeoutMs: 50,
        applicationName: `http-pool-${index}`,
      }),
    );
    await warm(pools, 1);
    const group = engineInstances(pools, { retries: 1 });
    const api = await httpInstances(pools, group);
    group.startWorkers(20);
    // Something else of the host holds each pool's only connection while the requests start.
    const held = await Promise.all(pools.map((pool) => pool.connect()));
    const seen: HttpResult[] = [];
    const COUNT = 40;
    const keyedRuns = Promise.all(Array.from({ length: COUNT }, (_, index) => createWithKey(api, group, index, seen)));
    const unkeyedRuns = Promise.all(
      Array.from({ length: COUNT }, async (_, index) => {
        const result = await api.send(index, {
          method: 'POST',
          path: PAYMENTS,
          body: bodyFor(index, `unkeyed-${index}`),
        });
        seen.push(result);
        return result;
      }),
    );
    try {
      const deadline = Date.now() + 30_000;
      while (seen.filter((result) => result.status === 503).length < COUNT) {
        if (Date.now() > deadline) throw new Error('the requests did not find the pools busy');
        await sleep(10);
      }
    } finally {
      for (const client of held) client.release();
    }
    const keyed = await keyedRuns;
    const unkeyed = await unkeyedRuns;
    const statuses = new Map<number, number>();
    for (const result of seen) statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
    console.log({ statuses: Object.fromEntries(statuses) });
    expect(api.defects).toEqual([]);
    seen.forEach((result, index) => expectClassified(result, `answer ${index}`));
    await expectStoredAsAnswered(keyed, unkeyed);
    await settle(admin, group.clock);
    await group.close();
    for (const pool of pools) await pool.end();
    await expectSettled({ admin, instances: group, answers: [], cards: CARDS, allowedCodes: [], allCreates: false });
  });
});
