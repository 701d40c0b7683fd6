import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryCredentialStore,
  createMemoryIdempotencyStore,
  createMemoryPaymentRepository,
} from '../../adapters/memory/index.js';
import {
  BUNDLED_SANDBOX_CONFIG,
  startSandboxServer,
  type MemorySandboxStorage,
  type SandboxServer,
} from '../../adapters/sandbox-server/index.js';
import { call, post } from '../http/support/client.js';
import { hostedRequest } from '../support/requests.js';

/**
 * Found in review: while `startSandboxServer`'s storage function ran (`paystate demo
 * --database-url` migrating, which may wait minutes for another instance's lock), the health
 * probes waited with every other request, so an orchestrator's probe timed out and restarted a
 * process that was only starting; and when the storage function rejected, the requests that had
 * waited had their connections cut without an answer.
 */
const HOSTED = 'sandbox_hosted_only_token';

let server: SandboxServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function memoryStorage(): MemorySandboxStorage {
  return {
    repository: createMemoryPaymentRepository(),
    credentials: createMemoryCredentialStore(BUNDLED_SANDBOX_CONFIG),
    idempotency: createMemoryIdempotencyStore(),
  };
}

/** A loopback port found free. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/** A storage function held until `release` or `fail` is called; `called` resolves once it runs (listening). */
function heldStorage() {
  let release: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  let called: () => void = () => undefined;
  const running = new Promise<void>((resolve) => (called = resolve));
  const storage = () =>
    new Promise<MemorySandboxStorage>((resolve, reject) => {
      called();
      release = () => resolve(memoryStorage());
      fail = reject;
    });
  return { storage, running, release: () => release(), fail: (error: Error) => fail(error) };
}

/** A server started on a free port with held storage, once listening, and a list request sent to it. */
async function startHeld() {
  const port = await freePort();
  const held = heldStorage();
  const starting = startSandboxServer<MemorySandboxStorage>({ port, storage: held.storage });
  await held.running;
  const base = `http://127.0.0.1:${port}`;
  const list = call(`${base}/v1/profiles/profile_webshop/payments`, {
    headers: { authorization: `Bearer ${HOSTED}` },
  });
  return { port, held, starting, base, list };
}

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = promise.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('startSandboxServer while its storage is being made', () => {
  it('answers the health probes at once (/healthz 200, /readyz 503) while API requests wait', async () => {
    const { held, starting, base, list } = await startHeld();
    const liveness = call(`${base}/healthz`);
    const readiness = call(`${base}/readyz?verbose=1`);
    const head = call(`${base}/healthz`, { method: 'HEAD' });
    expect(await settlesWithin(Promise.all([liveness, readiness, head]), 2_000)).toBe(true);
    expect(await settlesWithin(list, 200)).toBe(false);

    expect(await liveness).toMatchObject({ status: 200, json: { status: 'ok' } });
    expect((await liveness).headers['cache-control']).toBe('no-store');
    expect((await liveness).headers['request-id']).toMatch(/^req_/);
    expect(await readiness).toMatchObject({
      status: 503,
      json: { status: 'unavailable', problems: ['the server is starting: its storage is being made'] },
    });
    expect(await head).toMatchObject({ status: 200, text: '' });

    held.release();
    server = await starting;
    expect((await list).status).toBe(200);
    expect((await call(`${server.url}/readyz`)).status).toBe(200);
    expect((await post(`${server.url}/v1/profiles/profile_webshop/payments`, HOSTED, hostedRequest())).status).toBe(
      201,
    );
  });

  it('when it rejects, answers the requests that waited 503 unavailable, and frees the port', async () => {
    const { port, held, starting, base, list } = await startHeld();
    const create = call(`${base}/v1/profiles/profile_webshop/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${HOSTED}`, 'content-type': 'application/json' },
      body: hostedRequest(),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    held.fail(new Error('no database at postgres://user:secret@db/x'));
    await expect(starting).rejects.toThrow('no database');
    for (const answer of [await list, await create]) {
      expect(answer).toMatchObject({
        status: 503,
        json: { code: 'unavailable', detail: 'The server could not start: its storage could not be made' },
      });
      expect(answer.headers['connection']).toBe('close');
      expect(answer.text).not.toContain('secret');
    }
    const again = createServer();
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => again.close(resolve));
  });
});
