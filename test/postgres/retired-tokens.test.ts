import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import {
  createPostgresCredentialStore,
  MIGRATIONS,
  migrate,
  type PostgresCredentialStore,
} from '../../adapters/postgres/index.js';
import { T0 } from '../contracts/fixtures.js';
import { expectErr, expectOk } from '../contracts/payment-repository.contract.js';
import { clientIdOf, configWith, token } from './support/credential-fixtures.js';
import { useMigratedDatabase } from './support/migrated-database.js';

/**
 * Found by a security review: a token once retired (revoked, rolled away from, expired, deleted
 * with its client or by a re-import) could be stored again and let its holder in again, and an
 * expired token not yet deleted worked again when the clock went back. The contract suite checks
 * the calls of both stores; these check what only Postgres has: the import, other instances (other
 * clocks, an older version's statements), races of two connections, and migration 10.
 */
const db = useMigratedDatabase();
const MINUTE = 60_000;

const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

async function freshStore(
  ...tokens: string[]
): Promise<{ store: PostgresCredentialStore; clock: ReturnType<typeof createTestClock> }> {
  const clock = createTestClock(T0);
  const store = createPostgresCredentialStore({ pool: db.pool, clock });
  await expectOk(store.importConfig(configWith(...tokens)));
  return { store, clock };
}

const idOf = async (store: PostgresCredentialStore, value: string): Promise<string | null> =>
  (await expectOk(store.authenticate(value)))?.id ?? null;

describe('importConfig never brings a retired token back', () => {
  it('refuses a config token that was revoked, naming its client, and changes nothing', async () => {
    const [first, other, second] = [token('first'), token('other'), token('second')];
    const { store } = await freshStore(first, other);
    const id = clientIdOf(first);
    await expectOk(store.addToken({ clientId: id, token: second }));
    expect(await expectOk(store.revokeToken({ token: first }))).toBe(true);

    const error = await expectErr(store.importConfig(configWith(first, other)));
    expect(error).toMatchObject({ code: 'retired_token', retryable: false });
    expect(error.message).toContain(id);
    expect(error.message).not.toContain(clientIdOf(other));
    for (const value of [first, other, second]) expect(error.message).not.toContain(value);
    // Nothing changed: the revoked token stays dead, the client keeps the token it has now.
    expect(await expectOk(store.authenticate(first))).toBeNull();
    expect(await idOf(store, second)).toBe(id);
    expect(await idOf(store, other)).toBe(clientIdOf(other));
  });

  it('refuses a config token rolled away from, in its overlap or after it, without lifting its expiry', async () => {
    const [first, next] = [token('first'), token('next')];
    const { store, clock } = await freshStore(first);
    const id = clientIdOf(first);
    clock.advance(1000);
    const rolled = await expectOk(store.rollToken({ old: { token: first }, token: next, overlapMs: MINUTE }));

    const during = await expectErr(store.importConfig(configWith(first)));
    expect(during).toMatchObject({ code: 'retired_token' });
    expect(during.message).toContain(
      `${id} (being retired: it stops working at ${new Date(T0 + 1000 + MINUTE).toISOString()})`,
    );
    expect(await expectOk(store.listTokens(id))).toStrictEqual([
      { tokenId: rolled.retired.tokenId, createdAt: T0, expiresAt: T0 + 1000 + MINUTE },
      { tokenId: rolled.added.tokenId, createdAt: T0 + 1000, expiresAt: null },
    ]);

    clock.set(T0 + 1000 + MINUTE);
    const after = await expectErr(store.importConfig(configWith(first)));
    expect(after.message).toContain(`${id} (retired)`);
    expect(await expectOk(store.authenticate(first))).toBeNull();
    expect(await idOf(store, next)).toBe(id);

    // The documented way: a new token in the config. The old client goes, with the tokens it had.
    const replacement = token('replacement');
    expect(await expectOk(store.importConfig(configWith(replacement)))).toEqual({ profiles: 1, clients: 1 });
    expect(await idOf(store, replacement)).toBe(clientIdOf(replacement));
    expect(await expectOk(store.authenticate(next))).toBeNull();
    expect(await expectErr(store.addToken({ clientId: clientIdOf(replacement), token: next }))).toMatchObject({
      code: 'token_retired',
    });
  });

  it('retires the tokens a re-import deletes: a client left out of the config cannot come back with them', async () => {
    const [first, left] = [token('first'), token('left')];
    const { store } = await freshStore(first, left);
    await expectOk(store.importConfig(configWith(first)));
    expect(await expectOk(store.authenticate(left))).toBeNull();
    expect(await expectErr(store.importConfig(configWith(first, left)))).toMatchObject({ code: 'retired_token' });
    expect(
      await expectErr(store.putClient({ token: left, partnerId: 'partner_a', profileIds: [], pciDssCompliant: false })),
    ).toMatchObject({ code: 'token_retired' });
  });
});

