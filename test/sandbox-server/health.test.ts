import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMemoryCredentialStore,
  createMemoryIdempotencyStore,
  createMemoryPaymentRepository,
  createTestClock,
  type MemoryPaymentRepositoryOptions,
} from '../../adapters/memory/index.js';
import {
  BUNDLED_SANDBOX_CONFIG,
  startSandboxServer,
  type SandboxServer,
  type SandboxServerOptions,
  type SandboxStorage,
} from '../../adapters/sandbox-server/index.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import { call, type Answer } from '../http/support/client.js';

/** An adapter message holding what a health page must never show: a password and a card number. */
const LEAKY = {
  code: 'unavailable',
  message: 'cannot reach postgres://paystate:s3cret-pw@db.internal/pay for card 4242424242424242',
  retryable: false,
} as const;

let server: SandboxServer<SandboxStorage> | undefined;
const gates: Array<() => void> = [];
afterEach(async () => {
  for (const open of gates.splice(0)) open();
  await server?.close();
  server = undefined;
});

/** Memory storage with the bundled config, its repository built with `options` and then wrapped by `wrap`. */
function memoryStorage(
  options: MemoryPaymentRepositoryOptions = {},
  wrap: (repository: PaymentRepository) => PaymentRepository = (repository) => repository,
): SandboxStorage {
  const repository = createMemoryPaymentRepository(options);
  return {
    repository: wrap(repository),
    credentials: createMemoryCredentialStore(BUNDLED_SANDBOX_CONFIG),
    idempotency: createMemoryIdempotencyStore(),
  };
}

/** A promise that settles when the test ends (or earlier, by `open`). */
function gate(): { readonly opened: Promise<void>; open(): void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  gates.push(open);
  return { opened, open };
}

async function start(options: SandboxServerOptions<SandboxStorage> = {}): Promise<SandboxServer<SandboxStorage>> {
  const started = await startSandboxServer<SandboxStorage>({ port: 0, ...options });
  server = started;
  return started;
}

/** The probe answers' common form: JSON, never cached or sniffed. */
function expectProbeHeaders(answer: Answer): void {
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
}

/** Nothing secret in a probe answer: no token of the config, no card data, no adapter text. */
function expectNothingSecret(answer: Answer): void {
  for (const client of BUNDLED_SANDBOX_CONFIG.clients) expect(answer.text).not.toContain(client.token);
  expect(answer.text).not.toMatch(/4242|s3cret|postgres:|db\.internal/);
}

const wait = { timeout: 5_000, interval: 10 } as const;

describe('the sandbox server: GET /healthz and /readyz', () => {
  it('answers 200 with JSON to both, without authentication, once the worker has ticked', async () => {
    const s = await start({ sweepIntervalMs: 20 });
    await vi.waitFor(() => expect(s.worker.status().delivery.ticks).toBeGreaterThanOrEqual(1), wait);

    const live = await call(`${s.url}/healthz`);
    expect(live.status).toBe(200);
    expectProbeHeaders(live);
    expect(live.json).toMatchObject({
      status: 'ok',
      worker: {
        state: 'running',
        intervalMs: 20,
        sweep: { failuresInARow: 0, lastFailureCode: null },
        delivery: { failuresInARow: 0, lastFailureCode: null, lastSuccessAt: expect.any(String) },
      },
    });
    expect(live.json.problems).toBeUndefined();
    expect(new Date(live.json.worker.delivery.lastTickEndedAt as string).getTime()).not.toBeNaN();
    expectNothingSecret(live);

    const ready = await call(`${s.url}/readyz`);
    expect(ready.status).toBe(200);
    expectProbeHeaders(ready);
    expect(ready.json).toEqual({ status: 'ok', storage: { status: 'ok', ms: expect.any(Number) } });
    expectNothingSecret(ready);

    // A bearer token changes nothing, a wrong one included: the probes do not authenticate.
    const withToken = await call(`${s.url}/readyz`, { headers: { authorization: 'Bearer not_a_token' } });
    expect(withToken.status).toBe(200);
  });

  it('answers HEAD with the status and headers of GET and no body', async () => {
    const s = await start();
    for (const path of ['/healthz', '/readyz']) {
      const head = await call(`${s.url}${path}`, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expectProbeHeaders(head);
      expect(head.text).toBe('');
      const get = await call(`${s.url}${path}`);
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
    }
  });

  it('answers any other method 405 with Allow: GET, HEAD', async () => {
    const s = await start();
    for (const path of ['/healthz', '/readyz']) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        const answer = await call(`${s.url}${path}`, { method, body: method === 'OPTIONS' ? undefined : '{}' });
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(answer.headers['allow']).toBe('GET, HEAD');
        expect(answer.headers['cache-control']).toBe('no-store');
      }
    }
  });

  it('leaves the API, the pages and other paths as they were', async () => {
    const s = await start();
    expect((await call(`${s.url}/healthz/`)).status).toBe(404);
    expect((await call(`${s.url}/v1/healthz`)).status).toBe(404);
    expect((await call(`${s.url}/readyz?verbose=1`)).status).toBe(200);
    const list = await call(`${s.url}/v1/profiles/profile_webshop/payments`);
    expect(list.status).toBe(401);
    expect((await call(`${s.url}/docs`)).status).toBe(200);
  });
});

