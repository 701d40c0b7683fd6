import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Pool } from 'pg';
import {
  createPostgresAdapters,
  createPostgresCardVault,
  createPostgresCredentialStore,
  createPostgresIdempotencyStore,
  createPostgresPaymentRepository,
  type PostgresConnectionOptions,
  type PostgresPaymentRepository,
} from '../../adapters/postgres/index.js';
import type { Logger } from '../../src/index.js';
import { namedPool, recordUncaught } from './support/backends.js';
import { startCuttingProxy, type CuttingProxy } from './support/cutting-proxy.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';

/*
 * `close()` gives up the outbox lease and ends the pool; on a database that went dark (no FIN, no
 * RST: a firewall or NAT forgot the connection, a failed-over address vanished) the release
 * statement waits for an answer that never comes, and `pool.end()` waits for it: without a
 * client-side statement limit for ever, and a host's graceful shutdown with it. It now waits at
 * most `closeTimeoutMs`, logs what it gave up and resolves; the lease runs out by itself, as
 * after a crash, and the connections of its own pool still waiting are closed.
 */

const db = useMigratedDatabase();
const HUNG = Symbol('hung');

interface Line {
  readonly level: string;
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

function recordingLogger(): Logger & { readonly lines: Line[] } {
  const lines: Line[] = [];
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message: string): void =>
      void lines.push({ level, fields, message });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Resolves to how long `close` took, or `HUNG` when it had not resolved within `limitMs`. */
async function timed(close: Promise<void>, limitMs: number): Promise<number | typeof HUNG> {
  const started = Date.now();
  return Promise.race([close.then(() => Date.now() - started), sleep(limitMs).then((): typeof HUNG => HUNG)]);
}

async function leaseHolder(): Promise<string | null> {
  const { rows } = await db.pool.query<{ holder: string | null }>('SELECT holder FROM paystate_outbox_lease');
  return rows[0]?.holder ?? null;
}

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** The pool options that leave a statement on a dark connection waiting for ever: no limit on either side. */
const NO_LIMITS = { max: 2, statementTimeoutMs: 0, queryTimeoutMs: 0, connectionTimeoutMs: 1_000 } as const;

let proxies: CuttingProxy[] = [];
afterEach(async () => {
  // Closing the proxies ends the dark connections, and with them anything the old code waited for.
  for (const proxy of proxies) await proxy.close();
  proxies = [];
});

async function proxy(): Promise<CuttingProxy> {
  const started = await startCuttingProxy(db.connectionString);
  proxies.push(started);
  return started;
}

describe('close() on a database that went dark', () => {
  it('the repository’s own pool: returns within closeTimeoutMs, logs what it gave up, and the lease runs out by itself', async () => {
    await resetTables(db.pool);
    const dark = await proxy();
    const logger = recordingLogger();
    const uncaught = recordUncaught();
    const repository = createPostgresPaymentRepository({
      connectionString: dark.connectionString,
      poolOptions: NO_LIMITS,
      outboxLeaseMs: 1_500,
      closeTimeoutMs: 500,
      logger,
    });
    // It holds the outbox lease now.
    expect((await repository.readOutbox({ now: Date.now(), limit: 10 }))._unsafeUnwrap()).toEqual([]);
    expect(await leaseHolder()).toBe(repository.instanceId);
    dark.blackholeOpenConnections();

    const took = await timed(repository.close(), 10_000);
    expect(took).not.toBe(HUNG);
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(5_000);
    // The same promise to a second call, and no waiting again.
    expect(await timed(repository.close(), 100)).not.toBe(HUNG);

    const gaveUp = logger.lines.filter((line) => line.message.includes('gave up'));
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]).toMatchObject({
      level: 'warn',
      fields: { waitedMs: 500, gaveUp: ['release the outbox lease', 'end the pool'] },
    });
    // Its connections still waiting on the dark server were closed: the pool ends soon after.
    await until('the pool ended', () => repository.pool.ended);

    // The lease was not given up: another instance gets the outbox once it has run out, as after a crash.
    expect(await leaseHolder()).toBe(repository.instanceId);
    const other = createPostgresPaymentRepository({ pool: db.pool });
    await until('another instance took the outbox lease', async () => {
      (await other.readOutbox({ now: Date.now(), limit: 10 }))._unsafeUnwrap();
      return (await leaseHolder()) === other.instanceId;
    });
    await other.close();
    uncaught.stop();
    expect(uncaught.errors).toEqual([]);
  });

  it('createPostgresAdapters: returns within closeTimeoutMs and ends its pool', async () => {
    await resetTables(db.pool);
    const dark = await proxy();
    const logger = recordingLogger();
    const adapters = await createPostgresAdapters({
      connectionString: dark.connectionString,
      poolOptions: NO_LIMITS,
      migrate: false,
      closeTimeoutMs: 400,
      logger,
    });
    (await adapters.repository.readOutbox({ now: Date.now(), limit: 10 }))._unsafeUnwrap();
    dark.blackholeOpenConnections();
    const took = await timed(adapters.close(), 10_000);
    expect(took).not.toBe(HUNG);
    expect(took).toBeLessThan(5_000);
    expect(logger.lines.filter((line) => line.message.includes('gave up'))).toMatchObject([
      { level: 'warn', fields: { waitedMs: 400, gaveUp: ['release the outbox lease', 'end the pool'] } },
    ]);
    await until('the pool ended', () => adapters.pool.ended);
  });

