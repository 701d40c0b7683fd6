import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPaymentRepository } from '../../adapters/memory/index.js';
import {
  createHealthHandlers,
  createNodeRequestListener,
  type FetchHandler,
  type HealthHandlersOptions,
} from '../../adapters/http/index.js';
import type { BackgroundWorker, RepositoryError } from '../../src/index.js';
import { engineOver, makeApi } from './support/api-harness.js';
import { call, type Answer } from './support/client.js';

/** An adapter failure holding what a probe must never show: a password and a card number. */
const LEAKY: RepositoryError = {
  code: 'unavailable',
  message: 'cannot reach postgres://paystate:s3cret-pw@db.internal/pay for card 4242424242424242',
  retryable: false,
};

const servers: Server[] = [];
const workers: BackgroundWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Storage that fails every call of `failing` methods while `state.down` is true. */
function storage(failing: readonly string[]) {
  const state = { down: false };
  const repository = createMemoryPaymentRepository({
    failOn: (method) => (state.down && failing.includes(method) ? LEAKY : null),
  });
  return { state, repository };
}

/** The handlers mounted on their own routes (`/live`, `/ready`) of a node:http server, over a socket. */
async function serveProbes(options: HealthHandlersOptions): Promise<string> {
  const { liveness, readiness } = createHealthHandlers(options);
  const routes: Record<string, FetchHandler> = { '/live': liveness, '/ready': readiness };
  const handler: FetchHandler = (request) =>
    routes[new URL(request.url).pathname]?.(request) ?? Promise.resolve(new Response(null, { status: 404 }));
  const server = createServer(createNodeRequestListener(handler));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function expectProbe(answer: Answer, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.text).not.toMatch(/s3cret|4242|postgres:|db\.internal/);
}

describe('createHealthHandlers, mounted on routes of a node:http server', () => {
  it('without a worker: liveness 200, readiness 200 while storage answers and 503 while it fails', async () => {
    const api = makeApi();
    const { state, repository } = storage(['load']);
    const origin = await serveProbes({ engine: engineOver(api, repository) });
    const live = await call(`${origin}/live`);
    expectProbe(live, 200);
    expect(live.json).toEqual({ status: 'ok' });
    const ready = await call(`${origin}/ready`);
    expectProbe(ready, 200);
    expect(ready.json).toEqual({ status: 'ok', storage: { status: 'ok', ms: expect.any(Number) } });

    state.down = true;
    const down = await call(`${origin}/ready`);
    expectProbe(down, 503);
    expect(down.json).toEqual({ status: 'unavailable', storage: { status: 'unavailable', ms: expect.any(Number) } });
    expectProbe(await call(`${origin}/live`), 200);

    state.down = false;
    expectProbe(await call(`${origin}/ready`), 200);
  });

  it('answers HEAD without a body and any other method 405 with Allow', async () => {
    const api = makeApi();
    const origin = await serveProbes({ engine: api.engine });
    for (const path of ['/live', '/ready']) {
      const head = await call(`${origin}${path}`, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(head.text, path).toBe('');
      const post = await call(`${origin}${path}`, { method: 'POST', body: '{}' });
      expect(post.status, path).toBe(405);
      expect(post.headers['allow'], path).toBe('GET, HEAD');
    }
  });

  it('with a worker: both 503 once it is stopped', async () => {
    const api = makeApi();
    const worker = api.engine.startBackgroundWorker({ intervalMs: 10 });
    workers.push(worker);
    const origin = await serveProbes({ engine: api.engine, worker });
    const live = await call(`${origin}/live`);
    expectProbe(live, 200);
    expect(live.json.worker).toMatchObject({ state: 'running', sweep: { failuresInARow: 0 } });
    expectProbe(await call(`${origin}/ready`), 200);

    await worker.stop();
    const stoppedLive = await call(`${origin}/live`);
    expectProbe(stoppedLive, 503);
    expect(stoppedLive.json.problems).toEqual(['the background worker is stopped']);
    const stoppedReady = await call(`${origin}/ready`);
    expectProbe(stoppedReady, 503);
    expect(stoppedReady.json).toEqual({
      status: 'unavailable',
      storage: { status: 'ok', ms: expect.any(Number) },
      problems: ['the background worker is stopped'],
    });
  });

  it('with a worker whose ticks keep failing: readiness 503 from maxFailuresInARow on, liveness stays 200', async () => {
    const api = makeApi();
    // The probe's read works; the sweeper's and the outbox's fail.
    const { state, repository } = storage(['findDue', 'readOutbox']);
    const engine = engineOver(api, repository);
    const worker = engine.startBackgroundWorker({ intervalMs: 10 });
    workers.push(worker);
    const strict = await serveProbes({ engine, worker, maxFailuresInARow: 2 });
    const lenient = await serveProbes({ engine, worker: () => worker, maxFailuresInARow: 1_000_000 });
    expectProbe(await call(`${strict}/ready`), 200);

    state.down = true;
    await vi.waitFor(() => expect(worker.status().sweep.failuresInARow).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
    const ready = await call(`${strict}/ready`);
    expectProbe(ready, 503);
    expect(ready.json.storage.status).toBe('ok');
    expect(ready.json.problems).toContainEqual(
      expect.stringMatching(/^sweep: \d+ ticks in a row failed \(unavailable\)$/),
    );
    const live = await call(`${strict}/live`);
    expectProbe(live, 200);
    expect(live.json.worker.sweep.lastFailureCode).toBe('unavailable');
    expectProbe(await call(`${lenient}/ready`), 200);

    state.down = false;
    await vi.waitFor(() => expect(worker.status().sweep.failuresInARow).toBe(0), { timeout: 5_000 });
    await vi.waitFor(() => expect(worker.status().delivery.failuresInARow).toBe(0), { timeout: 5_000 });
    expectProbe(await call(`${strict}/ready`), 200);
  });

  it('serves both as pages at /healthz and /readyz, and nothing else', async () => {
    const api = makeApi();
    const { pages } = createHealthHandlers({ engine: api.engine });
    expect((await pages(new Request('http://x/healthz')))?.status).toBe(200);
    expect((await pages(new Request('http://x/readyz')))?.status).toBe(200);
    expect(await pages(new Request('http://x/health'))).toBeUndefined();
  });

  it('refuses options out of range with a RangeError that names them', () => {
    const { engine } = makeApi();
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => createHealthHandlers({ engine, maxFailuresInARow: bad })).toThrow(/^maxFailuresInARow needs/);
      expect(() => createHealthHandlers({ engine, timeoutMs: bad })).toThrow(/^timeoutMs needs/);
    }
    expect(() => createHealthHandlers({ engine, timeoutMs: 2 ** 31 })).toThrow(RangeError);
    expect(() => createHealthHandlers({ engine, timeoutMs: 1_500, maxFailuresInARow: 1 })).not.toThrow();
  });
});
