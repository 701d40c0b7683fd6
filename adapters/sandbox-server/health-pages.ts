import type { BackgroundLoopStatus, BackgroundWorkerStatus } from '../../src/engine/health.js';
import type { BackgroundWorker } from '../../src/engine/payment-engine.js';
import { type PagesHandler, jsonAnswer, toResponse } from '../http/index.js';
import type { PaymentEngine } from '../../src/engine/payment-engine.js';

/** The liveness path: the process serves, and its background worker still ticks. */
export const LIVENESS_PATH = '/healthz';

/** The readiness path: storage answers (`engine.checkHealth()`), and the server is not shutting down. */
export const READINESS_PATH = '/readyz';

/**
 * How long an idle loop may go without ending a tick before `/healthz` says it stalled: a few
 * intervals (a loop pauses one interval between ticks), and at least 5 s for event-loop lag.
 */
function idleLimitMs(intervalMs: number): number {
  return Math.max(3 * intervalMs, 5_000);
}

/**
 * How long one tick may run before `/healthz` says it stalled. A tick's port calls all have
 * time-outs, but a tick may legitimately take long: a hanging acquirer costs an inquiry its
 * time-out with its retries (about 101 s by default), and a tick runs up to `batchesPerTick`
 * batches while a backlog drains. A restart helps none of that, so only a tick far beyond it counts.
 */
const TICK_LIMIT_MS = 10 * 60_000;

/** The background worker of each sandbox app (`startSandboxServer` starts it), for `/healthz` and `/readyz`. */
const workers = new WeakMap<object, BackgroundWorker>();

/** What the health pages read of a sandbox app: its engine (the app itself keys its worker). */
export interface HealthPagesApp {
  readonly engine: Pick<PaymentEngine, 'checkHealth'>;
}

/** Makes `worker` the one the app's health pages report. */
export function attachWorker(app: HealthPagesApp, worker: BackgroundWorker): void {
  workers.set(app, worker);
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A loop as the health pages show it: times, counts and the failure's code, never the adapter's text. */
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

/**
 * Why the worker is not live, if it is not: it is stopping or stopped, or a loop has not ended a
 * tick within `idleLimitMs` while idle, or has been in one tick for longer than `TICK_LIMIT_MS`.
 * Failing ticks (storage down) do not count: a restart would not mend them; `/readyz` reports storage.
 */
function livenessProblems(status: BackgroundWorkerStatus): string[] {
  if (status.state !== 'running') return [`the background worker is ${status.state}`];
  const problems: string[] = [];
  for (const [name, loop] of [
    ['sweep', status.sweep],
    ['delivery', status.delivery],
  ] as const) {
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

/** A JSON answer as the API writes one (`no-store`, `nosniff`, `Content-Length`; no body for HEAD). */
function json(request: Request, status: number, body: unknown): Response {
  return toResponse(jsonAnswer(status, body), request.method);
}

/**
 * The sandbox's health probes, outside `/v1` and the pages (`/pay`, `/sandbox/issuer`, `/docs`),
 * without authentication, as JSON with `Cache-Control: no-store`, for `GET` and `HEAD` (any other
 * method is `405` with `Allow`). They say nothing secret: no tokens, no card data, no adapter
 * error text (the engine logs that), only states, times, counts and codes.
 *
 * - `/healthz` (liveness): `200` while the process serves and the background worker, when the
 *   server started one, is running and ticking (`livenessProblems`); `503` otherwise. It does not
 *   touch storage.
 * - `/readyz` (readiness): `200` when `engine.checkHealth()` finds storage answering, and the
 *   worker, if any, is not stopping (the server is closing); `503` otherwise.
 */
export function createHealthPages(app: HealthPagesApp): PagesHandler {
  return async (request) => {
    const path = new URL(request.url).pathname;
    if (path !== LIVENESS_PATH && path !== READINESS_PATH) return undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response(null, {
        status: 405,
        headers: { allow: 'GET, HEAD', 'content-length': '0', 'cache-control': 'no-store' },
      });
    }
    const worker = workers.get(app)?.status();
    if (path === LIVENESS_PATH) {
      const problems = worker === undefined ? [] : livenessProblems(worker);
      return json(request, problems.length === 0 ? 200 : 503, {
        status: problems.length === 0 ? 'ok' : 'unavailable',
        ...(problems.length > 0 && { problems }),
        ...(worker !== undefined && {
          worker: {
            state: worker.state,
            intervalMs: worker.intervalMs,
            sweep: loopView(worker.sweep),
            delivery: loopView(worker.delivery),
          },
        }),
      });
    }
    const report = (await app.engine.checkHealth()).match(
      (value) => value,
      (never) => never,
    );
    const closing = worker !== undefined && worker.state !== 'running';
    const ready = report.storage.status === 'ok' && !closing;
    return json(request, ready ? 200 : 503, {
      status: ready ? 'ok' : 'unavailable',
      storage: { status: report.storage.status, ms: report.storage.ms },
      ...(closing && { problems: ['the server is shutting down'] }),
    });
  };
}
