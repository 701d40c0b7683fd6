/**
 * The Postgres card vault's cost: one put and one take (seal, upsert; delete-returning, open)
 * beside the same two statements with `pg` alone on a row of the same size, one client, in
 * alternating batches on one database. Run by `postgres-bench.ts` (`npm run bench`), or alone
 * on an embedded server (or `DATABASE_URL`): `npx tsx bench/card-vault-bench.ts [pairs]`.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createPostgresCardVault, migrate } from '../adapters/postgres/index.js';
import { sealCard } from '../adapters/postgres/card-vault-cipher.js';
import type { CardData } from '../src/index.js';
import { startTestDatabase } from '../test/postgres/support/embedded-postgres.js';

/** Microseconds per put + take, with the vault and with `pg` alone, and their ratio. */
export interface CardVaultFigures {
  readonly pairs: number;
  readonly vaultUs: number;
  readonly plainUs: number;
  readonly ratio: number;
}

const CARD: CardData = {
  number: '4000000000003220',
  cvc: '737',
  expiration: '2030-12-01T00:00:00.000Z',
  holderName: 'Ada Lovelace',
  scheme: 'visa',
};

const PLAIN_PUT = {
  name: 'bench_plain_put',
  text: `INSERT INTO paystate_bench_plain_vault (payment_id, key_id, iv, sealed, tag, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (payment_id) DO UPDATE SET key_id = excluded.key_id, iv = excluded.iv,
           sealed = excluded.sealed, tag = excluded.tag, expires_at = excluded.expires_at`,
};
const PLAIN_TAKE = {
  name: 'bench_plain_take',
  text: `DELETE FROM paystate_bench_plain_vault WHERE payment_id = $1 AND key_id = ANY($2::text[])
         RETURNING key_id, iv, sealed, tag, (extract(epoch FROM expires_at) * 1000)::int8 AS expires_at`,
};

/** `pairs` put + take pairs each way (rounded up to batches of 250), alternating batches, on a migrated database. */
export async function runCardVaultBench(connectionString: string, pairs = 4_000): Promise<CardVaultFigures> {
  const pool = new pg.Pool({ connectionString, max: 1, idleTimeoutMillis: 0 });
  pool.on('error', () => undefined);
  try {
    await pool.query('CREATE TABLE IF NOT EXISTS paystate_bench_plain_vault (LIKE paystate_card_vault INCLUDING ALL)');
    const key = { id: 'bench', key: randomBytes(32) };
    const vault = createPostgresCardVault({ pool, keys: [key], clock: { now: () => Date.now() } });
    // Bytes of the same sizes as a sealed card, sent and read back without cryptography.
    const sample = sealCard('payment_bench', CARD, key);
    const deadline = new Date(Date.now() + 600_000).toISOString();
    let sequence = 0;
    const viaVault = async () => {
      const id = `payment_bench_${(sequence += 1)}`;
      (await vault.put(id, CARD, Date.now() + 600_000))._unsafeUnwrap();
      if ((await vault.take(id))._unsafeUnwrap() === null) throw new Error('vault lost a card');
    };
    const viaPg = async () => {
      const id = `payment_bench_${(sequence += 1)}`;
      await pool.query({ ...PLAIN_PUT, values: [id, 'bench', sample.iv, sample.sealed, sample.tag, deadline] });
      if ((await pool.query({ ...PLAIN_TAKE, values: [id, ['bench']] })).rowCount !== 1) throw new Error('lost a row');
    };
    for (let i = 0; i < 200; i++) {
      await viaVault();
      await viaPg();
    }
    const spent = { vault: 0, plain: 0 };
    const batch = 250;
    for (let done = 0; done < pairs; done += batch) {
      for (const [name, one] of [
        ['vault', viaVault],
        ['plain', viaPg],
      ] as const) {
        const started = performance.now();
        for (let i = 0; i < batch; i++) await one();
        spent[name] += performance.now() - started;
      }
    }
    const measured = Math.ceil(pairs / batch) * batch;
    const vaultUs = (spent.vault * 1000) / measured;
    const plainUs = (spent.plain * 1000) / measured;
    return { pairs: measured, vaultUs, plainUs, ratio: vaultUs / plainUs };
  } finally {
    await pool.query('DROP TABLE IF EXISTS paystate_bench_plain_vault');
    await pool.end();
  }
}

export function printCardVaultBench(f: CardVaultFigures): void {
  console.log(
    `(d) card vault put + take, one client: ${f.vaultUs.toFixed(0)} µs; same statements with pg alone: ` +
      `${f.plainUs.toFixed(0)} µs; ratio ${f.ratio.toFixed(2)} (${f.pairs.toLocaleString('en-US')} pairs each)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const database = await startTestDatabase({ durable: true });
  try {
    const admin = new pg.Pool({ connectionString: database.connectionString, max: 1 });
    (await migrate(admin))._unsafeUnwrap();
    await admin.end();
    const pairs = Number(process.argv[2] ?? 4_000);
    if (!Number.isInteger(pairs) || pairs < 1) throw new RangeError('pairs: a whole number from 1');
    printCardVaultBench(await runCardVaultBench(database.connectionString, pairs));
  } finally {
    await database.close();
  }
}
