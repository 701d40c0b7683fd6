import type { BackgroundLoopStatus, BackgroundWorkerStatus } from '../../src/engine/health.js';
import type { BackgroundWorker, PaymentEngine } from '../../src/engine/payment-engine.js';
import { jsonAnswer, toResponse } from './http-answer.js';
import type { FetchHandler, PagesHandler } from './page-context.js';

/** The liveness path the health pages answer (`HealthHandlers.pages`). */
export const LIVENESS_PATH = '/healthz';

/** The readiness path the health pages answer (`HealthHandlers.pages`). */
export const READINESS_PATH = '/readyz';

/** Default of `HealthHandlersOptions.maxFailuresInARow`. */
export const DEFAULT_MAX_FAILURES_IN_A_ROW = 3;

/** What the handlers read of a background worker: its status. */
export type HealthWorker = Pick<BackgroundWorker, 'status'>;

/** Options of `createHealthHandlers`. */
export interface HealthHandlersOptions {
  /** Probed by readiness (`engine.checkHealth()`): one read that touches no payment. */
  readonly engine: Pick<PaymentEngine, 'checkHealth'>;
  /**
   * The background worker to report (`engine.startBackgroundWorker()`), or a function that gives
   * it (one started later, or none yet). Default none: only the process and storage are checked.
   */
  readonly worker?: HealthWorker | (() => HealthWorker | undefined);
  /**
   * How many ticks in a row a loop of the worker may fail before readiness answers 503. Default 3;
   * a `RangeError` unless a whole number of at least 1.
   */
  readonly maxFailuresInARow?: number;
  /**
   * How long readiness waits for storage, in ms: keep it below the probe's own time-out. Default
   * the engine's storage time-out (10 s); a `RangeError` unless a whole number from 1 to 2^31 - 1.
   */
  readonly timeoutMs?: number;
}

/** The probes as fetch-standard handlers, to mount anywhere, and as `pages`. */
export interface HealthHandlers {
  /** Liveness: `200` while the process answers and the worker, if any, runs and ticks; else `503`. */
  readonly liveness: FetchHandler;
  /** Readiness: `200` while storage answers and the worker, if any, runs and is not failing; else `503`. */
  readonly readiness: FetchHandler;
  /** Both at `/healthz` and `/readyz` (undefined for any other path), for `pages` or `composePages`. */
  readonly pages: PagesHandler;
}

/**
 * How long an idle loop may go without ending a tick before liveness says it stalled: a few
 * intervals (a loop pauses one interval between ticks), and at least 5 s for event-loop lag.
 */
function idleLimitMs(intervalMs: number): number {
  return Math.max(3 * intervalMs, 5_000);
}

/**
 * How long one tick may run before liveness says it stalled: far beyond a slow but sound tick (an
 * inquiry of a hanging acquirer takes about 101 s with its retries). 10 minutes.
 */
const TICK_LIMIT_MS = 10 * 60_000;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A loop as the probes show it: times, counts and the failure's code, never the adapter's text. */
function loopView(loop: BackgroundLoopStatus<object>) {
  return {
    ticking: loop.ticking,
    ticks: loop.ticks,
    lastTickStartedAt: iso(loop.lastTickStartedAt),
    lastTickEndedAt: iso(loop.lastTickEndedAt),
    lastSuccessAt: iso(loop.lastSuccessAt),
    failuresInARow: loop.failuresInARow,
    lastFailureCode: loop.lastFailure?.code ?? null,
    moreWaiting: loop.moreWaiting,
  };
}

const loopsOf = (status: BackgroundWorkerStatus) =>
  [
    ['sweep', status.sweep],
    ['delivery', status.delivery],
  ] as const;

/**
 * Why the worker is not live, if it is not: it is stopping or stopped, or a loop has not ended a
 * tick within `idleLimitMs` while idle, or has been in one tick for longer than `TICK_LIMIT_MS`.
 * Failing ticks (storage down) do not count: a restart would not mend them; readiness reports them.
 */
