import { createHash, randomBytes } from 'node:crypto';
import type { Result } from 'neverthrow';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createMemoryCredentialStore, createTestClock } from '../../adapters/memory/index.js';
import {
  createPostgresAdapters,
  createPostgresCredentialStore,
  MIGRATIONS,
  migrate,
  type PostgresCredentialStore,
} from '../../adapters/postgres/index.js';
import { credentialStoreContract } from '../contracts/credential-store.contract.js';
import { T0 } from '../contracts/fixtures.js';
import { expectErr, expectOk } from '../contracts/payment-repository.contract.js';
import { useMigratedDatabase } from './support/migrated-database.js';
import { clientIdOf, configWith, token } from './support/credential-fixtures.js';

const db = useMigratedDatabase();
const DAY = 24 * 60 * 60 * 1000;

/** Every stored value of the credential tables, one row as JSON per line (bytea as `\x` + hex). */
async function storedRows(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ text: string }>(`
    SELECT coalesce(string_agg(row, E'\\n'), '') AS text FROM (
      SELECT row_to_json(c)::text AS row FROM paystate_clients c
      UNION ALL SELECT row_to_json(t)::text FROM paystate_client_tokens t
      UNION ALL SELECT row_to_json(p)::text FROM paystate_profiles p
      UNION ALL SELECT row_to_json(r)::text FROM paystate_retired_tokens r
    ) AS stored`);
  return rows[0]?.text ?? '';
}

for (const preparedStatements of [true, false]) {
  credentialStoreContract(`postgres${preparedStatements ? '' : ', unprepared statements'}`, async (config) => {
    const clock = createTestClock(T0);
    const store = createPostgresCredentialStore({ pool: db.pool, clock, preparedStatements });
    await expectOk(store.importConfig(config));
    return { store, clock, stored: () => storedRows(db.pool), close: async () => undefined };
  });
}

async function freshStore(
  ...tokens: string[]
): Promise<{ store: PostgresCredentialStore; clock: ReturnType<typeof createTestClock> }> {
  const clock = createTestClock(T0);
  const store = createPostgresCredentialStore({ pool: db.pool, clock });
  await expectOk(store.importConfig(configWith(...tokens)));
  return { store, clock };
}