describe('retirement across instances and versions', () => {
  it('a token one instance saw expired stays dead for an instance whose clock is behind', async () => {
    const [first, temporary] = [token('first'), token('temporary')];
    const { store: ahead, clock } = await freshStore(first);
    const behind = createPostgresCredentialStore({ pool: db.pool, clock: createTestClock(T0) });
    await expectOk(ahead.addToken({ clientId: clientIdOf(first), token: temporary, expiresAt: T0 + MINUTE }));
    expect(await idOf(behind, temporary)).toBe(clientIdOf(first));
    clock.set(T0 + MINUTE);
    expect(await expectOk(ahead.authenticate(temporary))).toBeNull();
    expect(await expectOk(behind.authenticate(temporary))).toBeNull();
    expect(await expectOk(behind.listTokens(clientIdOf(first)))).toHaveLength(1);
  });

  it('the schema itself refuses what an older instance would do: store a retired digest again, lift an expiry', async () => {
    const [first, next, revoked] = [token('first'), token('next'), token('revoked')];
    const { store } = await freshStore(first);
    const id = clientIdOf(first);
    await expectOk(store.addToken({ clientId: id, token: revoked }));
    await expectOk(store.revokeToken({ token: revoked }));
    await expectOk(store.rollToken({ old: { token: first }, token: next }));
    // Version 9's statements: its addToken's insert, and its import's upsert of a config token.
    await expect(
      db.pool.query(
        `INSERT INTO paystate_client_tokens (token_sha256, client_id, created_at, expires_at) VALUES ($1, $2, now(), NULL)
         ON CONFLICT (token_sha256) DO NOTHING`,
        [sha256(revoked), id],
      ),
    ).rejects.toMatchObject({ code: 'PSRT1' });
    await expect(
      db.pool.query(
        `INSERT INTO paystate_client_tokens AS t (token_sha256, client_id, created_at) VALUES ($1, $2, now())
         ON CONFLICT (token_sha256) DO UPDATE SET client_id = EXCLUDED.client_id, expires_at = NULL`,
        [sha256(first), id],
      ),
    ).rejects.toMatchObject({ code: 'PSRT2' });
    await expect(
      db.pool.query(
        `UPDATE paystate_client_tokens SET expires_at = expires_at + interval '1 day' WHERE token_sha256 = $1`,
        [sha256(first)],
      ),
    ).rejects.toMatchObject({ code: 'PSRT2' });
    // A deletion by any statement retires the digest (here, version 9's purge, by hand).
    await db.pool.query(`DELETE FROM paystate_client_tokens WHERE token_sha256 = $1`, [sha256(next)]);
    expect(await expectErr(store.addToken({ clientId: id, token: next }))).toMatchObject({ code: 'token_retired' });
    expect(await expectOk(store.authenticate(revoked))).toBeNull();
  });

  it('of a revoke of a token and an add of it to another client at once, the token never works again', async () => {
    for (let round = 0; round < 8; round += 1) {
      const [a, b, contested] = [token('a'), token('b'), token('contested')];
      const { store } = await freshStore(a, b);
      await expectOk(store.addToken({ clientId: clientIdOf(a), token: contested }));
      const [revoked, added] = await Promise.all([
        store.revokeToken({ token: contested }),
        store.addToken({ clientId: clientIdOf(b), token: contested }),
      ]);
      expect(revoked._unsafeUnwrap()).toBe(true);
      expect(added._unsafeUnwrapErr().code).toMatch(/^token_(in_use|retired)$/);
      expect(await expectOk(store.authenticate(contested))).toBeNull();
    }
  });
});

