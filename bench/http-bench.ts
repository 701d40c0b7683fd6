/**
 * HTTP benchmark: create-payment requests per second (hosted flow, in-memory) against the sandbox
 * server, beside a bare node:http JSON endpoint measured in the same run, with autocannon.
 *
 * The servers run in a child process so that the load generator does not share their event
 * loop. The bare endpoint does the minimum a JSON API does for the same request: it reads the
 * body, parses it and answers 201 with a small JSON object.
 *
 *   npx tsx bench/http-bench.ts [--duration 6] [--rounds 3] [--connections 32]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startSandboxServer } from '../adapters/sandbox-server/index.js';
import { hostedRequest } from '../test/support/requests.js';
import { collectGarbage, percentile } from './measure.js';

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

const SERVE_FLAG = '--http-bench-serve';
/** The sandbox's sweeper interval (its default), and how long `settle` waits for a sweep. */
const SWEEP_INTERVAL_MS = 1000;
const SETTLE_MS = SWEEP_INTERVAL_MS + 500;
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
}

export interface HttpBenchOptions {
  /** Seconds per measured run. Default 6. */
  readonly durationSeconds?: number;
  /** Measured runs per endpoint, interleaved (bare, create, bare, create, …). Default 3. */
  readonly rounds?: number;
  /** Concurrent connections. Default 32. */
  readonly connections?: number;
  /** Seconds of warm-up per endpoint before measuring. Default 2. */
  readonly warmupSeconds?: number;
  /** Print the figures. Default true. */
  readonly print?: boolean;
}

interface ServerPorts {
  readonly sandbox: number;
  readonly bare: number;
}

function bareJsonListener(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let status = 201;
    let body: string;
    try {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { amount?: unknown };
      body = JSON.stringify({ id: 'payment_0', amount: parsed.amount, state: 'processing' });
    } catch {
      status = 400;
      body = JSON.stringify({ code: 'invalid_json' });
    }
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
}

/**
 * Child process: both servers on free ports; reports them to the parent, runs until killed. On
 * `settle` it waits for a sweep of the sandbox's background worker (which delivers the events of
 * the creates before) and collects garbage, then answers `settled`: work the create runs left
 * behind is done before the next run, rather than falling on whichever endpoint runs next.
 */
async function serve(): Promise<void> {
  // No limit per client: the benchmark sends as many requests as the server takes, on one token.
  const sandbox = await startSandboxServer({ port: 0, sweepIntervalMs: SWEEP_INTERVAL_MS, rateLimit: false });
  const bare = createServer(bareJsonListener);
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const ports: ServerPorts = { sandbox: sandbox.port, bare: (bare.address() as AddressInfo).port };
  process.on('message', (message) => {
    if (message !== 'settle') return;
    setTimeout(() => {
      collectGarbage();
      process.send?.('settled');
    }, SETTLE_MS);
  });
  process.send?.(ports);
  process.on('disconnect', () => {
    bare.close();
    void sandbox.close().then(() => process.exit(0));
  });
}

function startServers(): Promise<{ child: ChildProcess; ports: ServerPorts }> {
  const child = fork(fileURLToPath(import.meta.url), [SERVE_FLAG], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (ports) => resolve({ child, ports: ports as ServerPorts }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`benchmark server exited with code ${code}`)));
  });
}

/** Asks the servers' process to settle (see `serve`) and collects this process's garbage too. */
function settle(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`benchmark server exited with code ${code}`));
    child.once('exit', onExit);
    child.once('message', () => {
      child.off('exit', onExit);
      collectGarbage();
      resolve();
    });
    child.send('settle');
  });
}

const median = (values: readonly number[]): number => percentile(values, 50);

/** Responses answered `EXPECTED_STATUS` in one run. */
const answered = (result: AutocannonResult): number => result.statusCodeStats[String(EXPECTED_STATUS)]?.count ?? 0;

/**
 * One endpoint's runs as one figure: medians of the rates and latencies, sums of the counts. Only
 * responses with the expected status count as throughput: an endpoint that answers errors fast
 * must not look fast. autocannon's own `requests` counts every response, whatever its status.
 */
