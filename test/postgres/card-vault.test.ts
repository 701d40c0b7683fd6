import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import {
  createPostgresAdapters,
  createPostgresCardVault,
  createPostgresIdempotencyStore,
  MIGRATIONS,
  migrate,
  type CardVaultKey,
} from '../../adapters/postgres/index.js';
import { cardVaultContract, VAULT_CARD } from '../contracts/card-vault.contract.js';
import { makeRecord, T0 } from '../contracts/fixtures.js';
import { expectErr, expectOk } from '../contracts/payment-repository.contract.js';
import { useMigratedDatabase } from './support/migrated-database.js';
import { insertAsBeforeMoney } from './support/version-14-rows.js';

const db = useMigratedDatabase();
const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

function secondPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: db.connectionString, max: 10 });
  pool.on('error', () => undefined);
  pools.push(pool);
  return pool;
}

const newKey = (id: string): CardVaultKey => ({ id, key: randomBytes(32) });
const K1 = newKey('k1');
const K2 = newKey('k2');

cardVaultContract('postgres (two pools: two instances)', () => {
  const clock = createTestClock(Date.now());
  const vault = createPostgresCardVault({ pool: db.pool, keys: [K1], clock });
  const other = createPostgresCardVault({ pool: secondPool(), keys: [K1], clock, preparedStatements: false });
  return Promise.resolve({ vault, other, clock });
});

describe('Postgres card vault: keys and what the table holds', () => {
  const clock = createTestClock(Date.now());
  let sequence = 0;
  const id = () => `payment_pg_vault_${(sequence += 1)}_${Date.now()}`;
  const row = async (paymentId: string) =>
    (
      await db.pool.query<{ key_id: string; text: string }>(
        'SELECT key_id, t::text AS text FROM paystate_card_vault t WHERE payment_id = $1',
        [paymentId],
      )
    ).rows[0];

  it('stores neither the card number nor the CVC nor the key in clear', async () => {
    const vault = createPostgresCardVault({ pool: db.pool, keys: [K1], clock });
    const paymentId = id();
    (await vault.put(paymentId, VAULT_CARD, clock.now() + 60_000))._unsafeUnwrap();
    const stored = await row(paymentId);
    expect(stored?.key_id).toBe('k1');
    for (const forbidden of [
      VAULT_CARD.number,
      Buffer.from(VAULT_CARD.number).toString('hex'),
      '"cvc"',
      Buffer.from('"cvc"').toString('hex'),
      Buffer.from(K1.key).toString('hex'),
      Buffer.from(K1.key).toString('base64'),
      'Lovelace',
    ]) {
      expect(stored?.text).not.toContain(forbidden);
    }
  });

  it('seals new cards under the newest key and opens older ones while their key is in the ring', async () => {
    const before = createPostgresCardVault({ pool: db.pool, keys: [K1], clock });
    const rotated = createPostgresCardVault({ pool: secondPool(), keys: [K1, K2], clock });
    const old = id();
    const young = id();
    (await before.put(old, VAULT_CARD, clock.now() + 60_000))._unsafeUnwrap();
    (await rotated.put(young, VAULT_CARD, clock.now() + 60_000))._unsafeUnwrap();
    expect((await row(young))?.key_id).toBe('k2');
    expect((await rotated.take(old))._unsafeUnwrap()).toEqual(VAULT_CARD);
    expect((await rotated.take(young))._unsafeUnwrap()).toEqual(VAULT_CARD);
  });

  it('leaves a card under a key the ring lacks where it is, and says which key', async () => {
    const rotated = createPostgresCardVault({ pool: db.pool, keys: [K1, K2], clock });
    const behind = createPostgresCardVault({ pool: db.pool, keys: [K1], clock });
    const paymentId = id();
    (await rotated.put(paymentId, VAULT_CARD, clock.now() + 60_000))._unsafeUnwrap();
    const refused = (await behind.take(paymentId))._unsafeUnwrapErr();
    expect(refused).toMatchObject({ code: 'unavailable', retryable: false });
    expect(refused.message).toContain('k2');
    expect((await rotated.take(paymentId))._unsafeUnwrap()).toEqual(VAULT_CARD);
  });

  it('refuses a card that does not authenticate: another key under the same id, a tampered byte, another payment', async () => {
    const vault = createPostgresCardVault({ pool: db.pool, keys: [K1], clock });
    const impostor = createPostgresCardVault({ pool: db.pool, keys: [newKey('k1')], clock });
    const wrongKey = id();
    (await vault.put(wrongKey, VAULT_CARD, clock.now() + 60_000))._unsafeUnwrap();
    const refused = (await impostor.take(wrongKey))._unsafeUnwrapErr();
    expect(refused).toMatchObject({ code: 'unavailable', retryable: false });

    const tampered = id();
    (await vault.put(tampered, VAULT_CARD, clock.now() + 60_000))._unsafeUnwrap();
    await db.pool.query(
      `UPDATE paystate_card_vault SET sealed = overlay(sealed PLACING decode(lpad(to_hex(get_byte(sealed, 3) # 1), 2, '0'), 'hex') FROM 4 FOR 1)
       WHERE payment_id = $1`,
      [tampered],
    );
    const broken = (await vault.take(tampered))._unsafeUnwrapErr();
    expect(broken.retryable).toBe(false);

    const moved = id();
    const target = id();
    (await vault.put(moved, VAULT_CARD, clock.now() + 60_000))._unsafeUnwrap();
    (await vault.put(target, { ...VAULT_CARD, number: '4242424242424242' }, clock.now() + 60_000))._unsafeUnwrap();
    // The sealed card of one payment copied onto another's row: bound to its payment id, it does not open there.
    await db.pool.query(
      `UPDATE paystate_card_vault t SET iv = s.iv, sealed = s.sealed, tag = s.tag
       FROM paystate_card_vault s WHERE s.payment_id = $1 AND t.payment_id = $2`,
      [moved, target],
    );
    expect((await vault.take(target)).isErr()).toBe(true);

    for (const error of [refused, broken]) {
      expect(error.message).not.toContain(VAULT_CARD.number);
      expect(error.message).not.toContain(VAULT_CARD.cvc);
    }
  });

  it('refuses a bad key ring at once, naming no key material', () => {
    const short = randomBytes(16);
    expect(() => createPostgresCardVault({ pool: db.pool, keys: [], clock })).toThrow(/at least one key/);
    expect(() => createPostgresCardVault({ pool: db.pool, keys: [{ id: 'k', key: short }], clock })).toThrow(
      /key k must be 32 bytes/,
    );
    expect(() => createPostgresCardVault({ pool: db.pool, keys: [K1, K1], clock })).toThrow(/k1 is given twice/);
  });
});

