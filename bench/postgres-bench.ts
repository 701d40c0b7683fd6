/**
 * The Postgres adapter benchmark, in one run on one database:
 * (a) direct-flow lifecycles per second (no 3DS, create → succeeded) through the engine with the
 *     Postgres repository, 16 concurrent clients;
 * (b) the same two SQL statements (intent insert, outcome compare-and-set update, each with
 *     its outbox events) issued directly with `pg`, 16 concurrent clients: the database's own
 *     limit for this work;
 * (c) latency of loading a payment by id with 1,000 and with 1,000,000 payments stored
 *     (bulk-loaded with generate_series, not through the engine), each size in a schema of its
 *     own on the same server, read in alternating batches;
 * (d) the card vault's put + take beside the same statements with `pg` alone (`card-vault-bench.ts`);
 * (e) a refund lifecycle through the engine beside the same statements with `pg` alone (`refund-bench.ts`).
 *
 * Runs on `DATABASE_URL` when set (it creates and drops a database of its own there), else on
 * an embedded Postgres with default durability. Standalone: `npx tsx bench/postgres-bench.ts`.
 */
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createMemoryCardVault } from '../adapters/memory/index.js';
import { createCryptoIdGenerator, systemClock } from '../adapters/node/index.js';
import { createPostgresPaymentRepository, migrate } from '../adapters/postgres/index.js';
import { paymentParams, PAYMENT_WRITE_COLUMNS } from '../adapters/postgres/payment-row.js';
import { INSERT, LOAD, UPDATE } from '../adapters/postgres/payment-statements.js';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from '../adapters/sandbox/index.js';
import type { Client, DomainEvent, PaymentRecord } from '../src/index.js';
import { createPaymentEngine } from '../src/index.js';
import { startTestDatabase } from '../test/postgres/support/embedded-postgres.js';
import { countingRepository } from '../test/postgres/support/postgres-engine.js';
import { directRequest } from '../test/support/requests.js';
import { printCardVaultBench, runCardVaultBench, type CardVaultFigures } from './card-vault-bench.js';
import { collectGarbage, percentile } from './measure.js';
import { printRefundBench, runRefundBench, type RefundFigures } from './refund-bench.js';

export interface PostgresBenchOptions {
  /** Seconds each of (a) and (b) is measured, in total. Default 12. */
  readonly seconds?: number;
  /** (a) and (b) alternate this many times. Default 4. */
  readonly rounds?: number;
  /** Concurrent clients of the throughput runs. Default 16. */
  readonly clients?: number;
  /** Payments stored for the large read-latency run. Default 1,000,000. */
  readonly largeCount?: number;
  /** Loads timed at each size. Default 20,000. */
  readonly reads?: number;
  /** Card vault put + take pairs, each way. Default 4,000. */
  readonly vaultPairs?: number;
  /** Refund lifecycles each way in (e); default 2,000. */
  readonly refundLifecycles?: number;
  /** Progress lines; default none. */
  readonly log?: (line: string) => void;
}

export interface ReadLatency {
  readonly stored: number;
  /** Round trip of `repository.load`, as the engine sees it. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The server's own execution time of the load statement (`EXPLAIN ANALYZE`), median. */
  readonly serverP50Ms: number;
}

export interface PostgresBenchFigures {
  readonly server: string;
  readonly clients: number;
  /** (a) through the engine. */
  readonly engine: Throughput & {
    /** Repository writes per lifecycle: each is one statement, one transaction, one commit. */
    readonly writesPerLifecycle: number;
    /** `xact_commit` of `pg_stat_database` per lifecycle (every transaction, read-only ones too). */
    readonly serverCommitsPerLifecycle: number;
  };
  /** (b) the same statements with `pg` alone. */
  readonly direct: Throughput;
  /** (a) / (b); target >= 0.75. */
  readonly ratio: number;
  /** (c) */
  readonly read: {
    readonly small: ReadLatency;
    readonly large: ReadLatency;
    /** large p50 / small p50; target <= 1.2. */
    readonly p50Ratio: number;
    readonly p99Ratio: number;
  };
  /** (d) */
  readonly vault: CardVaultFigures;
  readonly refund: RefundFigures;
}