describe('the sandbox server: /readyz when storage fails', () => {
  it('answers 503 while storage fails, without the adapter text, and 200 again once it answers; /healthz stays 200', async () => {
    let failing = true;
    const s = await start({
      storage: memoryStorage({ failOn: (method) => (failing && method === 'load' ? LEAKY : null) }),
    });
    const ready = await call(`${s.url}/readyz`);
    expect(ready.status).toBe(503);
    expectProbeHeaders(ready);
    expect(ready.json).toEqual({ status: 'unavailable', storage: { status: 'unavailable', ms: expect.any(Number) } });
    expectNothingSecret(ready);

    const live = await call(`${s.url}/healthz`);
    expect(live.status).toBe(200);

    failing = false;
    expect((await call(`${s.url}/readyz`)).status).toBe(200);
  });

  it('answers 503 by the storage time-out when storage hangs', async () => {
    const hanging = gate();
    const s = await start({
      engineOptions: { timeouts: { storageMs: 50 } },
      storage: memoryStorage({}, (repository) => ({
        ...repository,
        load: async (id: string) => {
          await hanging.opened;
          return repository.load(id);
        },
      })),
    });
    const ready = await call(`${s.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.json.storage.status).toBe('unavailable');
  });

  it('answers /healthz 200 while the worker ticks and fails (a restart would not mend storage), showing the failure code only', async () => {
    const s = await start({
      sweepIntervalMs: 10,
      storage: memoryStorage({ failOn: (method) => (method === 'findDue' ? LEAKY : null) }),
    });
    await vi.waitFor(() => expect(s.worker.status().sweep.failuresInARow).toBeGreaterThanOrEqual(2), wait);
    const live = await call(`${s.url}/healthz`);
    expect(live.status).toBe(200);
    expect(live.json.worker.sweep.failuresInARow).toBeGreaterThanOrEqual(2);
    expect(live.json.worker.sweep.lastFailureCode).toBe('unavailable');
    expect(live.json.worker.sweep.lastSuccessAt).toBeNull();
    expectNothingSecret(live);
  });
});

describe('the sandbox server: /healthz when the worker stalls', () => {
  it('answers 503 once an idle loop has not ended a tick for a few intervals', async () => {
    const clock = createTestClock();
    // One tick each at the start; the next would be a minute later, in real time.
    const s = await start({ clock, sweepIntervalMs: 60_000 });
    await vi.waitFor(() => {
      const status = s.worker.status();
      expect(status.sweep.ticks).toBe(1);
      expect(status.delivery.ticks).toBe(1);
    }, wait);
    clock.advance(180_000);
    expect((await call(`${s.url}/healthz`)).status).toBe(200);
    clock.advance(1);
    const stalled = await call(`${s.url}/healthz`);
    expect(stalled.status).toBe(503);
    expectProbeHeaders(stalled);
    expect(stalled.json).toMatchObject({
      status: 'unavailable',
      problems: ['sweep: no tick has ended for 180001 ms', 'delivery: no tick has ended for 180001 ms'],
      worker: { state: 'running' },
    });
    // Liveness is not readiness: storage still answers.
    expect((await call(`${s.url}/readyz`)).status).toBe(200);
  });

  it('answers 503 once one tick has run for over ten minutes, and 200 while it has not', async () => {
    const clock = createTestClock();
    const hanging = gate();
    let asked = false;
    const s = await start({
      clock,
      // Delivery, idle after its first tick, is due to tick again only after 15 minutes.
      sweepIntervalMs: 300_000,
      engineOptions: { timeouts: { storageMs: 30_000 }, retries: 0 },
      storage: memoryStorage({}, (repository) => ({
        ...repository,
        findDue: async (query) => {
          asked = true;
          await hanging.opened;
          return repository.findDue(query);
        },
      })),
    });
    await vi.waitFor(() => expect(asked).toBe(true), wait);
    expect(s.worker.status().sweep.ticking).toBe(true);
    clock.advance(10 * 60_000);
    expect((await call(`${s.url}/healthz`)).status).toBe(200);
    clock.advance(1);
    const stalled = await call(`${s.url}/healthz`);
    expect(stalled.status).toBe(503);
    expect(stalled.json.problems).toEqual(['sweep: one tick has run for 600001 ms']);
    expect(stalled.json.worker.sweep.ticking).toBe(true);
    hanging.open();
  });

  it('answers 503 to both once the server is closing and its worker stopping or stopped', async () => {
    const s = await start();
    const closed = s.close();
    const live = await s.handler(new Request(`${s.url}/healthz`));
    const ready = await s.handler(new Request(`${s.url}/readyz`));
    await closed;
    expect(live.status).toBe(503);
    expect(((await live.json()) as { problems: string[] }).problems[0]).toMatch(
      /^the background worker is (stopping|stopped)$/,
    );
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      status: 'unavailable',
      storage: { status: 'ok', ms: expect.any(Number) },
      problems: [expect.stringMatching(/^the background worker is (stopping|stopped)$/)],
    });
    server = undefined;
  });
});
