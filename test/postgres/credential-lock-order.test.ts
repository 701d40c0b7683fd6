import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import { createPostgresCredentialStore } from '../../adapters/postgres/index.js';
import { T0 } from '../contracts/fixtures.js';
import { expectOk } from '../contracts/payment-repository.contract.js';
import { useMigratedDatabase } from './support/migrated-database.js';
import { clientIdOf, configWith, token } from './support/credential-fixtures.js';

// Every change of a client's tokens takes the client's row lock before any token row's: a change
// that took them the other way round (a token row first, then its client) deadlocks against a
// roll or revoke of the same client, and Postgres aborts one of the two (40P01, `unavailable`).
// Each test holds one of the two changes at a chosen point with a table lock of a third session,
// lets the other run into the lock the first holds, then lets the first go on.

const db = useMigratedDatabase();

/** Waits until `count` backends of the test database wait for a lock. */
async function lockWaiters(pool: pg.Pool, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await pool.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if ((rows[0]?.waiting ?? 0) >= count) return;
    if (Date.now() > deadline) throw new Error(`fewer than ${count} backends wait for a lock`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Holds an exclusive lock on `table` (every statement that reads it waits) until `release` is called. */
async function holdTable(pool: pg.Pool, table: string): Promise<{ release(): Promise<void> }> {
  const blocker = await pool.connect();
  await blocker.query('BEGIN');
  await blocker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  return {
    release: async () => {
      await blocker.query('COMMIT');
      blocker.release();
    },
  };
}

async function storeWith(...tokens: string[]) {
  const store = createPostgresCredentialStore({ pool: db.pool, clock: createTestClock(T0) });
  await expectOk(store.importConfig(configWith(...tokens)));
  return store;
}

describe('postgres credential store: every change locks the client before its tokens', () => {
  it('a putClient updating the client of a token and a roll of that token both succeed (no deadlock)', async () => {
    const [old, next] = [token('old'), token('next')];
    const store = await storeWith(old);
    // putClient stops at its profile check, having looked up (and locked) what it locks first.
    const blocker = await holdTable(db.pool, 'paystate_profiles');
    const put = store.putClient({ token: old, partnerId: 'partner_a', profileIds: [], pciDssCompliant: true });
    await lockWaiters(db.pool, 1);
    const roll = store.rollToken({ old: { token: old }, token: next, overlapMs: 60_000 });
    await lockWaiters(db.pool, 2);
    await blocker.release();
    const [updated, rolled] = await Promise.all([put, roll]);
    expect(updated.isOk() ? updated.value.id : updated.error).toBe(clientIdOf(old));
    expect(rolled.isOk() ? rolled.value.added.expiresAt : rolled.error).toBeNull();
    expect((await expectOk(store.authenticate(next)))?.pciDssCompliant).toBe(true);
  });

  it('a putClient updating the client of a token and a revoke of that token both succeed (no deadlock)', async () => {
    const [kept, revoked] = [token('kept'), token('revoked')];
    const store = await storeWith(kept);
    await expectOk(store.addToken({ clientId: clientIdOf(kept), token: revoked }));
    const blocker = await holdTable(db.pool, 'paystate_profiles');
    const put = store.putClient({ token: revoked, partnerId: 'partner_a', profileIds: [], pciDssCompliant: true });
    await lockWaiters(db.pool, 1);
    const revoke = store.revokeToken({ token: revoked });
    await lockWaiters(db.pool, 2);
    await blocker.release();
    const [updated, gone] = await Promise.all([put, revoke]);
    expect(updated.isOk() ? updated.value.id : updated.error).toBe(clientIdOf(kept));
    expect(gone.isOk() ? gone.value : gone.error).toBe(true);
    expect(await expectOk(store.authenticate(revoked))).toBeNull();
    expect((await expectOk(store.authenticate(kept)))?.pciDssCompliant).toBe(true);
  });

  it('an importConfig and a roll of a token of a client it keeps both succeed (no deadlock)', async () => {
    const [first, added, next] = [token('first'), token('added'), token('next')];
    const store = await storeWith(first);
    // A token the config does not have: the import deletes it.
    await expectOk(store.addToken({ clientId: clientIdOf(first), token: added }));
    // The import stops where it deletes the profiles the config does not have.
    const blocker = await holdTable(db.pool, 'paystate_profiles');
    const imported = store.importConfig(configWith(first));
    await lockWaiters(db.pool, 1);
    const roll = store.rollToken({ old: { token: first }, token: next, overlapMs: 60_000 });
    await lockWaiters(db.pool, 2);
    await blocker.release();
    const [importResult, rolled] = await Promise.all([imported, roll]);
    expect(importResult.isOk() ? importResult.value : importResult.error).toStrictEqual({ profiles: 1, clients: 1 });
    expect(rolled.isOk() ? rolled.value.added.expiresAt : rolled.error).toBeNull();
    // The import came first: the roll rolled the config's token, and the token it added stays.
    expect(await expectOk(store.authenticate(added))).toBeNull();
    expect((await expectOk(store.authenticate(next)))?.id).toBe(clientIdOf(first));
  });
});
