import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../adapters/http/index.js';
import { createPostgresCredentialStore, MIGRATIONS, migrate } from '../../adapters/postgres/index.js';
import { expectOk } from '../contracts/payment-repository.contract.js';
import { CONFIG, makeApi, TOKENS } from '../http/support/api-harness.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';
import { clientIdOf, configWith, token } from './support/credential-fixtures.js';

/*
 * Found by a security review: a token's id (in listings, `paystate tokens --token-id`, and the
 * request log's `tokenId`) was the first 16 hex digits of its unsalted SHA-256, so a weak token was
 * one lookup away from anyone reading the log. It is now random, stored with the token (migration 14).
 */

const db = useMigratedDatabase();

const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** A pool of its own on the test database: another instance. */
function anotherInstance(): pg.Pool {
  const pool = new pg.Pool({ connectionString: db.connectionString, max: 2 });
  pool.on('error', () => undefined);
  return pool;
}

describe("a token's id on Postgres", () => {
  it('is random, the same for every instance and after a restart, kept by a re-import', async () => {
    await resetTables(db.pool);
    const first = token('first');
    const store = createPostgresCredentialStore({ pool: db.pool });
    await expectOk(store.importConfig(configWith(first)));
    const tokenId = (await expectOk(store.authenticate(first)))?.tokenId;
    expect(tokenId).toMatch(/^[0-9a-f]{16}$/);
    expect(sha256Hex(first)).not.toContain(tokenId);

    const pool = anotherInstance();
    try {
      const other = createPostgresCredentialStore({ pool, preparedStatements: false });
      expect((await expectOk(other.authenticate(first)))?.tokenId).toBe(tokenId);
      expect(await expectOk(other.listTokens(clientIdOf(first)))).toEqual([expect.objectContaining({ tokenId })]);
      await expectOk(other.importConfig(configWith(first)));
      expect((await expectOk(createPostgresCredentialStore({ pool: db.pool }).authenticate(first)))?.tokenId).toBe(
        tokenId,
      );
    } finally {
      await pool.end();
    }

    // The same token stored afresh gets another id: nothing of it comes from the token.
    await resetTables(db.pool);
    await expectOk(store.importConfig(configWith(first)));
    const again = (await expectOk(store.authenticate(first)))?.tokenId;
    expect(again).toMatch(/^[0-9a-f]{16}$/);
    expect(again).not.toBe(tokenId);
  });

  it('on the request log: the same on every request to either of two instances, nothing of the token', async () => {
    await resetTables(db.pool);
    await expectOk(createPostgresCredentialStore({ pool: db.pool }).importConfig(CONFIG));
    const pool = anotherInstance();
    try {
      const apis = [makeApi(), makeApi()];
      const handlers = [db.pool, pool].map((each, index) =>
        createFetchHandler({
          ...apis[index]!.handlerOptions,
          credentials: createPostgresCredentialStore({ pool: each }),
        }),
      );
      for (let round = 0; round < 4; round++) {
        const answer = await handlers[round % 2]!(
          new Request('http://paystate.test/v1/profiles/profile_alpha_main/payments', {
            headers: { authorization: `Bearer ${TOKENS.alphaCompliant}` },
          }),
        );
        expect(answer.status).toBe(200);
      }
      const lines = apis.flatMap((api) => api.logs.filter((line) => line.message === 'http request'));
      const store = createPostgresCredentialStore({ pool: db.pool });
      const client = await expectOk(store.authenticate(TOKENS.alphaCompliant));
      const listed = await expectOk(store.listTokens(client!.id));
      expect(lines.map((line) => line.fields['tokenId'])).toEqual(Array(4).fill(listed![0]!.tokenId));
      expect(sha256Hex(TOKENS.alphaCompliant)).not.toContain(listed![0]!.tokenId);
      expect(JSON.stringify(lines)).not.toContain(TOKENS.alphaCompliant);
    } finally {
      await pool.end();
    }
  });
});

describe('migration 14 (token ids)', () => {
  it('gives every token stored before an id of its own, and one stored by an earlier version as well', async () => {
    const schema = `s_${randomBytes(4).toString('hex')}`;
    await db.pool.query(`CREATE SCHEMA ${schema}`);
    const pool = new pg.Pool({ connectionString: db.connectionString, options: `-c search_path=${schema}`, max: 2 });
    pool.on('error', () => undefined);
    try {
      await migrate(pool, { migrations: MIGRATIONS.filter((migration) => migration.version < 14) });
      const [first, second] = [token('first'), token('second')];
      await expectOk(createPostgresCredentialStore({ pool }).importConfig(configWith(first, second)));
      const applied = (await migrate(pool))._unsafeUnwrap().applied.map((migration) => migration.version);
      expect(applied).toContain(14);
      // What an instance of an earlier version stores, knowing nothing of the column.
      const fourth = token('fourth');
      await pool.query(
        `INSERT INTO paystate_client_tokens (token_sha256, client_id, created_at) VALUES ($1, $2, now())`,
        [createHash('sha256').update(fourth).digest(), clientIdOf(first)],
      );

      const store = createPostgresCredentialStore({ pool });
      const ids = [];
      for (const value of [first, second, fourth]) {
        const tokenId = (await expectOk(store.authenticate(value)))?.tokenId;
        expect(tokenId).toMatch(/^[0-9a-f]{16}$/);
        expect(sha256Hex(value)).not.toContain(tokenId);
        ids.push(tokenId);
      }
      expect(new Set(ids).size).toBe(3);
      const listed = await expectOk(store.listTokens(clientIdOf(first)));
      expect(listed?.map((each) => each.tokenId).sort()).toEqual([ids[0], ids[2]].sort());
      expect(await expectOk(store.revokeToken({ clientId: clientIdOf(first), tokenId: ids[2]! }))).toBe(true);
      expect(await expectOk(store.authenticate(fourth))).toBeNull();
    } finally {
      await pool.end();
      await db.pool.query(`DROP SCHEMA ${schema} CASCADE`);
    }
  });
});