/** Before each throughput run: JIT, prepared statements, caches. */
const WARM_UP_SECONDS = 3;

const client: Client = {
  id: 'client_bench',
  partnerId: 'partner_bench',
  profileIds: ['profile_bench'],
  pciDssCompliant: true,
};

async function serverCommits(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ commits: string }>(
    'SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(rows[0]?.commits ?? 0);
}

/** Busy and total CPU time of the whole machine so far, in ms (every core, every process). */
function machineCpu(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const { user, nice, sys, irq, idle } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + irq + idle;
  }
  return { busy, total };
}

/** What a throughput run measured. */
export interface Throughput {
  readonly lifecyclesPerSecond: number;
  readonly lifecycles: number;
  /** CPU time of this Node process per lifecycle, in ms. */
  readonly nodeCpuMsPerLifecycle: number;
  /** Share of the machine's CPU in use during the run (all cores, database included), 0..1. */
  readonly machineCpuBusy: number;
}

/**
 * Runs `one` from `clients` concurrent loops for `seconds`, after a full garbage collection (so
 * that no run pays for the garbage of the one before). A lifecycle under way at the deadline is
 * finished and counted, and the time it takes is measured too.
 */
async function concurrently(clients: number, seconds: number, one: () => Promise<void>): Promise<Throughput> {
  collectGarbage();
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const machineBefore = machineCpu();
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        await one();
        done += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const machineAfter = machineCpu();
  return {
    lifecyclesPerSecond: done / elapsed,
    lifecycles: done,
    nodeCpuMsPerLifecycle: (cpu.user + cpu.system) / 1000 / Math.max(1, done),
    machineCpuBusy: (machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total),
  };
}

/**
 * A pool; with `schema`, each of its connections first sets its search_path to that schema, so
 * unqualified tables are that schema's (set per connection rather than through the `options`
 * parameter, which options in the connection string would replace).
 */
const newPool = (connectionString: string, max: number, schema?: string) => {
  const pool = new pg.Pool({
    connectionString,
    max,
    // Connections stay open while the pool waits for its turn in the interleaved runs (pg closes
    // idle ones after 10 s by default, and the next run would pay for connecting again).
    idleTimeoutMillis: 0,
    // Awaited by the pool before the connection runs anything else.
    ...(schema === undefined
      ? {}
      : {
          onConnect: (client: pg.ClientBase) => client.query(`SET search_path TO ${client.escapeIdentifier(schema)}`),
        }),
  });
  pool.on('error', () => undefined);
  return pool;
};

/** (a): one direct-flow lifecycle through the engine on `pool`. */
function engineWorkload(pool: pg.Pool) {
  const repository = countingRepository(createPostgresPaymentRepository({ pool }));
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
  const one = async () => {
    const payment = (await engine.createPayment({ client, profileId: 'profile_bench', body }))._unsafeUnwrap();
    if (payment.state !== 'succeeded') throw new Error(`unexpected state ${payment.state}`);
  };
  return { repository, one };
}

