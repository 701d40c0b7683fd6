/**
 * HTTP benchmark: create-payment requests per second (hosted flow, in-memory) against the sandbox
 * server, beside a bare node:http JSON endpoint and the sandbox server of the tree before the
 * Hono rebuild (`PREVIOUS_COMMIT`, issue 24), all measured in the same run with autocannon.
 *
 * The servers run in child processes (`http-bench-servers.ts`); the old tree is a temporary git
 * worktree (`previous-tree.ts`), its server started the same way as this tree's.
 * The bare endpoint does the minimum a JSON API does for the same request: it reads the body,
 * parses it and answers 201 with a small JSON object.
 *
 *   npx tsx bench/http-bench.ts [--duration 6] [--rounds 3] [--connections 32] [--no-previous]
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { hostedRequest } from '../test/support/requests.js';
import { settle, startServers, stopServers, type Servers } from './http-bench-servers.js';
import { percentile } from './measure.js';
import { checkoutPreviousTree } from './previous-tree.js';

/** The tree before `paystate/http` was rebuilt on Hono: issue 24 asks the new one within 10% of it. */
export const PREVIOUS_COMMIT = '14bd152';
/** The least create throughput of this tree against the previous one, in the same run: 0.9. */
export const PREVIOUS_TARGET = 0.9;
const PROJECT_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** What autocannon reports that this benchmark reads. */
interface AutocannonResult {
  /** Every response, whatever its status. */
  readonly requests: { readonly average: number; readonly total: number };
  /** Of 2xx responses only. */
  readonly latency: { readonly p50: number; readonly p99: number; readonly average: number };
  readonly statusCodeStats: Readonly<Record<string, { readonly count: number } | undefined>>;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** Seconds the run took. */
  readonly duration: number;
}

/** The status both endpoints answer a good create with; only such answers count as throughput. */
const EXPECTED_STATUS = 201;

interface AutocannonOptions {
  readonly url: string;
  readonly method: 'POST';
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly connections: number;
  readonly duration: number;
  readonly pipelining?: number;
}

type Autocannon = (options: AutocannonOptions) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const TOKEN = 'sandbox_hosted_only_token';
const PROFILE = 'profile_webshop';

/** Figures of one endpoint. */
export interface EndpointFigures {
  /**
   * Requests answered 201 per second: the median over the runs of each run's count of them
   * divided by its duration. Other answers, errors and time-outs are not counted.
   */
  readonly requestsPerSecond: number;
  /** Requests answered 201, over all runs. */
  readonly totalRequests: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  /** Responses with another status than 201, connection errors and time-outs, over all runs. */
  readonly failures: number;
}

/** This tree's create throughput against the previous tree's, measured in the same run. */
export interface PreviousTreeComparison {
  /** The previous tree's commit (`PREVIOUS_COMMIT`). */
  readonly commit: string;
  /** `POST /v1/profiles/{profile_id}/payments` against the previous tree's sandbox server. */
  readonly createPayment: EndpointFigures;
  /** Median over the rounds of this tree's 201s per second divided by the previous tree's. */
  readonly ratio: number;
  /** The least ratio issue 24 accepts (`PREVIOUS_TARGET`). */
  readonly target: number;
  readonly meetsTarget: boolean;
}

export interface HttpBenchResult {
  readonly durationSeconds: number;
  readonly rounds: number;
  readonly connections: number;
  /** `POST /v1/profiles/{profile_id}/payments`, hosted flow, against the sandbox server. */
  readonly createPayment: EndpointFigures;
  /** A bare node:http endpoint that parses the same JSON body and answers 201 JSON. */
  readonly bareJson: EndpointFigures;
  /** `createPayment.requestsPerSecond / bareJson.requestsPerSecond`. */
  readonly ratio: number;
  /** The target ratio (0.5). */
  readonly target: number;
  readonly meetsTarget: boolean;
  /** The same creates against the tree before the Hono rebuild, or why that was skipped. */
  readonly previous: PreviousTreeComparison | { readonly skipped: string };
}