function livenessProblems(status: BackgroundWorkerStatus): string[] {
  if (status.state !== 'running') return [`the background worker is ${status.state}`];
  const problems: string[] = [];
  for (const [name, loop] of loopsOf(status)) {
    if (loop.ticking) {
      const ms = status.at - (loop.lastTickStartedAt ?? status.startedAt);
      if (ms > TICK_LIMIT_MS) problems.push(`${name}: one tick has run for ${ms} ms`);
    } else {
      const ms = status.at - (loop.lastTickEndedAt ?? status.startedAt);
      if (ms > idleLimitMs(status.intervalMs)) problems.push(`${name}: no tick has ended for ${ms} ms`);
    }
  }
  return problems;
}

/** Why the worker keeps the instance from being ready: it is not running, or a loop keeps failing. */
function readinessProblems(status: BackgroundWorkerStatus, maxFailures: number): string[] {
  if (status.state !== 'running') return [`the background worker is ${status.state}`];
  return loopsOf(status)
    .filter(([, loop]) => loop.failuresInARow >= maxFailures)
    .map(
      ([name, loop]) => `${name}: ${loop.failuresInARow} ticks in a row failed (${loop.lastFailure?.code ?? 'defect'})`,
    );
}

/** A whole number option in `[min, max]`, or its default; a `RangeError` that names it otherwise. */
function wholeNumber(name: string, value: number | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} needs a whole number from ${min} to ${max} (got ${String(value)})`);
  }
  return value;
}

/** The answer to a method other than GET and HEAD. */
const methodNotAllowed = (): Response =>
  new Response(null, {
    status: 405,
    headers: { allow: 'GET, HEAD', 'content-length': '0', 'cache-control': 'no-store' },
  });

/**
 * Liveness and readiness probes as fetch handlers, or as `pages` at `/healthz` and `/readyz`:
 * `200` or `503` with a small JSON body and no secrets (embedding-http.md, "Health probes").
 * Throws a `RangeError` for an option out of range.
 */
export function createHealthHandlers(options: HealthHandlersOptions): HealthHandlers {
  const maxFailures =
    wholeNumber('maxFailuresInARow', options.maxFailuresInARow, 1, Number.MAX_SAFE_INTEGER) ??
    DEFAULT_MAX_FAILURES_IN_A_ROW;
  const timeoutMs = wholeNumber('timeoutMs', options.timeoutMs, 1, 2 ** 31 - 1);
  const { engine, worker } = options;
  const workerStatus = (): BackgroundWorkerStatus | undefined =>
    (typeof worker === 'function' ? worker() : worker)?.status();
  const json = (request: Request, healthy: boolean, body: Record<string, unknown>): Response =>
    toResponse(jsonAnswer(healthy ? 200 : 503, { status: healthy ? 'ok' : 'unavailable', ...body }), request.method);
  const allowed = (request: Request): boolean => request.method === 'GET' || request.method === 'HEAD';

  const liveness: FetchHandler = (request) => {
    if (!allowed(request)) return Promise.resolve(methodNotAllowed());
    const status = workerStatus();
    const problems = status === undefined ? [] : livenessProblems(status);
    return Promise.resolve(
      json(request, problems.length === 0, {
        ...(problems.length > 0 && { problems }),
        ...(status !== undefined && {
          worker: {
            state: status.state,
            intervalMs: status.intervalMs,
            sweep: loopView(status.sweep),
            delivery: loopView(status.delivery),
          },
        }),
      }),
    );
  };

  const readiness: FetchHandler = async (request) => {
    if (!allowed(request)) return methodNotAllowed();
    const report = await engine.checkHealth(timeoutMs === undefined ? {} : { timeoutMs }).match(
      (value) => value,
      (never) => never,
    );
    const status = workerStatus();
    const problems = status === undefined ? [] : readinessProblems(status, maxFailures);
    return json(request, report.storage.status === 'ok' && problems.length === 0, {
      storage: { status: report.storage.status, ms: report.storage.ms },
      ...(problems.length > 0 && { problems }),
    });
  };

  const pages: PagesHandler = (request) => {
    const path = new URL(request.url).pathname;
    if (path === LIVENESS_PATH) return liveness(request);
    if (path === READINESS_PATH) return readiness(request);
    return Promise.resolve(undefined);
  };

  return { liveness, readiness, pages };
}
