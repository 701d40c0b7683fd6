import type { BackgroundWorker, PaymentEngine } from '../../src/engine/payment-engine.js';
import { createHealthHandlers, type PagesHandler } from '../http/index.js';

export { LIVENESS_PATH, READINESS_PATH } from '../http/index.js';

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

/**
 * The sandbox's `/healthz` (liveness) and `/readyz` (readiness) over its engine and worker; a
 * stopping worker makes both `503`.
 */
export function createHealthPages(app: HealthPagesApp): PagesHandler {
  return createHealthHandlers({ engine: app.engine, worker: () => workers.get(app) }).pages;
}
