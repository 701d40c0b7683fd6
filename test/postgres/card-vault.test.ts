import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import { createPostgresCardVault, type CardVaultKey } from '../../adapters/postgres/index.js';
import { cardVaultContract, VAULT_CARD } from '../contracts/card-vault.contract.js';
import { useMigratedDatabase } from './support/migrated-database.js';

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