export interface HttpBenchOptions {
  /** Seconds per measured run. Default 6. */
  readonly durationSeconds?: number;
  /**
   * Measured runs per endpoint, interleaved (bare, then the old and the new tree's create, which
   * goes first alternating from round to round). Default 3.
   */
  readonly rounds?: number;
  /** Concurrent connections. Default 32. */
  readonly connections?: number;
  /** Seconds of warm-up per endpoint before measuring. Default 2. */
  readonly warmupSeconds?: number;
  /** Measure the previous tree (`PREVIOUS_COMMIT`) too. Default true. */
  readonly previous?: boolean;
  /** Print the figures. Default true. */
  readonly print?: boolean;
}

const median = (values: readonly number[]): number => percentile(values, 50);

/** Responses answered `EXPECTED_STATUS` in one run. */
const answered = (result: AutocannonResult): number => result.statusCodeStats[String(EXPECTED_STATUS)]?.count ?? 0;

/** Responses answered `EXPECTED_STATUS` per second in one run. */
const answeredPerSecond = (result: AutocannonResult): number => answered(result) / result.duration;

/**
 * One endpoint's runs as one figure: medians of the rates and latencies, sums of the counts. Only
 * responses with the expected status count as throughput: an endpoint that answers errors fast
 * must not look fast. autocannon's own `requests` counts every response, whatever its status.
 */
export function endpointFigures(results: readonly AutocannonResult[]): EndpointFigures {
  return {
    requestsPerSecond: Math.round(median(results.map(answeredPerSecond))),
    totalRequests: results.reduce((sum, result) => sum + answered(result), 0),
    latencyP50Ms: median(results.map((result) => result.latency.p50)),
    latencyP99Ms: median(results.map((result) => result.latency.p99)),
    failures: results.reduce(
      (sum, result) => sum + (result.requests.total - answered(result)) + result.errors + result.timeouts,
      0,
    ),
  };
}

/** The median over the rounds of `news[i]`'s 201s per second divided by `olds[i]`'s, to 2 places. */
export function medianRoundRatio(news: readonly AutocannonResult[], olds: readonly AutocannonResult[]): number {
  const ratios = news.map((result, round) => {
    const old = olds[round];
    const oldRate = old === undefined ? 0 : answeredPerSecond(old);
    return oldRate === 0 ? 0 : answeredPerSecond(result) / oldRate;
  });
  return Math.round(median(ratios) * 100) / 100;
}

const noAnswer = (name: string, figures: EndpointFigures): string | undefined =>
  figures.totalRequests === 0 ? `${name}: ${figures.failures} failures` : undefined;

/**
 * Measures HTTP create-payment requests per second (hosted flow, in-memory sandbox server), a bare
 * node:http JSON endpoint and (unless `previous` is false, or git or the commit is unavailable)
 * the previous tree's sandbox server in the same run; returns them and their ratios (targets:
 * >= 0.5 of the bare endpoint, >= 0.9 of the previous tree).
 */