/** A direct-flow payment as the engine stores it: intent (version 1) and outcome (version 2), with their events. */
async function templates(admin: pg.Pool) {
  const { rows } = await admin.query<{ id: string }>(
    `SELECT id FROM paystate_payments WHERE state = 'succeeded' ORDER BY created_at DESC LIMIT 1`,
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no payment from the engine run to copy');
  const repository = createPostgresPaymentRepository({ pool: admin });
  const outcome = (await repository.load(id))._unsafeUnwrap();
  if (outcome === null) throw new Error('payment vanished');
  const { rows: events } = await admin.query<{ event: DomainEvent }>(
    'SELECT event FROM paystate_outbox WHERE payment_id = $1 ORDER BY sequence',
    [id],
  );
  const intent: PaymentRecord = {
    ...outcome,
    state: 'authorizing',
    version: 1,
    authorization: null,
    authorizationStatus: 'requested',
    nextInquiryAt: outcome.updatedAt + 120_000,
  };
  return {
    intent,
    outcome,
    intentEvents: JSON.stringify(events.slice(0, 1).map((row) => row.event)),
    outcomeEvents: JSON.stringify(events.slice(1).map((row) => row.event)),
  };
}

/** (b): the engine's two statements for one lifecycle, with `pg` alone, copying `template`. */
function directWorkload(pool: pg.Pool, template: Awaited<ReturnType<typeof templates>>) {
  const intentParams = paymentParams(template.intent);
  const outcomeParams = paymentParams(template.outcome);
  const createdAt = PAYMENT_WRITE_COLUMNS.indexOf('created_at');
  const updatedAt = PAYMENT_WRITE_COLUMNS.indexOf('updated_at');
  const one = async () => {
    // Fresh random ids and current times, as the engine writes them.
    const id = `payment_${randomBytes(16).toString('hex')}`;
    const now = new Date().toISOString();
    const intent = [id, ...intentParams, template.intentEvents];
    const outcome = [id, ...outcomeParams, template.outcomeEvents, 1];
    for (const index of [createdAt, updatedAt]) {
      intent[index + 1] = now;
      outcome[index + 1] = now;
    }
    await pool.query({ name: INSERT.name, text: INSERT.text, values: intent });
    const updated = await pool.query<{ written: number }>({ name: UPDATE.name, text: UPDATE.text, values: outcome });
    if (updated.rows[0]?.written !== 1) throw new Error('update lost');
  };
  return { one };
}

/** Commits per engine lifecycle: repository writes, and the server's own transaction counter. */
async function countCommits(url: string, admin: pg.Pool, clients: number) {
  const pool = newPool(url, clients);
  const { repository, one } = engineWorkload(pool);
  const before = await serverCommits(admin);
  const run = await concurrently(clients, 2, one);
  // Backends report their statistics when they exit: end the pool before reading them.
  await pool.end();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const commits = (await serverCommits(admin)) - before - 1; // less the first counter read
  return {
    writesPerLifecycle: (repository.writes.inserts + repository.writes.updates) / run.lifecycles,
    serverCommitsPerLifecycle: commits / run.lifecycles,
  };
}

/** Sums interleaved runs into one figure. */
function combine(runs: readonly Throughput[], seconds: readonly number[]): Throughput {
  const lifecycles = runs.reduce((sum, run) => sum + run.lifecycles, 0);
  const elapsed = runs.reduce((sum, run) => sum + run.lifecycles / run.lifecyclesPerSecond, 0);
  const weighted = (pick: (run: Throughput) => number, by: (run: Throughput, index: number) => number) =>
    runs.reduce((sum, run, index) => sum + pick(run) * by(run, index), 0) /
    runs.reduce((sum, run, index) => sum + by(run, index), 0);
  return {
    lifecycles,
    lifecyclesPerSecond: lifecycles / elapsed,
    nodeCpuMsPerLifecycle: weighted(
      (run) => run.nodeCpuMsPerLifecycle,
      (run) => run.lifecycles,
    ),
    machineCpuBusy: weighted(
      (run) => run.machineCpuBusy,
      (_, index) => seconds[index] ?? 1,
    ),
  };
}

/**
 * (a) and (b), interleaved in `rounds` (a, b, b, a, a, b, …) so that the disk's and the server's
 * drifts (checkpoints, WAL recycling) fall on both alike.
 */
async function throughputs(url: string, admin: pg.Pool, clients: number, seconds: number, rounds: number) {
  const warmEngine = newPool(url, clients);
  await concurrently(clients, WARM_UP_SECONDS, engineWorkload(warmEngine).one);
  await warmEngine.end();
  const template = await templates(admin);
  const warmDirect = newPool(url, clients);
  await concurrently(clients, WARM_UP_SECONDS, directWorkload(warmDirect, template).one);
  await warmDirect.end();
  // Let the warm-up backends report their statistics before the commits are counted.
  await new Promise((resolve) => setTimeout(resolve, 500));

  const commits = await countCommits(url, admin, clients);
  const enginePool = newPool(url, clients);
  const directPool = newPool(url, clients);
  const engine = engineWorkload(enginePool);
  const direct = directWorkload(directPool, template);
  const engineRuns: Throughput[] = [];
  const directRuns: Throughput[] = [];
  const slice = seconds / rounds;
  try {
    // Untimed, on the pools the runs use: every connection open and every statement prepared on
    // it before anything is timed, on both sides.
    await concurrently(clients, 0.5, engine.one);
    await concurrently(clients, 0.5, direct.one);
    // Each round starts with the side the one before ended with (a b, b a, a b, …): neither
    // always runs first, on a table that grows with every run, after the other's writes.
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) {
        engineRuns.push(await concurrently(clients, slice, engine.one));
        directRuns.push(await concurrently(clients, slice, direct.one));
      } else {
        directRuns.push(await concurrently(clients, slice, direct.one));
        engineRuns.push(await concurrently(clients, slice, engine.one));
      }
    }
  } finally {
    await enginePool.end();
    await directPool.end();
  }
  const slices = Array.from({ length: rounds }, () => slice);
  return { engine: { ...combine(engineRuns, slices), ...commits }, direct: combine(directRuns, slices) };
}