describe('Postgres card vault: deadlines, bad input and an unreachable server', () => {
  const clock = createTestClock(Date.now());
  const UNREACHABLE = 'postgres://nobody:secret@127.0.0.1:1/nothing';
  const count = async (paymentId: string) =>
    (await db.pool.query('SELECT 1 FROM paystate_card_vault WHERE payment_id = $1', [paymentId])).rowCount;

  it('deletes a card taken at its deadline without giving it back', async () => {
    const vault = createPostgresCardVault({ pool: db.pool, keys: [K1], clock });
    const paymentId = `payment_pg_vault_due_${Date.now()}`;
    (await vault.put(paymentId, VAULT_CARD, clock.now() + 1_000))._unsafeUnwrap();
    clock.advance(1_000);
    expect(await expectOk(vault.take(paymentId))).toBeNull();
    expect(await count(paymentId)).toBe(0);
  });

  it('answers a deadline or a now that Date cannot hold with an error, storing nothing', async () => {
    const vault = createPostgresCardVault({ pool: db.pool, keys: [K1], clock });
    const paymentId = `payment_pg_vault_bad_time_${Date.now()}`;
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 1e20]) {
      expect(await expectErr(vault.put(paymentId, VAULT_CARD, bad))).toMatchObject({ code: 'unavailable' });
      expect(await expectErr(vault.purgeExpired(bad))).toMatchObject({ code: 'unavailable' });
    }
    expect(await count(paymentId)).toBe(0);
  });

  it('answers unavailable and retryable when the server cannot be reached, with no card or password', async () => {
    const vault = createPostgresCardVault({
      connectionString: UNREACHABLE,
      poolOptions: { connectionTimeoutMs: 1_000 },
      keys: [K1],
      clock,
    });
    try {
      const errors = [
        await expectErr(vault.put('payment_unreachable', VAULT_CARD, clock.now() + 60_000)),
        await expectErr(vault.take('payment_unreachable')),
        await expectErr(vault.purgeExpired(clock.now())),
      ];
      for (const error of errors) {
        expect(error).toMatchObject({ code: 'unavailable', retryable: true, notSent: true });
        for (const secret of ['secret', VAULT_CARD.number, VAULT_CARD.cvc]) expect(error.message).not.toContain(secret);
      }
    } finally {
      await vault.close();
    }
  });

  it('refuses a bad key ring before it connects, naming no key material', async () => {
    const short = randomBytes(31);
    const asText = 'k'.repeat(32);
    for (const [keys, pattern] of [
      [[{ id: 'k', key: short }], /key k must be 32 bytes/],
      [[{ id: 'k', key: asText as unknown as Uint8Array }], /key k must be 32 bytes/],
      [[{ id: '', key: randomBytes(32) }], /key 0 needs an id/],
    ] as const) {
      let message = '';
      try {
        createPostgresCardVault({ connectionString: UNREACHABLE, keys, clock });
      } catch (error) {
        expect(error).toBeInstanceOf(RangeError);
        message = (error as Error).message;
      }
      expect(message).toMatch(pattern);
      for (const material of [short.toString('hex'), short.toString('base64'), asText]) {
        expect(message).not.toContain(material);
      }
    }
    // The adapters check the ring before migrating: a RangeError, not a connection failure.
    await expect(
      createPostgresAdapters({ connectionString: UNREACHABLE, cardVaultKeys: [{ id: 'k', key: short }] }),
    ).rejects.toThrow(RangeError);
  });
});

