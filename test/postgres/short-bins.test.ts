import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPostgresPaymentRepository, MIGRATIONS, migrate } from '../../adapters/postgres/index.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import { makeSucceededRecord } from '../contracts/fixtures.js';
import { expectErr, expectOk } from '../contracts/payment-repository.contract.js';
import { useMigratedDatabase } from './support/migrated-database.js';
import { insertAsBeforeMoney } from './support/version-14-rows.js';

const db = useMigratedDatabase();

/** A succeeded payment whose card summary keeps this BIN (a 12-digit Maestro's is 2 digits: `binOf`). */
const withBin = (bin: string): PaymentRecord =>
  makeSucceededRecord({ card: { ...makeSucceededRecord().card!, scheme: 'maestro', bin, last4: '3454' } });

/** Runs `body` on pools in a new, empty schema, dropped afterwards. */
async function inNewSchema(count: number, body: (pools: [pg.Pool, ...pg.Pool[]]) => Promise<void>): Promise<void> {
  const schema = `s_${randomBytes(4).toString('hex')}`;
  await db.pool.query(`CREATE SCHEMA ${schema}`);
  const pools = Array.from({ length: count }, () => {
    const pool = new pg.Pool({ connectionString: db.connectionString, options: `-c search_path=${schema}`, max: 2 });
    pool.on('error', () => undefined);
    return pool;
  }) as [pg.Pool, ...pg.Pool[]];
  try {
    await body(pools);
  } finally {
    await Promise.all(pools.map((pool) => pool.end()));
    await db.pool.query(`DROP SCHEMA ${schema} CASCADE`);
  }
}

/** Found by an outside security review: a card number under 16 digits keeps a BIN of 2 to 5 digits. */
describe('migration 13 (short BINs)', () => {
  it('takes the short BIN of every card length under 16 and still refuses a whole card number', async () => {
    const repository = createPostgresPaymentRepository({ pool: db.pool });
    for (const bin of ['50', '422', '3622', '37828', '378282', '42424242']) {
      const record = withBin(bin);
      await expectOk(repository.insert(record, []));
      expect((await expectOk(repository.load(record.id)))?.card?.bin).toBe(bin);
    }
    for (const bin of ['5', '424242424', '500000123454', '50a']) {
      const error = await expectErr(repository.insert(withBin(bin), []));
      expect(error.message).toContain('23514');
      expect(error.message).not.toContain('500000123454');
    }
    await repository.close();
  });

  it('from version 12 with data, several instances at once: stored rows stay as they are, short BINs are taken', async () => {
    await inNewSchema(4, async (instances) => {
      const [pool] = instances;
      await migrate(pool, { migrations: MIGRATIONS.filter((migration) => migration.version <= 12) });
      const old = [withBin('500000'), withBin('42424242')];
      // As version 12 wrote them: without the money columns of migration 15.
      for (const record of old) await insertAsBeforeMoney(pool, record);
      // Version 12 refuses the short BIN: what migration 13 is for.
      await expect(insertAsBeforeMoney(pool, withBin('50'))).rejects.toMatchObject({ code: '23514' });

      const reports = await Promise.all(instances.map((each) => migrate(each)));
      const applied = reports.map((report) => report._unsafeUnwrap().applied.map((migration) => migration.version));
      expect(applied.filter((versions) => versions.length > 0)).toEqual([
        MIGRATIONS.filter((migration) => migration.version >= 13).map((migration) => migration.version),
      ]);

      const after = createPostgresPaymentRepository({ pool: instances[1] as pg.Pool });
      // Succeeded sales: migration 15 counts their whole amount captured.
      for (const record of old) {
        expect(await expectOk(after.load(record.id))).toStrictEqual({
          ...record,
          captureReserved: record.amount,
          amountCaptured: record.amount,
        });
      }
      const short = withBin('50');
      await expectOk(after.insert(short, []));
      expect((await expectOk(after.load(short.id)))?.card?.bin).toBe('50');
      expect((await expectErr(after.insert(withBin('424242424'), []))).message).toContain('23514');
      await after.close();

      // One BIN check, the new one.
      const { rows } = await pool.query<{ definition: string }>(
        `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint
         WHERE conrelid = 'paystate_payments'::regclass AND conname LIKE '%card_bin%'`,
      );
      expect(rows.map((row) => row.definition)).toEqual([expect.stringContaining('{2,8}')]);
    });
  });
});