/** The SQL type of each payments column, read from the database (where Postgres cannot infer a parameter's). */
async function columnTypes(admin: pg.Pool): Promise<ReadonlyMap<string, string>> {
  const { rows } = await admin.query<{ column_name: string; type: string }>(
    `SELECT column_name, format_type(atttypid, atttypmod) AS type
     FROM information_schema.columns c
     JOIN pg_attribute a ON a.attrelid = 'paystate_payments'::regclass AND a.attname = c.column_name
     WHERE c.table_name = 'paystate_payments'`,
  );
  return new Map(rows.map((row) => [row.column_name, row.type]));
}

/** Stores payments `from`..`to` (ids `payment_` + the number in 32 hex digits), copies of `record`, in chunks. */
async function bulkLoad(
  admin: pg.Pool,
  record: PaymentRecord,
  from: number,
  to: number,
  log: (line: string) => void,
): Promise<void> {
  const types = await columnTypes(admin);
  const columns = PAYMENT_WRITE_COLUMNS.map((column, index) => {
    if (column === 'profile_id') return `$${index + 1}::text || '_' || (g % 1000)`;
    const type = types.get(column);
    if (type === undefined) throw new Error(`paystate_payments has no column ${column}`);
    const param = `$${index + 1}::${type}`;
    return column === 'created_at' || column === 'updated_at' ? `${param} + g * interval '1 millisecond'` : param;
  });
  const chunk = 100_000;
  for (let start = from; start <= to; start += chunk) {
    const end = Math.min(to, start + chunk - 1);
    await admin.query(
      `INSERT INTO paystate_payments (id, ${PAYMENT_WRITE_COLUMNS.join(', ')})
       SELECT 'payment_' || lpad(to_hex(g), 32, '0'), ${columns.join(', ')}
       FROM generate_series(${start}, ${end}) AS g`,
      paymentParams(record),
    );
  }
  await settle(admin, log);
}

/**
 * After a bulk load: set hint bits and statistics, write the dirty pages out (so reads do not
 * pay for evicting them), and load the table and its indexes into shared buffers when the
 * `pg_prewarm` extension is available, so both sizes are measured with a warm cache. Says
 * through `log` when it cannot prewarm.
 */
async function settle(admin: pg.Pool, log: (line: string) => void): Promise<void> {
  await admin.query('VACUUM (FREEZE, ANALYZE) paystate_payments');
  await admin.query('CHECKPOINT');
  try {
    // In public whatever this pool's search_path, and called where it is installed.
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm SCHEMA public');
    const { rows } = await admin.query<{ home: string }>(
      `SELECT extnamespace::regnamespace::text AS home FROM pg_extension WHERE extname = 'pg_prewarm'`,
    );
    await admin.query(`
      SELECT ${rows[0]?.home ?? 'public'}.pg_prewarm(c.oid::regclass) FROM pg_class c
      WHERE c.relname IN ('paystate_payments', 'paystate_payments_pkey', 'paystate_payments_by_profile')
        AND c.relnamespace = current_schema()::regnamespace`);
  } catch (error) {
    log(`(c) no pg_prewarm on this server (${(error as Error).message}): the warm-up reads warm the cache`);
  }
  // Let background writers finish before timing anything.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
}

/** (c) one size: a schema of its own holding `stored` payments, read by id through the repository. */
interface SizedReads {
  readonly stored: number;
  /** One batch of `count` sequential loads of random stored ids; the time of each, in ms. */
  batch(count: number): Promise<number[]>;
  /** The server's own execution time for the load (EXPLAIN ANALYZE), median of 200, in ms. */
  serverTime(): Promise<number>;
  close(): Promise<void>;
}