export async function runHttpBench(options: HttpBenchOptions = {}): Promise<HttpBenchResult> {
  const duration = options.durationSeconds ?? 6;
  const rounds = options.rounds ?? 3;
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new RangeError(`rounds must be a whole number >= 1, not ${rounds}`);
  const connections = options.connections ?? 32;
  const warmup = options.warmupSeconds ?? 2;
  const tree =
    options.previous === false
      ? { skipped: 'not asked for (--no-previous)' }
      : checkoutPreviousTree(PROJECT_ROOT, PREVIOUS_COMMIT);
  const started: Servers[] = [];
  try {
    const current = await startServers(PROJECT_ROOT, true);
    started.push(current);
    const old = 'root' in tree ? await startServers(tree.root, false) : undefined;
    if (old !== undefined) started.push(old);
    const children = started.map((servers) => servers.child);
    const body = JSON.stringify(hostedRequest());
    const load = (port: number, path: string, headers: Record<string, string>, seconds: number) =>
      autocannon({
        url: `http://127.0.0.1:${port}${path}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body,
        connections,
        duration: seconds,
      });
    const create = (servers: Servers) => (seconds: number) =>
      load(servers.ports.sandbox, `/v1/profiles/${PROFILE}/payments`, { authorization: `Bearer ${TOKEN}` }, seconds);
    const bare = (seconds: number) => load(current.ports.bare ?? 0, '/payments', {}, seconds);
    const createNew = create(current);
    const createOld = old === undefined ? undefined : create(old);

    if (warmup > 0) {
      for (const run of [bare, createNew, createOld]) {
        if (run === undefined) continue;
        await settle(children);
        await run(warmup);
      }
    }
    // Interleaved, so that whatever else the machine does falls on every endpoint alike; the two
    // trees take turns going first. (The sandbox keeps every payment created, so later create runs
    // work with a larger heap, alike in both trees.)
    const bareRuns: AutocannonResult[] = [];
    const createRuns: AutocannonResult[] = [];
    const oldRuns: AutocannonResult[] = [];
    for (let round = 0; round < rounds; round++) {
      await settle(children);
      bareRuns.push(await bare(duration));
      const turns: [typeof createNew, AutocannonResult[]][] = [[createNew, createRuns]];
      if (createOld !== undefined) turns[round % 2 === 0 ? 'unshift' : 'push']([createOld, oldRuns]);
      for (const [run, runs] of turns) {
        await settle(children);
        runs.push(await run(duration));
      }
    }
    const bareJson = endpointFigures(bareRuns);
    const createPayment = endpointFigures(createRuns);
    const oldCreate = old === undefined ? undefined : endpointFigures(oldRuns);
    const silent = [
      noAnswer('bare', bareJson),
      noAnswer('create', createPayment),
      oldCreate && noAnswer(`create on ${PREVIOUS_COMMIT}`, oldCreate),
    ].filter((line) => line !== undefined);
    if (silent.length > 0) throw new Error(`no request answered ${EXPECTED_STATUS} (${silent.join(', ')})`);
    const ratio = bareJson.requestsPerSecond === 0 ? 0 : createPayment.requestsPerSecond / bareJson.requestsPerSecond;
    let previous: HttpBenchResult['previous'];
    if (oldCreate === undefined || !('root' in tree)) {
      previous = { skipped: 'root' in tree ? 'the previous tree was not served' : tree.skipped };
    } else {
      const newOverOld = medianRoundRatio(createRuns, oldRuns);
      previous = {
        commit: tree.commit,
        createPayment: oldCreate,
        ratio: newOverOld,
        target: PREVIOUS_TARGET,
        meetsTarget: newOverOld >= PREVIOUS_TARGET,
      };
    }
    const result: HttpBenchResult = {
      durationSeconds: duration,
      rounds,
      connections,
      createPayment,
      bareJson,
      ratio: Math.round(ratio * 100) / 100,
      target: 0.5,
      meetsTarget: ratio >= 0.5,
      previous,
    };
    if (options.print ?? true) printHttpBench(result);
    return result;
  } finally {
    await Promise.all(started.map((servers) => stopServers(servers.child)));
    if ('root' in tree) tree.remove();
  }
}

export function printHttpBench(result: HttpBenchResult): void {
  const line = (name: string, f: EndpointFigures) =>
    `  ${name.padEnd(42)} ${String(f.requestsPerSecond).padStart(7)} req/s   p50 ${f.latencyP50Ms} ms   p99 ${f.latencyP99Ms} ms   failures ${f.failures}`;
  console.log(
    `HTTP benchmark (autocannon, ${result.connections} connections, ${result.rounds} interleaved runs of ${result.durationSeconds} s per endpoint, medians)`,
  );
  console.log(line('bare node:http JSON endpoint', result.bareJson));
  const { previous } = result;
  if ('commit' in previous)
    console.log(line(`POST create payment, ${previous.commit} (before Hono)`, previous.createPayment));
  console.log(line('POST create payment (hosted flow)', result.createPayment));
  console.log(
    `  ratio ${result.ratio.toFixed(2)} of the bare endpoint (target >= ${result.target}): ${result.meetsTarget ? 'met' : 'NOT met'}`,
  );
  if ('commit' in previous) {
    console.log(
      `  ratio ${previous.ratio.toFixed(2)} of ${previous.commit}, median of the rounds' ratios (target >= ${previous.target}): ${previous.meetsTarget ? 'met' : 'NOT met'}`,
    );
  } else {
    console.log(`  comparison with ${PREVIOUS_COMMIT} (before Hono) skipped: ${previous.skipped}`);
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      'no-previous': { type: 'boolean' },
    },
  });
  runHttpBench({
    ...(values.duration !== undefined && { durationSeconds: Number(values.duration) }),
    ...(values.rounds !== undefined && { rounds: Number(values.rounds) }),
    ...(values.connections !== undefined && { connections: Number(values.connections) }),
    ...(values.warmup !== undefined && { warmupSeconds: Number(values.warmup) }),
    ...(values['no-previous'] === true && { previous: false }),
  }).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
