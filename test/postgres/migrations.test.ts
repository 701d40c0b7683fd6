import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresIdempotencyStore,
  createPostgresPaymentRepository,
  MIGRATIONS,
  migrate,
  runMigrateCli,
  type Migration,
} from '../../adapters/postgres/index.js';
import { startTestDatabase, type TestDatabase } from './support/embedded-postgres.js';

let database: TestDatabase;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  database = await startTestDatabase();
});

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await database.close();
});

/** A pool whose unqualified tables live in a new, empty schema: an empty database as far as paystate can tell. */
async function emptySchema(count = 1): Promise<{ schema: string; pools: pg.Pool[] }> {
  const schema = `s_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: database.connectionString });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const created = Array.from({ length: count }, () => {
    const pool = new pg.Pool({
      connectionString: database.connectionString,
      options: `-c search_path=${schema}`,
      max: 2,
    });
    pool.on('error', () => undefined);
    pools.push(pool);
    return pool;
  });
  return { schema, pools: created };
}

const tablesOf = async (pool: pg.Pool): Promise<string[]> =>
  (
    await pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
    )
  ).rows.map((row) => row.table_name);

describe('migrate', () => {
  it('creates the schema in an empty database, then finds nothing to do', async () => {
    const {
      pools: [pool],
    } = await emptySchema();
    expect(await tablesOf(pool!)).toEqual([]);

    const first = (await migrate(pool!))._unsafeUnwrap();
    expect(first.applied).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
    expect(first.version).toBe(MIGRATIONS.length);
    expect(await tablesOf(pool!)).toEqual([
      'paystate_card_vault',
      'paystate_client_tokens',
      'paystate_clients',
      'paystate_idempotency_keys',
      'paystate_migrations',
      'paystate_operations',
      'paystate_outbox',
      'paystate_outbox_lease',
      'paystate_payments',
      'paystate_profiles',
      'paystate_retired_tokens',
      'paystate_sandbox_authorizations',
      'paystate_sandbox_challenges',
      'paystate_sandbox_operations',
    ]);

    const again = (await migrate(pool!))._unsafeUnwrap();
    expect(again).toEqual({ applied: [], version: MIGRATIONS.length, unknownVersions: [] });
    const { rows } = await pool!.query('SELECT version, name FROM paystate_migrations ORDER BY version');
    expect(rows).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
  });

  it('is safe to run from several instances at once: one applies, the others find it done', async () => {
    const { pools: several } = await emptySchema(6);
    const reports = await Promise.all(several.map((pool) => migrate(pool)));
    const applied = reports.map((report) => report._unsafeUnwrap().applied.length);
    expect(applied.reduce((sum, count) => sum + count, 0)).toBe(MIGRATIONS.length);
    expect(applied.filter((count) => count > 0)).toHaveLength(1);
    for (const report of reports) expect(report._unsafeUnwrap().version).toBe(MIGRATIONS.length);
    const { rows } = await several[0]!.query('SELECT count(*)::int AS n FROM paystate_migrations');
    expect(rows[0]).toEqual({ n: MIGRATIONS.length });
  });

  it('rolls a failing migration back whole and stops there', async () => {
    const {
      pools: [pool],
    } = await emptySchema();
    const broken: Migration = {
      version: MIGRATIONS.length + 1,
      name: 'broken',
      sql: 'CREATE TABLE half_done (id int); SELECT 1 / 0;',
    };
    const later: Migration = { version: MIGRATIONS.length + 2, name: 'later', sql: 'CREATE TABLE later (id int);' };
    const result = await migrate(pool!, { migrations: [...MIGRATIONS, broken, later] });
    const error = result._unsafeUnwrapErr();
    expect(error.code).toBe('migration_failed');
    expect(error.message).toContain('broken');
    expect(error.message).toContain('22012');
    const tables = await tablesOf(pool!);
    expect(tables).toContain('paystate_payments');
    expect(tables).not.toContain('half_done');
    expect(tables).not.toContain('later');
    expect((await migrate(pool!))._unsafeUnwrap().version).toBe(MIGRATIONS.length);
  });

  it('refuses to go on when an applied migration was edited, and reports versions it does not know', async () => {
    const {
      pools: [pool],
    } = await emptySchema();
    await migrate(pool!);
    await pool!.query(`INSERT INTO paystate_migrations (version, name, checksum) VALUES (99, 'from_the_future', 'x')`);
    expect((await migrate(pool!))._unsafeUnwrap().unknownVersions).toEqual([99]);

    await pool!.query(`UPDATE paystate_migrations SET checksum = 'edited' WHERE version = 1`);
    expect((await migrate(pool!))._unsafeUnwrapErr().code).toBe('migration_mismatch');
  });

  it('turns outbox events into json (migration 4) keeping the events stored before, and older writers still write', async () => {
    const {
      pools: [pool],
    } = await emptySchema();
    const before = MIGRATIONS.filter((migration) => migration.version < 4);
    expect((await migrate(pool!, { migrations: before }))._unsafeUnwrap().version).toBe(3);
    const event = { id: 'evt_1', type: 'payment.created', payment: { id: 'payment_1', amount: 1999 } };
    const write = (value: object, cast: 'json' | 'jsonb') =>
      pool!.query(
        `INSERT INTO paystate_outbox (event_id, payment_id, event_type, event) VALUES ($1, 'payment_1', $2, $3::${cast})`,
        [(value as { id: string }).id, 'payment.created', JSON.stringify(value)],
      );
    await write(event, 'jsonb');
    const throughFour = MIGRATIONS.filter((migration) => migration.version <= 4);
    expect(
      (await migrate(pool!, { migrations: throughFour }))._unsafeUnwrap().applied.map((applied) => applied.version),
    ).toEqual([4]);
    // An instance of the previous version still inserts jsonb: it is converted on assignment.
    await write({ ...event, id: 'evt_2' }, 'jsonb');
    await write({ ...event, id: 'evt_3' }, 'json');
    const { rows } = await pool!.query<{ type: string; event: unknown }>(
      `SELECT pg_typeof(event)::text AS type, event FROM paystate_outbox ORDER BY sequence`,
    );
    expect(rows.map((row) => row.type)).toEqual(['json', 'json', 'json']);
    expect(rows.map((row) => row.event)).toEqual([event, { ...event, id: 'evt_2' }, { ...event, id: 'evt_3' }]);
  });

  it('adds not_found_answers (migration 5): not null, 0 by default, so rows written before read 0', async () => {
    const {
      pools: [pool],
    } = await emptySchema();
    const throughFour = MIGRATIONS.filter((migration) => migration.version <= 4);
    expect((await migrate(pool!, { migrations: throughFour }))._unsafeUnwrap().version).toBe(4);
    const { rows: columns } = await pool!.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'paystate_payments' AND column_name = 'not_found_answers'`,
    );
    expect(columns).toEqual([]);
    const throughFive = MIGRATIONS.filter((migration) => migration.version <= 5);
    expect(
      (await migrate(pool!, { migrations: throughFive }))._unsafeUnwrap().applied.map((applied) => applied.version),
    ).toEqual([5]);
    const { rows } = await pool!.query<{ column_default: string; is_nullable: string }>(
      `SELECT column_default, is_nullable FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'paystate_payments' AND column_name = 'not_found_answers'`,
    );
    expect(rows).toEqual([{ column_default: '0', is_nullable: 'NO' }]);
  });

  it('adds write_id (migration 6): nullable text, as rows written before have none', async () => {
    const {
      pools: [pool],
    } = await emptySchema();
    await migrate(pool!, { migrations: MIGRATIONS.filter((migration) => migration.version <= 5) });
    await pool!.query(
      `INSERT INTO paystate_outbox (event_id, payment_id, event_type, event) VALUES ('e', 'p', 't', '{}')`,
    );
    const throughSix = MIGRATIONS.filter((migration) => migration.version <= 6);
    expect(
      (await migrate(pool!, { migrations: throughSix }))._unsafeUnwrap().applied.map((applied) => applied.version),
    ).toEqual([6]);
    const { rows } = await pool!.query<{ is_nullable: string; data_type: string }>(
      `SELECT is_nullable, data_type FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'paystate_payments' AND column_name = 'write_id'`,
    );
    expect(rows).toEqual([{ is_nullable: 'YES', data_type: 'text' }]);
  });

  it('adds outbox retries (migration 7): events stored before have no failed attempt and are due', async () => {
    const {
      pools: [pool],
    } = await emptySchema();
    await migrate(pool!, { migrations: MIGRATIONS.filter((migration) => migration.version <= 6) });
    await pool!.query(
      `INSERT INTO paystate_outbox (event_id, payment_id, event_type, event) VALUES ('e', 'p', 't', '{"id":"e"}')`,
    );
    const throughSeven = MIGRATIONS.filter((migration) => migration.version <= 7);
    expect(
      (await migrate(pool!, { migrations: throughSeven }))._unsafeUnwrap().applied.map((applied) => applied.version),
    ).toEqual([7]);
    const repository = createPostgresPaymentRepository({ pool: pool! });
    const entries = (await repository.readOutbox({ now: Date.now(), limit: 10 }))._unsafeUnwrap();
    expect(entries.map((entry) => [entry.event, entry.attempts])).toEqual([[{ id: 'e' }, 0]]);
    await expect(pool!.query(`UPDATE paystate_outbox SET attempts = -1`)).rejects.toMatchObject({ code: '23514' });
    await repository.close();
  });

  it('adds idempotency reservations (migration 8): keys in progress from before keep waiting for their expiry', async () => {
    const {
      pools: [pool],
    } = await emptySchema();
    await migrate(pool!, { migrations: MIGRATIONS.filter((migration) => migration.version <= 7) });
    const T0 = Date.UTC(2026, 0, 15, 12);
    const DAY = 24 * 60 * 60 * 1000;
    await pool!.query(
      `INSERT INTO paystate_idempotency_keys (client_id, key, fingerprint, status, created_at, expires_at)
       VALUES ('c', 'k', 'f', 'in_progress', $1, $2)`,
      [new Date(T0).toISOString(), new Date(T0 + DAY).toISOString()],
    );
    const throughEight = MIGRATIONS.filter((migration) => migration.version <= 8);
    expect(
      (await migrate(pool!, { migrations: throughEight }))._unsafeUnwrap().applied.map((applied) => applied.version),
    ).toEqual([8]);
    const { rows } = await pool!.query<{ column_name: string; is_nullable: string; data_type: string }>(
      `SELECT column_name, is_nullable, data_type FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'paystate_idempotency_keys'
         AND column_name IN ('reserved_id', 'started_at') ORDER BY column_name`,
    );
    expect(rows).toEqual([
      { column_name: 'reserved_id', is_nullable: 'YES', data_type: 'text' },
      { column_name: 'started_at', is_nullable: 'YES', data_type: 'timestamp with time zone' },
    ]);
    const store = createPostgresIdempotencyStore({ pool: pool! });
    const begin = (now: number) =>
      store.begin({
        clientId: 'c',
        key: 'k',
        fingerprint: 'f',
        now,
        ttlMs: DAY,
        reservedId: `payment_${'a'.repeat(32)}`,
        staleAfterMs: 60_000,
      });
    expect((await begin(T0 + DAY - 1))._unsafeUnwrap()).toEqual({ kind: 'in_progress' });
    expect((await begin(T0 + DAY))._unsafeUnwrap()).toMatchObject({ kind: 'started', takeover: false });
  });

  // Found by a reviewing helper: a migrator waiting for another one said nothing and waited for ever.
  it('says when it waits for another migrator, and gives up after lockWaitMs', async () => {
    const {
      pools: [pool],
    } = await emptySchema();
    const holder = new pg.Client({ connectionString: database.connectionString });
    await holder.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(8097880467283780709)`);
      let waits = 0;
      const gaveUp = await migrate(pool!, { lockWaitMs: 600, onWaiting: () => (waits += 1) });
      expect(gaveUp._unsafeUnwrapErr()).toMatchObject({ code: 'unavailable', retryable: true });
      expect(gaveUp._unsafeUnwrapErr().message).toMatch(/Another migrator has held the migration lock/);
      expect(waits).toBe(1);

      const waited = migrate(pool!, { onWaiting: () => (waits += 1) });
      await new Promise((resolve) => setTimeout(resolve, 400));
      await holder.query(`SELECT pg_advisory_unlock(8097880467283780709)`);
      expect((await waited)._unsafeUnwrap().version).toBe(MIGRATIONS.length);
      expect(waits).toBe(2);
    } finally {
      await holder.end();
    }
  });

  it('answers unavailable, retryable, when the server cannot be reached', async () => {
    const pool = new pg.Pool({
      connectionString: 'postgres://nobody:secret@127.0.0.1:1/nothing',
      connectionTimeoutMillis: 1000,
    });
    pools.push(pool);
    const error = (await migrate(pool))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'unavailable', retryable: true });
  });
});

describe('runMigrateCli', () => {
  const capture = (env: Record<string, string | undefined> = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      io: { stdout: (line: string) => out.push(line), stderr: (line: string) => err.push(line), env },
      out,
      err,
    };
  };

  it('migrates the database of --database-url, then reports it up to date', async () => {
    const { schema } = await emptySchema();
    const url = new URL(database.connectionString);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const first = capture();
    expect(await runMigrateCli(['--database-url', url.toString()], first.io)).toBe(0);
    expect(first.out).toEqual([
      ...MIGRATIONS.map((migration) => `applied ${migration.version} ${migration.name}`),
      `schema now at version ${MIGRATIONS.length}`,
    ]);
    const second = capture({ DATABASE_URL: url.toString() });
    expect(await runMigrateCli([], second.io)).toBe(0);
    expect(second.out).toEqual([`schema up to date at version ${MIGRATIONS.length}`]);
  });

  it('exits 2 without a database and 1 when it cannot migrate, never printing the password', async () => {
    const none = capture();
    expect(await runMigrateCli([], none.io)).toBe(2);
    expect(none.err.join('\n')).toContain('DATABASE_URL');
    const unknownFlag = capture();
    expect(await runMigrateCli(['--nope'], unknownFlag.io)).toBe(2);

    const unreachable = capture();
    expect(await runMigrateCli(['--database-url', 'postgres://nobody:hunter2@127.0.0.1:1/x'], unreachable.io)).toBe(1);
    expect(unreachable.err.join('\n')).toContain('unavailable');
    expect([...unreachable.out, ...unreachable.err].join('\n')).not.toContain('hunter2');

    // Found by a reviewing helper: a port that is not a number read "Postgres call failed (no SQLSTATE)".
    // It is a usage error now, found before anything connects.
    const badUrl = capture();
    expect(await runMigrateCli(['--database-url', 'postgres://nobody:hunter2@127.0.0.1:notaport/x'], badUrl.io)).toBe(
      2,
    );
    expect(badUrl.err.join('\n')).toContain('--database-url is not a URL');
    expect([...badUrl.out, ...badUrl.err].join('\n')).not.toContain('hunter2');
  });
});