async function sizedReads(
  url: string,
  schema: string,
  template: PaymentRecord,
  stored: number,
  log: (line: string) => void,
): Promise<SizedReads> {
  const admin = newPool(url, 1);
  try {
    const name = `"${schema.replaceAll('"', '""')}"`;
    await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
    await admin.query(`CREATE SCHEMA ${name}`);
  } finally {
    await admin.end();
  }
  const schemaAdmin = newPool(url, 2, schema);
  try {
    (await migrate(schemaAdmin))._unsafeUnwrap();
    await bulkLoad(schemaAdmin, template, 1, stored, log);
  } finally {
    await schemaAdmin.end();
  }
  const pool = newPool(url, 1, schema);
  // Through the pool the reads use (its search_path): every payment is there to be read.
  const { rows } = await pool.query<{ stored: string }>('SELECT count(*) AS stored FROM paystate_payments');
  if (Number(rows[0]?.stored) !== stored) {
    await pool.end();
    throw new Error(`${schema} holds ${rows[0]?.stored ?? 'no'} payments, not ${stored}`);
  }
  const repository = createPostgresPaymentRepository({ pool });
  const idOf = (n: number) => `payment_${n.toString(16).padStart(32, '0')}`;
  const random = () => 1 + Math.floor(Math.random() * stored);
  return {
    stored,
    async batch(count) {
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const id = idOf(random());
        const started = performance.now();
        const record = (await repository.load(id))._unsafeUnwrap();
        times.push(performance.now() - started);
        if (record === null) throw new Error(`payment ${id} not found in ${schema}`);
      }
      return times;
    },
    async serverTime() {
      const server: number[] = [];
      for (let i = 0; i < 200; i++) {
        const { rows } = await pool.query<{ 'QUERY PLAN': [{ 'Execution Time': number }] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${LOAD.text}`,
          [idOf(random())],
        );
        server.push(rows[0]?.['QUERY PLAN'][0]['Execution Time'] ?? Number.NaN);
      }
      return percentile(server, 50);
    },
    close: () => pool.end(),
  };
}

/**
 * (c) both sizes, each in a schema of its own on the same server, loaded and settled before
 * anything is timed, then read in alternating batches (small, large, small, …) so that
 * background work on the server (checkpoints, autovacuum) falls on both alike. Each size's
 * figure is the median over its batches of the batch's percentile.
 */
async function readLatencies(
  small: SizedReads,
  large: SizedReads,
  reads: number,
): Promise<{ small: ReadLatency; large: ReadLatency }> {
  const batches = 8;
  const size = Math.ceil(reads / batches);
  for (const sized of [small, large]) await sized.batch(Math.min(5_000, reads));
  const percentiles = new Map<SizedReads, { p50: number[]; p99: number[] }>([
    [small, { p50: [], p99: [] }],
    [large, { p50: [], p99: [] }],
  ]);
  for (let batch = 0; batch < batches; batch++) {
    for (const sized of batch % 2 === 0 ? [small, large] : [large, small]) {
      const times = await sized.batch(size);
      const figures = percentiles.get(sized);
      figures?.p50.push(percentile(times, 50));
      figures?.p99.push(percentile(times, 99));
    }
  }
  const latency = async (sized: SizedReads): Promise<ReadLatency> => {
    const figures = percentiles.get(sized) ?? { p50: [], p99: [] };
    return {
      stored: sized.stored,
      p50Ms: percentile(figures.p50, 50),
      p99Ms: percentile(figures.p99, 50),
      serverP50Ms: await sized.serverTime(),
    };
  };
  return { small: await latency(small), large: await latency(large) };
}

/** Runs the three measurements on one database; see the module comment. */
export async function runPostgresBench(options: PostgresBenchOptions = {}): Promise<PostgresBenchFigures> {
  const seconds = options.seconds ?? 12;
  const rounds = options.rounds ?? 4;
  const clients = options.clients ?? 16;
  const largeCount = options.largeCount ?? 1_000_000;
  const reads = options.reads ?? 20_000;
  const log = options.log ?? (() => undefined);
  // Default durability; shared buffers sized to hold the million payments (about 1.5 GB with
  // indexes), as a database holding them would be.
  const database = await startTestDatabase({ durable: true, settings: { shared_buffers: '2GB' } });
  const admin = newPool(database.connectionString, 2);
  try {
    (await migrate(admin))._unsafeUnwrap();
    const { rows } = await admin.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
    const server = `PostgreSQL ${rows[0]?.version ?? '?'} (${database.embedded ? 'embedded' : 'DATABASE_URL'})`;

    log(`(a) engine and (b) same statements with pg, ${clients} clients, ${seconds} s each, interleaved …`);
    const { engine, direct } = await throughputs(database.connectionString, admin, clients, seconds, rounds);
    log('(d) card vault put + take beside pg alone …');
    const vault = await runCardVaultBench(database.connectionString, options.vaultPairs);
    log('(e) refund lifecycle beside pg alone …');
    const refund = await runRefundBench(database.connectionString, options.refundLifecycles);

    const template = (await templates(admin)).outcome;
    await admin.query('TRUNCATE paystate_operations, paystate_payments, paystate_outbox');
    log(`(c) bulk-loading 1,000 and ${largeCount.toLocaleString('en-US')} payments …`);
    const smallReads = await sizedReads(database.connectionString, 'paystate_bench_small', template, 1_000, log);
    let latencies: { small: ReadLatency; large: ReadLatency };
    try {
      const largeReads = await sizedReads(database.connectionString, 'paystate_bench_large', template, largeCount, log);
      try {
        log('(c) read latency, alternating batches …');
        latencies = await readLatencies(smallReads, largeReads, reads);
      } finally {
        await largeReads.close();
      }
    } finally {
      await smallReads.close();
    }
    const { small, large } = latencies;

    return {
      server,
      clients,
      engine,
      direct,
      ratio: engine.lifecyclesPerSecond / direct.lifecyclesPerSecond,
      read: { small, large, p50Ratio: large.p50Ms / small.p50Ms, p99Ratio: large.p99Ms / small.p99Ms },
      vault,
      refund,
    };
  } finally {
    await admin.end();
    await database.close();
  }
}

export function printPostgresBench(f: PostgresBenchFigures): void {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  console.log(`\n== postgres: ${f.server}, ${f.clients} concurrent clients ==`);
  console.log(`(a) engine + Postgres adapter: ${n(f.engine.lifecyclesPerSecond)} direct-flow lifecycles/s`);
  console.log(`(b) same SQL with pg alone:    ${n(f.direct.lifecyclesPerSecond)} lifecycles/s`);
  console.log(`a/b = ${f.ratio.toFixed(3)} (target >= 0.75)`);
  console.log(
    `node CPU per lifecycle: (a) ${ms(f.engine.nodeCpuMsPerLifecycle)}, (b) ${ms(f.direct.nodeCpuMsPerLifecycle)}; ` +
      `machine CPU busy (${cpus().length} cores, database included): (a) ${pct(f.engine.machineCpuBusy)}, (b) ${pct(f.direct.machineCpuBusy)}`,
  );
  console.log(
    `commits per lifecycle: ${f.engine.writesPerLifecycle.toFixed(2)} repository writes, ` +
      `${f.engine.serverCommitsPerLifecycle.toFixed(2)} server transactions (target <= 2)`,
  );
  console.log(
    `(c) load by id, ${n(f.read.small.stored)} stored: p50 ${ms(f.read.small.p50Ms)}, p99 ${ms(f.read.small.p99Ms)}; ` +
      `${n(f.read.large.stored)} stored: p50 ${ms(f.read.large.p50Ms)}, p99 ${ms(f.read.large.p99Ms)}`,
  );
  console.log(`    ratio p50 ${f.read.p50Ratio.toFixed(3)}, p99 ${f.read.p99Ratio.toFixed(3)} (target <= 1.2)`);
  console.log(
    `    server execution time (EXPLAIN ANALYZE, median): ${ms(f.read.small.serverP50Ms)} and ${ms(f.read.large.serverP50Ms)}`,
  );
  printCardVaultBench(f.vault);
  printRefundBench(f.refund);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  printPostgresBench(await runPostgresBench({ log: (line) => console.log(line) }));
  console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
}