  it('a host’s pool: returns within closeTimeoutMs, and leaves the pool alone', async () => {
    await resetTables(db.pool);
    const dark = await proxy();
    const logger = recordingLogger();
    const pool = namedPool(dark.connectionString, 'host-pool', { max: 2 });
    let repository: PostgresPaymentRepository | undefined;
    try {
      repository = createPostgresPaymentRepository({ pool, closeTimeoutMs: 300, logger });
      (await repository.readOutbox({ now: Date.now(), limit: 10 }))._unsafeUnwrap();
      dark.blackholeOpenConnections();
      const took = await timed(repository.close(), 10_000);
      expect(took).not.toBe(HUNG);
      expect(took).toBeLessThan(5_000);
      expect(logger.lines.filter((line) => line.message.includes('gave up'))).toMatchObject([
        { fields: { gaveUp: ['release the outbox lease'] } },
      ]);
      expect(pool.ending).toBe(false);
    } finally {
      await dark.close();
      await pool.end();
    }
  });
});

/** A store whose `close()` only ends its pool, and one statement of it to run (settled: whether it answered ok). */
interface PoolStore {
  readonly pool: Pool;
  statement(): Promise<boolean>;
  close(): Promise<void>;
}

type StoreOptions = PostgresConnectionOptions & { readonly closeTimeoutMs?: number; readonly logger?: Logger };

const STORES: readonly (readonly [string, string, (options: StoreOptions) => PoolStore])[] = [
  [
    'createPostgresIdempotencyStore',
    'Postgres idempotency store',
    (options) => {
      const store = createPostgresIdempotencyStore(options);
      return {
        pool: store.pool,
        statement: async () => (await store.purgeExpired(Date.now())).isOk(),
        close: store.close,
      };
    },
  ],
  [
    'createPostgresCredentialStore',
    'Postgres credential store',
    (options) => {
      const store = createPostgresCredentialStore(options);
      return {
        pool: store.pool,
        statement: async () => (await store.authenticate('tok_none')).isOk(),
        close: store.close,
      };
    },
  ],
  [
    'createPostgresCardVault',
    'Postgres card vault',
    (options) => {
      const keys = [{ id: 'k1', key: new Uint8Array(32).fill(1) }];
      const vault = createPostgresCardVault({ ...options, keys, clock: { now: () => Date.now() } });
      return {
        pool: vault.pool,
        statement: async () => (await vault.take('payment_none')).isOk(),
        close: vault.close,
      };
    },
  ],
];

describe.each(STORES)('%s: close() on a database that went dark', (_name, what, make) => {
  it('its own pool: a statement waiting for the dark server no longer holds close() up', async () => {
    await resetTables(db.pool);
    const dark = await proxy();
    const logger = recordingLogger();
    const uncaught = recordUncaught();
    const store = make({
      connectionString: dark.connectionString,
      poolOptions: NO_LIMITS,
      closeTimeoutMs: 400,
      logger,
    });
    // A connection is open (and idle), then goes dark; the next statement waits on it for ever.
    expect(await store.statement()).toBe(true);
    dark.blackholeOpenConnections();
    const waiting = store.statement();
    await until(
      'the statement is on the dark connection',
      () => store.pool.totalCount === 1 && store.pool.idleCount === 0,
    );

    const took = await timed(store.close(), 10_000);
    expect(took).not.toBe(HUNG);
    expect(took).toBeGreaterThanOrEqual(350);
    expect(took).toBeLessThan(5_000);
    // The same promise to a second call, and no waiting again.
    expect(await timed(store.close(), 100)).not.toBe(HUNG);
    expect(logger.lines.filter((line) => line.message.includes('gave up'))).toMatchObject([
      {
        level: 'warn',
        message: `${what}: close gave up waiting for the database`,
        fields: { waitedMs: 400, gaveUp: ['end the pool'] },
      },
    ]);
    // Its connection still waiting on the dark server was closed: the statement fails, the pool ends.
    expect(
      await timed(
        waiting.then(() => undefined),
        5_000,
      ),
    ).not.toBe(HUNG);
    expect(await waiting).toBe(false);
    await until('the pool ended', () => store.pool.ended);
    uncaught.stop();
    expect(uncaught.errors).toEqual([]);
  });

  it('a host’s pool: close() resolves at once, logs nothing and leaves the pool alone', async () => {
    const dark = await proxy();
    const logger = recordingLogger();
    const pool = namedPool(dark.connectionString, 'host-pool', { max: 2 });
    try {
      const store = make({ pool, closeTimeoutMs: 300, logger });
      expect(await store.statement()).toBe(true);
      dark.blackholeOpenConnections();
      expect(await timed(store.close(), 100)).not.toBe(HUNG);
      expect(logger.lines).toEqual([]);
      expect(pool.ending).toBe(false);
    } finally {
      await dark.close();
      await pool.end();
    }
  });

  it('refuses a closeTimeoutMs that is no number of ms, before it makes a pool', () => {
    for (const bad of [-5, Number.NaN]) {
      expect(() => make({ connectionString: 'postgres://u:p@127.0.0.1:1/db', closeTimeoutMs: bad })).toThrow(
        RangeError,
      );
    }
  });
});
