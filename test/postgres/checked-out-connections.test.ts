import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createPostgresCredentialStore,
  createPostgresPool,
  MIGRATIONS,
  migrate,
} from '../../adapters/postgres/index.js';
import type { SandboxConfig } from '../../adapters/memory/index.js';
import { useMigratedDatabase } from './support/migrated-database.js';
import { holdTableLock, namedPool, recordUncaught, terminateBackend, waitForBackend } from './support/backends.js';

/*
 * Found by the failure-injection review: `migrate` and `importConfig` check a connection out of
 * the pool for several statements. `pg-pool` takes its own `error` listener off a client while it
 * is checked out, and `pg` emits `error` when the connection dies (a backend killed, a server
 * restarted, idle_in_transaction_session_timeout): with nobody listening, that `error` event was
 * an uncaught exception that ended the host process, although the call itself answered a clean
 * `unavailable`.
 */

const db = useMigratedDatabase();
const MIGRATION_LOCK = '8097880467283780709';

const config: SandboxConfig = {
  partners: [{ id: 'partner_crash', profiles: [{ id: 'profile_crash', name: 'Crash Shop' }] }],
  clients: [
    {
      token: 'tok_crash_test_client_3Pz7',
      partner_id: 'partner_crash',
      profile_ids: ['profile_crash'],
      pci_dss_compliant: false,
    },
  ],
};

describe('a connection checked out of the pool dies while the adapter holds it', () => {
  it('migrate, waiting for the migration lock between tries: unavailable, retryable, and the process lives', async () => {
    const uncaught = recordUncaught();
    // Another migrator holds the lock (a session of its own: ending it frees the lock).
    const holder = new pg.Client({ connectionString: db.connectionString, application_name: 'paystate-lock-holder' });
    holder.on('error', () => undefined);
    await holder.connect();
    const pool = namedPool(db.connectionString, 'paystate-migrate-victim', { max: 2 });
    try {
      await holder.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
      let waiting = false;
      const migrating = migrate(pool, { lockWaitMs: 30_000, onWaiting: () => (waiting = true) });
      const deadline = Date.now() + 20_000;
      while (!waiting) {
        if (Date.now() > deadline) throw new Error('migrate did not start waiting for the lock');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Between two tries of the lock (every 250 ms) its connection sits idle, checked out.
      const pid = await waitForBackend(db.pool, { applicationName: 'paystate-migrate-victim', waiting: 'idle' });
      await terminateBackend(db.pool, pid);
      const result = await migrating;
      expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'unavailable', retryable: true });
      await holder.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
      // The pool is usable again, and the dead connection was not handed back to it.
      expect((await migrate(pool))._unsafeUnwrap().version).toBe(MIGRATIONS.length);
      expect(uncaught.errors).toEqual([]);
    } finally {
      uncaught.stop();
      await holder.end();
      await pool.end();
    }
  });

  it('migrate, inside a statement: unavailable, retryable, and the process lives', async () => {
    const uncaught = recordUncaught();
    const pool = namedPool(db.connectionString, 'paystate-migrate-victim-2', { max: 2 });
    const lock = await holdTableLock(db.connectionString, 'paystate_migrations', 'ACCESS EXCLUSIVE');
    try {
      const migrating = migrate(pool);
      const pid = await waitForBackend(db.pool, {
        applicationName: 'paystate-migrate-victim-2',
        queryContains: 'paystate_migrations',
        waiting: 'lock',
      });
      await terminateBackend(db.pool, pid);
      expect((await migrating)._unsafeUnwrapErr()).toMatchObject({ code: 'unavailable', retryable: true });
      await lock.release();
      expect((await migrate(pool))._unsafeUnwrap().version).toBe(MIGRATIONS.length);
      expect(uncaught.errors).toEqual([]);
    } finally {
      uncaught.stop();
      await lock.release();
      await pool.end();
    }
  });

  it('importConfig, inside its transaction: unavailable, retryable, nothing imported, and the process lives', async () => {
    const uncaught = recordUncaught();
    const pool = namedPool(db.connectionString, 'paystate-import-victim', { max: 2 });
    const store = createPostgresCredentialStore({ pool });
    const lock = await holdTableLock(db.connectionString, 'paystate_clients', 'ACCESS EXCLUSIVE');
    try {
      const importing = store.importConfig(config);
      const pid = await waitForBackend(db.pool, { applicationName: 'paystate-import-victim', waiting: 'lock' });
      await terminateBackend(db.pool, pid);
      expect((await importing)._unsafeUnwrapErr()).toMatchObject({ code: 'unavailable', retryable: true });
      await lock.release();
      expect((await store.authenticate('tok_crash_test_client_3Pz7'))._unsafeUnwrap()).toBeNull();
      expect((await store.importConfig(config))._unsafeUnwrap()).toEqual({ profiles: 1, clients: 1 });
      expect((await store.authenticate('tok_crash_test_client_3Pz7'))._unsafeUnwrap()?.partnerId).toBe('partner_crash');
      expect(uncaught.errors).toEqual([]);
    } finally {
      uncaught.stop();
      await lock.release();
      await pool.end();
    }
  });
});

/*
 * Found by the failure-injection review: `migrate` turns the statement time-out off on its
 * connection while it waits for another migrator (`SET statement_timeout = 0`) and turned it back
 * on only after it had got the lock. A migrator that gave up waiting (`lockWaitMs`) handed the
 * connection back to the pool without it: later statements on that connection (the repository's,
 * on the pool `createPostgresPool` makes with a 10 s time-out, or a host's) could hang for ever.
 */
describe('the connection migrate gives back', () => {
  it('has the pool statement time-out again after migrate gave up waiting for the lock', async () => {
    const holder = new pg.Client({ connectionString: db.connectionString, application_name: 'paystate-lock-holder' });
    holder.on('error', () => undefined);
    await holder.connect();
    const pool = createPostgresPool(db.connectionString, { max: 1, statementTimeoutMs: 1_234 });
    try {
      expect((await pool.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]).toEqual({
        statement_timeout: '1234ms',
      });
      await holder.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
      const gaveUp = await migrate(pool, { lockWaitMs: 300 });
      expect(gaveUp._unsafeUnwrapErr().message).toMatch(/Another migrator has held the migration lock/);
      await holder.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
      // The pool has one connection: the one migrate used.
      expect(pool.totalCount).toBe(1);
      expect((await pool.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]).toEqual({
        statement_timeout: '1234ms',
      });
      // And so after a migrate that got the lock.
      expect((await migrate(pool))._unsafeUnwrap().version).toBe(MIGRATIONS.length);
      expect((await pool.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]).toEqual({
        statement_timeout: '1234ms',
      });
      expect(pool.totalCount).toBe(1);
    } finally {
      await holder.end();
      await pool.end();
    }
  });
});