describe('migration 10 (retired tokens)', () => {
  it('from version 9 with data, several instances at once: tokens keep working, retirement counts from then on', async () => {
    const schema = `s_${randomBytes(4).toString('hex')}`;
    await db.pool.query(`CREATE SCHEMA ${schema}`);
    const pools = Array.from({ length: 4 }, () => {
      const pool = new pg.Pool({ connectionString: db.connectionString, options: `-c search_path=${schema}`, max: 2 });
      pool.on('error', () => undefined);
      return pool;
    });
    const [pool] = pools as [pg.Pool, ...pg.Pool[]];
    try {
      await migrate(pool, { migrations: MIGRATIONS.filter((migration) => migration.version <= 9) });
      const [first, second, expired] = [token('first'), token('second'), token('expired')];
      const clock = createTestClock(T0);
      // What an instance of version 9 stores (the store of this version reads later columns).
      await pool.query(
        `INSERT INTO paystate_profiles (id, partner_id, name) VALUES ('profile_a1', 'partner_a', 'Shop A1')`,
      );
      for (const [value, holder, expiresAt] of [
        [first, first, null],
        [second, second, null],
        [expired, first, new Date(T0 + MINUTE).toISOString()],
      ] as const) {
        if (value === holder) {
          await pool.query(
            `INSERT INTO paystate_clients (id, partner_id, profile_ids, pci_dss_compliant)
             VALUES ($1, 'partner_a', ARRAY['profile_a1'], false)`,
            [clientIdOf(value)],
          );
        }
        await pool.query(
          `INSERT INTO paystate_client_tokens (token_sha256, client_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
          [sha256(value), clientIdOf(holder), new Date(T0).toISOString(), expiresAt],
        );
      }

      const reports = await Promise.all(pools.map((each) => migrate(each)));
      const applied = reports.map((report) => report._unsafeUnwrap().applied.map((migration) => migration.version));
      expect(applied.filter((versions) => versions.length > 0)).toEqual([
        MIGRATIONS.filter((migration) => migration.version >= 10).map((migration) => migration.version),
      ]);

      const store = createPostgresCredentialStore({ pool, clock });
      for (const [value, holder] of [
        [first, first],
        [expired, first],
        [second, second],
      ] as const) {
        expect(await idOf(store, value)).toBe(clientIdOf(holder));
      }
      clock.set(T0 + MINUTE);
      expect(await expectOk(store.authenticate(expired))).toBeNull();
      clock.set(T0);
      expect(await expectOk(store.authenticate(expired))).toBeNull();
      expect(await expectOk(store.revokeToken({ token: second }))).toBe(true);
      for (const value of [second, expired]) {
        expect(await expectErr(store.addToken({ clientId: clientIdOf(first), token: value }))).toMatchObject({
          code: 'token_retired',
        });
      }
      const { rows } = await pool.query<{ digest: string }>(
        `SELECT encode(token_sha256, 'hex') AS digest FROM paystate_retired_tokens ORDER BY 1`,
      );
      expect(rows.map((row) => row.digest)).toEqual(
        [sha256(second), sha256(expired)].map((d) => d.toString('hex')).sort(),
      );
      expect(await idOf(store, first)).toBe(clientIdOf(first));
      expect(await expectOk(store.listTokens(clientIdOf(first)))).toHaveLength(1);
    } finally {
      await Promise.all(pools.map((each) => each.end()));
      await db.pool.query(`DROP SCHEMA ${schema} CASCADE`);
    }
  });
});