describe('migration 11 (card vault)', () => {
  it('from version 10 with data, several instances at once: the data stays, the vault works', async () => {
    const schema = `s_${randomBytes(4).toString('hex')}`;
    await db.pool.query(`CREATE SCHEMA ${schema}`);
    const instances = Array.from({ length: 4 }, () => {
      const pool = new pg.Pool({ connectionString: db.connectionString, options: `-c search_path=${schema}`, max: 2 });
      pool.on('error', () => undefined);
      return pool;
    });
    const [pool] = instances as [pg.Pool, ...pg.Pool[]];
    try {
      await migrate(pool, { migrations: MIGRATIONS.filter((migration) => migration.version <= 10) });
      const record = makeRecord();
      // As a release of version 10 wrote it: the columns before the money counters of migration 15.
      await insertAsBeforeMoney(pool, record);
      const idempotency = createPostgresIdempotencyStore({ pool });
      const keyRef = { clientId: 'client_a', key: 'key-1', fingerprint: 'f', now: T0, ttlMs: 60_000 };
      await expectOk(idempotency.begin(keyRef));

      const reports = await Promise.all(instances.map((each) => migrate(each)));
      const applied = reports.map((report) => report._unsafeUnwrap().applied.map((migration) => migration.version));
      expect(applied.filter((versions) => versions.length > 0)).toEqual([
        MIGRATIONS.filter((migration) => migration.version >= 11).map((migration) => migration.version),
      ]);

      expect((await pool.query('SELECT id FROM paystate_payments')).rows).toEqual([{ id: record.id }]);
      expect((await pool.query('SELECT key FROM paystate_idempotency_keys')).rows).toEqual([{ key: 'key-1' }]);
      const { rows: indexes } = await pool.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'paystate_card_vault'`,
        [schema],
      );
      expect(indexes.some((index) => /\(expires_at\)/.test(index.indexdef))).toBe(true);
      const clock = createTestClock(Date.now());
      const vault = createPostgresCardVault({ pool, keys: [K1], clock });
      const other = createPostgresCardVault({ pool: instances[1] as pg.Pool, keys: [K1], clock });
      await expectOk(vault.put(record.id, VAULT_CARD, clock.now() + 60_000));
      expect(await expectOk(other.take(record.id))).toEqual(VAULT_CARD);
    } finally {
      await Promise.all(instances.map((each) => each.end()));
      await db.pool.query(`DROP SCHEMA ${schema} CASCADE`);
    }
  });
});
