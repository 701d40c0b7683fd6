import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { migrate } from '../../../adapters/postgres/index.js';
import { startTestDatabase, type TestDatabase, type TestDatabaseOptions } from './embedded-postgres.js';

/** A test file's database, filled in by `beforeAll`. */
export interface MigratedDatabase {
  /** A pool on the database (max 20 connections). */
  readonly pool: pg.Pool;
  readonly connectionString: string;
  readonly database: TestDatabase;
}

/** Empties every paystate table and frees the leases: a fresh store for the next test. */
export async function resetTables(pool: pg.Pool): Promise<void> {
  await pool.query(`
    TRUNCATE paystate_operations, paystate_payments, paystate_outbox, paystate_idempotency_keys, paystate_clients, paystate_client_tokens,
      paystate_retired_tokens, paystate_profiles;
    UPDATE paystate_outbox_lease SET holder = NULL, held_until = NULL;`);
}

/**
 * Registers hooks that start a fresh database for this test file (embedded server unless
 * `DATABASE_URL` is set), migrate it, and drop it at the end. Read the fields inside tests.
 */
export function useMigratedDatabase(options: TestDatabaseOptions = {}): MigratedDatabase {
  const state: { pool?: pg.Pool; database?: TestDatabase } = {};
  beforeAll(async () => {
    state.database = await startTestDatabase(options);
    state.pool = new pg.Pool({ connectionString: state.database.connectionString, max: 20 });
    state.pool.on('error', () => undefined);
    const migrated = await migrate(state.pool);
    if (migrated.isErr()) throw new Error(migrated.error.message);
  });
  afterAll(async () => {
    await state.pool?.end();
    await state.database?.close();
  });
  const required = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is only available inside tests`);
    return value;
  };
  return {
    get pool() {
      return required(state.pool, 'pool');
    },
    get database() {
      return required(state.database, 'database');
    },
    get connectionString() {
      return required(state.database, 'database').connectionString;
    },
  };
}
