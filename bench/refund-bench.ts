/**
 * A refund lifecycle on Postgres: create a direct payment that succeeds (automatic capture), refund
 * it, the sandbox acquirer answers; through the engine, beside the same SQL statements (recorded
 * from one engine lifecycle, ids renewed) with `pg` alone, one client, in alternating batches on one
 * database. Run by `postgres-bench.ts` (`npm run bench`), or alone on an embedded server (or
 * `DATABASE_URL`): `npx tsx bench/refund-bench.ts [lifecycles]`.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createMemoryCardVault } from '../adapters/memory/index.js';
import { createCryptoIdGenerator, systemClock } from '../adapters/node/index.js';
import { createPostgresPaymentRepository, migrate } from '../adapters/postgres/index.js';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from '../adapters/sandbox/index.js';
import type { Client } from '../src/index.js';
import { createPaymentEngine } from '../src/index.js';
import { startTestDatabase } from '../test/postgres/support/embedded-postgres.js';
import { directRequest } from '../test/support/requests.js';

/** Microseconds per refund lifecycle, through the engine and with `pg` alone, their ratio, and the statements in one. */
export interface RefundFigures {
  readonly lifecycles: number;
  /** The statements of one lifecycle, by name, in order. */
  readonly statements: readonly string[];
  readonly engineUs: number;
  readonly plainUs: number;
  readonly ratio: number;
}

const client: Client = {
  id: 'client_bench',
  partnerId: 'partner_bench',
  profileIds: ['profile_bench'],
  pciDssCompliant: true,
};

/** One statement as the engine sent it. */
interface Sent {
  readonly name: string | undefined;
  readonly text: string;
  readonly values: readonly unknown[];
}

/** Records every named statement sent on the pool's connections while `recording` is on. */
function recordStatements(pool: pg.Pool): { start(): void; stop(): Sent[] } {
  let recording: Sent[] | null = null;
  pool.on('connect', (connection) => {
    const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
    (connection as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const config = args[0] as Partial<Sent> | string;
      if (recording !== null && typeof config === 'object' && typeof config.text === 'string') {
        recording.push({ name: config.name, text: config.text, values: [...(config.values ?? [])] });
      }
      return query(...args);
    };
  });
  return {
    start: () => {
      recording = [];
    },
    stop: () => {
      const sent = recording ?? [];
      recording = null;
      return sent;
    },
  };
}

/** `lifecycles` each way (rounded up to batches of 100), alternating batches, on a migrated database. */
export async function runRefundBench(connectionString: string, lifecycles = 2_000): Promise<RefundFigures> {
  const pool = new pg.Pool({ connectionString, max: 1, idleTimeoutMillis: 0 });
  pool.on('error', () => undefined);
  const recorder = recordStatements(pool);
  const repository = createPostgresPaymentRepository({ pool });
  try {
    const engine = createPaymentEngine({
      repository,
      acquirer: createSandboxAcquirer(),
      threeDS: createSandboxThreeDSProvider({ challengeUrl: () => 'https://acs.invalid/', secret: 'bench' }),
      cardVault: createMemoryCardVault(systemClock),
      clock: systemClock,
      ids: createCryptoIdGenerator(),
      options: { retries: 0 },
    });
    const body = directRequest('4242424242424242');
    const viaEngine = async (): Promise<{ paymentId: string; refundId: string }> => {
      const payment = (await engine.createPayment({ client, profileId: 'profile_bench', body }))._unsafeUnwrap();
      if (payment.state !== 'succeeded') throw new Error(`unexpected state ${payment.state}`);
      const refund = (
        await engine.refundPayment({ paymentId: payment.id, profileId: 'profile_bench', body: { amount: 600 } })
      )._unsafeUnwrap();
      if (refund.state !== 'succeeded') throw new Error(`unexpected refund state ${refund.state}`);
      return { paymentId: payment.id, refundId: refund.id };
    };

    await viaEngine();
    recorder.start();
    const recorded = await viaEngine();
    const script = recorder.stop();
    // The same statements with fresh payment and refund ids (their primary keys), as JSON to copy.
    const template = JSON.stringify(script);
    const viaPg = async () => {
      const copy = template
        .replaceAll(recorded.paymentId, `payment_${randomBytes(16).toString('hex')}`)
        .replaceAll(recorded.refundId, `refund_${randomBytes(16).toString('hex')}`);
      for (const sent of JSON.parse(copy) as Sent[]) {
        await pool.query(
          sent.name === undefined
            ? { text: sent.text, values: [...sent.values] }
            : { ...sent, values: [...sent.values] },
        );
      }
    };

    for (let i = 0; i < 100; i++) {
      await viaEngine();
      await viaPg();
    }
    const spent = { engine: 0, plain: 0 };
    const batch = 100;
    for (let done = 0; done < lifecycles; done += batch) {
      for (const [name, one] of [
        ['engine', viaEngine],
        ['plain', viaPg],
      ] as const) {
        const started = performance.now();
        for (let i = 0; i < batch; i++) await one();
        spent[name] += performance.now() - started;
      }
    }
    const measured = Math.ceil(lifecycles / batch) * batch;
    const engineUs = (spent.engine * 1000) / measured;
    const plainUs = (spent.plain * 1000) / measured;
    return {
      lifecycles: measured,
      statements: script.map((sent) => sent.name ?? 'unnamed'),
      engineUs,
      plainUs,
      ratio: engineUs / plainUs,
    };
  } finally {
    await repository.close();
    await pool.end();
  }
}

export function printRefundBench(f: RefundFigures): void {
  console.log(
    `(e) refund lifecycle (create → succeeded, refund → succeeded), one client: engine ${f.engineUs.toFixed(0)} µs; ` +
      `same ${f.statements.length} statements with pg alone: ${f.plainUs.toFixed(0)} µs; ratio ${f.ratio.toFixed(2)} ` +
      `(${f.lifecycles.toLocaleString('en-US')} lifecycles each)\n    statements: ${f.statements.join(', ')}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const database = await startTestDatabase({ durable: true });
  try {
    const admin = new pg.Pool({ connectionString: database.connectionString, max: 1 });
    (await migrate(admin))._unsafeUnwrap();
    await admin.end();
    const lifecycles = Number(process.argv[2] ?? 2_000);
    if (!Number.isInteger(lifecycles) || lifecycles < 1) throw new RangeError('lifecycles: a whole number from 1');
    printRefundBench(await runRefundBench(database.connectionString, lifecycles));
  } finally {
    await database.close();
  }
}