describe('postgres credential store: token rows', () => {
  it('keeps one row per token, the digest and the times as the store’s clock gave them', async () => {
    const [first, second] = [token('first'), token('second')];
    const { store, clock } = await freshStore(first);
    clock.advance(1234);
    await expectOk(store.rollToken({ old: { token: first }, token: second, overlapMs: 60_000 }));
    const { rows } = await db.pool.query<{
      digest: string;
      client_id: string;
      created_at: Date;
      expires_at: Date | null;
    }>(
      `SELECT encode(token_sha256, 'hex') AS digest, client_id, created_at, expires_at
       FROM paystate_client_tokens ORDER BY created_at, token_sha256`,
    );
    const sha = (value: string) => createHash('sha256').update(value).digest('hex');
    expect(rows).toEqual([
      { digest: sha(first), client_id: clientIdOf(first), created_at: new Date(T0), expires_at: new Date(T0 + 61_234) },
      { digest: sha(second), client_id: clientIdOf(first), created_at: new Date(T0 + 1234), expires_at: null },
    ]);
    const { rows: columns } = await db.pool.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'paystate_clients' ORDER BY column_name`,
    );
    expect(columns.map((column) => column.column_name)).toEqual([
      'created_at',
      'id',
      'partner_id',
      'pci_dss_compliant',
      'profile_ids',
    ]);
  });

  it('gives one new token to at most one of two clients adding it at once', async () => {
    const [a, b, contested] = [token('a'), token('b'), token('contested')];
    const { store } = await freshStore(a, b);
    const results = await Promise.all(
      [a, b].map((holder) => store.addToken({ clientId: clientIdOf(holder), token: contested })),
    );
    expect(results.filter((result) => result.isOk())).toHaveLength(1);
    expect(results.find((result) => result.isErr())?._unsafeUnwrapErr()).toMatchObject({ code: 'token_in_use' });
    const owner = (await expectOk(store.authenticate(contested)))?.id;
    expect([clientIdOf(a), clientIdOf(b)]).toContain(owner);
  });

  it('of a revoke and a roll of one client’s last token at once, the client never ends without a working token', async () => {
    for (let round = 0; round < 5; round += 1) {
      const [old, next] = [token('old'), token('next')];
      const { store } = await freshStore(old);
      const [revoked, rolled] = await Promise.all([
        store.revokeToken({ token: old }),
        store.rollToken({ old: { token: old }, token: next }),
      ]);
      const listing = await expectOk(store.listTokens(clientIdOf(old)));
      if (rolled.isOk()) {
        // The roll came first: the revoke took the old token only, the client keeps the new one.
        expect(revoked._unsafeUnwrap()).toBe(true);
        expect(listing).toStrictEqual([rolled.value.added]);
      } else {
        // The revoke came first and took the client with it.
        expect(rolled.error.code).toBe('unknown_token');
        expect(listing).toBeNull();
      }
    }
  });

  // A roll in progress is no longer undone by a re-import (it is refused: retired-tokens.test.ts).
  it('a re-import makes the tokens exactly the config’s: tokens added since stop working, for good', async () => {
    const [first, added, also] = [token('first'), token('added'), token('also')];
    const { store, clock } = await freshStore(first);
    const id = clientIdOf(first);
    const tokenId = (await expectOk(store.authenticate(first)))?.tokenId;
    await expectOk(store.addToken({ clientId: id, token: added }));
    await expectOk(store.addToken({ clientId: id, token: also, expiresAt: T0 + DAY }));
    clock.advance(1000);
    expect(await expectOk(store.importConfig(configWith(first)))).toEqual({ profiles: 1, clients: 1 });
    expect(await expectOk(store.authenticate(added))).toBeNull();
    expect(await expectOk(store.authenticate(also))).toBeNull();
    expect(await expectOk(store.listTokens(id))).toStrictEqual([{ tokenId, createdAt: T0, expiresAt: null }]);
    expect(await expectErr(store.addToken({ clientId: id, token: added }))).toMatchObject({ code: 'token_retired' });
    clock.advance(DAY);
    expect((await expectOk(store.authenticate(first)))?.id).toBe(id);
  });

  it('answers the same as the memory store for the same config and operations', async () => {
    const [first, second] = [token('first'), token('second')];
    const { store, clock } = await freshStore(first);
    const memoryClock = createTestClock(T0);
    const memory = createMemoryCredentialStore(configWith(first), { clock: memoryClock });
    for (const each of [store, memory]) {
      await expectOk(each.rollToken({ old: { token: first }, token: second, overlapMs: 5000 }));
    }
    // The same but for the tokens' ids, which each store makes at random.
    const withoutTokenIds = <T extends { readonly tokenId?: string }>(values: readonly T[] | null) =>
      values?.map(({ tokenId, ...rest }) => {
        expect(tokenId).toMatch(/^[0-9a-f]{16}$/);
        return rest;
      }) ?? null;
    for (const at of [T0, T0 + 4999, T0 + 5000]) {
      clock.set(at);
      memoryClock.set(at);
      for (const presented of [first, second]) {
        const fromPostgres = await expectOk(store.authenticate(presented));
        const fromMemory = await expectOk(memory.authenticate(presented));
        expect(fromPostgres === null ? null : withoutTokenIds([fromPostgres])).toStrictEqual(
          fromMemory === null ? null : withoutTokenIds([fromMemory]),
        );
      }
      expect(withoutTokenIds(await expectOk(store.listTokens(clientIdOf(first))))).toStrictEqual(
        withoutTokenIds(await expectOk(memory.listTokens(clientIdOf(first)))),
      );
    }
  });

  it('answers unavailable, retryable, when the server cannot be reached', async () => {
    const store = createPostgresCredentialStore({
      connectionString: 'postgres://nobody:secret@127.0.0.1:1/nothing',
      poolOptions: { connectionTimeoutMs: 1_000 },
    });
    const secret = token('secret');
    const calls: (() => Promise<Result<unknown, { readonly code: string; readonly message: string }>>)[] = [
      async () => store.addToken({ clientId: 'client_x', token: secret }),
      async () => store.rollToken({ old: { token: secret }, token: token('next') }),
      async () => store.revokeToken({ token: secret }),
      async () => store.listTokens('client_x'),
      async () => store.putClient({ token: secret, partnerId: 'partner_a', profileIds: [], pciDssCompliant: false }),
    ];
    for (const call of calls) {
      const error = await expectErr(call());
      expect(error).toMatchObject({ code: 'unavailable', retryable: true });
      expect(error.message).not.toContain(secret);
    }
    await store.close();
  });
});

describe('migration 9 (client tokens)', () => {
  /** A pool on a new, empty schema of the test database. */
  async function emptySchema(count: number): Promise<pg.Pool[]> {
    const schema = `s_${randomBytes(4).toString('hex')}`;
    await db.pool.query(`CREATE SCHEMA ${schema}`);
    return Array.from({ length: count }, () => {
      const pool = new pg.Pool({ connectionString: db.connectionString, options: `-c search_path=${schema}`, max: 2 });
      pool.on('error', () => undefined);
      return pool;
    });
  }

  it('moves every token to its own table: tokens stored before keep working, with the same client ids', async () => {
    const pools = await emptySchema(4);
    const [pool] = pools as [pg.Pool, ...pg.Pool[]];
    try {
      await migrate(pool, { migrations: MIGRATIONS.filter((migration) => migration.version <= 8) });
      const [first, second] = [token('first'), token('second')];
      const config = configWith(first, second);
      await pool.query(
        `INSERT INTO paystate_profiles (id, partner_id, name) VALUES ('profile_a1', 'partner_a', 'Shop A1')`,
      );
      for (const [index, value] of [first, second].entries()) {
        await pool.query(
          `INSERT INTO paystate_clients (id, token_sha256, partner_id, profile_ids, pci_dss_compliant, created_at)
           VALUES ($1, $2, 'partner_a', ARRAY['profile_a1'], false, $3)`,
          [
            clientIdOf(value),
            createHash('sha256').update(value).digest(),
            new Date(T0 - (index + 1) * DAY).toISOString(),
          ],
        );
      }
      // Several instances migrating at once: one applies migration 9, the others find it done.
      const throughNine = MIGRATIONS.filter((migration) => migration.version <= 9);
      const reports = await Promise.all(pools.map((each) => migrate(each, { migrations: throughNine })));
      const applied = reports.map((report) => report._unsafeUnwrap().applied.map((migration) => migration.version));
      expect(applied.filter((versions) => versions.length > 0)).toEqual([[9]]);
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM information_schema.columns
         WHERE table_schema = current_schema() AND column_name = 'token_sha256'`,
      );
      expect(rows[0]?.n).toBe(1);
      // The store of this version reads what later migrations add.
      await migrate(pool);

      const clock = createTestClock(T0);
      const store = createPostgresCredentialStore({ pool, clock });
      const memory = createMemoryCredentialStore(config);
      for (const value of [first, second]) {
        const { tokenId, ...client } = (await expectOk(store.authenticate(value)))!;
        expect({ ...client, tokenId }).toStrictEqual({ ...(await expectOk(memory.authenticate(value))), tokenId });
        expect(client.id).toBe(clientIdOf(value));
      }
      expect(await expectOk(store.listTokens(clientIdOf(second)))).toStrictEqual([
        { tokenId: expect.stringMatching(/^[0-9a-f]{16}$/), createdAt: T0 - 2 * DAY, expiresAt: null },
      ]);
      // Deleting a client deletes its tokens.
      expect(await expectOk(store.removeClient(first))).toBe(true);
      const { rows: left } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM paystate_client_tokens`);
      expect(left[0]?.n).toBe(1);
    } finally {
      await Promise.all(pools.map((each) => each.end()));
    }
  });
});

describe('createPostgresAdapters: the credential store judges expiry by the clock it is given', () => {
  it('a token expires by the adapters’ clock, not the system time', async () => {
    const clock = createTestClock(T0);
    const adapters = await createPostgresAdapters({ pool: db.pool, migrate: false, clock });
    const first = token('first');
    const extra = token('extra');
    await expectOk(adapters.credentials.importConfig(configWith(first)));
    // T0 is long past by the system time: only a store on this clock takes an expiry a day after it.
    await expectOk(adapters.credentials.addToken({ clientId: clientIdOf(first), token: extra, expiresAt: T0 + DAY }));
    expect((await expectOk(adapters.credentials.authenticate(extra)))?.id).toBe(clientIdOf(first));
    clock.advance(DAY);
    expect(await expectOk(adapters.credentials.authenticate(extra))).toBeNull();
  });
});