export function endpointFigures(results: readonly AutocannonResult[]): EndpointFigures {
  return {
    requestsPerSecond: Math.round(median(results.map((result) => answered(result) / result.duration))),
    totalRequests: results.reduce((sum, result) => sum + answered(result), 0),
    latencyP50Ms: median(results.map((result) => result.latency.p50)),
    latencyP99Ms: median(results.map((result) => result.latency.p99)),
    failures: results.reduce(
      (sum, result) => sum + (result.requests.total - answered(result)) + result.errors + result.timeouts,
      0,
    ),
  };
}

/**
 * Measures HTTP create-payment requests per second (hosted flow, in-memory sandbox server) and a
 * bare node:http JSON endpoint in the same run; returns both and their ratio (target >= 0.5).
 */
export async function runHttpBench(options: HttpBenchOptions = {}): Promise<HttpBenchResult> {
  const duration = options.durationSeconds ?? 6;
  const rounds = options.rounds ?? 3;
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new RangeError(`rounds must be a whole number >= 1, not ${rounds}`);
  const connections = options.connections ?? 32;
  const warmup = options.warmupSeconds ?? 2;
  const { child, ports } = await startServers();
  try {
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
    const create = (seconds: number) =>
      load(ports.sandbox, `/v1/profiles/${PROFILE}/payments`, { authorization: `Bearer ${TOKEN}` }, seconds);
    const bare = (seconds: number) => load(ports.bare, '/payments', {}, seconds);

    if (warmup > 0) {
      await settle(child);
      await bare(warmup);
      await settle(child);
      await create(warmup);
    }
    // Interleaved, so that whatever else the machine does falls on both endpoints alike. (The
    // sandbox keeps every payment created, so later create runs work with a larger heap.)
    const bareRuns: AutocannonResult[] = [];
    const createRuns: AutocannonResult[] = [];
    for (let round = 0; round < rounds; round++) {
      await settle(child);
      bareRuns.push(await bare(duration));
      await settle(child);
      createRuns.push(await create(duration));
    }
    const bareJson = endpointFigures(bareRuns);
    const createPayment = endpointFigures(createRuns);
    if (bareJson.totalRequests === 0 || createPayment.totalRequests === 0) {
      throw new Error(
        `no request answered ${EXPECTED_STATUS} (bare: ${bareJson.failures} failures, create: ${createPayment.failures} failures)`,
      );
    }
    const ratio = bareJson.requestsPerSecond === 0 ? 0 : createPayment.requestsPerSecond / bareJson.requestsPerSecond;
    const result: HttpBenchResult = {
      durationSeconds: duration,
      rounds,
      connections,
      createPayment,
      bareJson,
      ratio: Math.round(ratio * 100) / 100,
      target: 0.5,
      meetsTarget: ratio >= 0.5,
    };
    if (options.print ?? true) printHttpBench(result);
    return result;
  } finally {
    child.disconnect();
  }
}

export function printHttpBench(result: HttpBenchResult): void {
  const line = (name: string, f: EndpointFigures) =>
    `  ${name.padEnd(34)} ${String(f.requestsPerSecond).padStart(7)} req/s   p50 ${f.latencyP50Ms} ms   p99 ${f.latencyP99Ms} ms   failures ${f.failures}`;
  console.log(
    `HTTP benchmark (autocannon, ${result.connections} connections, ${result.rounds} interleaved runs of ${result.durationSeconds} s per endpoint, medians)`,
  );
  console.log(line('bare node:http JSON endpoint', result.bareJson));
  console.log(line('POST create payment (hosted flow)', result.createPayment));
  console.log(
    `  ratio ${result.ratio.toFixed(2)} of the bare endpoint (target >= ${result.target}): ${result.meetsTarget ? 'met' : 'NOT met'}`,
  );
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain && process.argv.includes(SERVE_FLAG)) {
  void serve();
} else if (isMain) {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
    },
  });
  runHttpBench({
    ...(values.duration !== undefined && { durationSeconds: Number(values.duration) }),
    ...(values.rounds !== undefined && { rounds: Number(values.rounds) }),
    ...(values.connections !== undefined && { connections: Number(values.connections) }),
    ...(values.warmup !== undefined && { warmupSeconds: Number(values.warmup) }),
  }).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
