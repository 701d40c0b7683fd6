import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebhookEventSink, DEFAULT_WEBHOOK_TIMEOUT_MS } from '../../adapters/webhooks/index.js';
import type { EventSinkError } from '../../src/index.js';
import { makeEvent, makeSucceededRecord } from '../contracts/fixtures.js';
import { SECRET } from './support/webhook-engine.js';

/**
 * A TCP server that takes every connection, reads the request, and never answers a byte: a
 * receiver that holds a webhook call for as long as the sink lets it.
 */
interface SilentServer {
  readonly origin: string;
  readonly host: string;
  /** Resolves once a connection has sent some bytes (the request is on its way). */
  readonly requested: Promise<void>;
  /** Resolves once that connection was closed by the sink. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let requested!: () => void;
  let closed!: () => void;
  const requestedPromise = new Promise<void>((resolve) => (requested = resolve));
  const closedPromise = new Promise<void>((resolve) => (closed = resolve));
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => requested());
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      closed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requested: requestedPromise,
    closed: closedPromise,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let server: SilentServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

const sinkTo = (origin: string, timeoutMs?: number) =>
  createWebhookEventSink({
    url: `${origin}/hooks`,
    secrets: SECRET,
    allowInsecureHttp: true,
    allowPrivateNetworks: true,
    ...(timeoutMs !== undefined && { timeoutMs }),
  });

const timedOut = (host: string, ms: number): EventSinkError => ({
  code: 'unavailable',
  message: `Webhook endpoint ${host} did not answer within ${ms} ms`,
  retryable: true,
});

/** Lets real I/O run (`setImmediate` is never faked here) until `done()` or `turns` run out. */
async function runIo(done: () => boolean, turns = 200): Promise<void> {
  for (let turn = 0; turn < turns && !done(); turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('a webhook call without an abort signal has a time limit', () => {
  it('is 10 s unless timeoutMs says otherwise', () => {
    expect(DEFAULT_WEBHOOK_TIMEOUT_MS).toBe(10_000);
  });

  it('a receiver that takes the connection and never answers is cut off at timeoutMs, as a retryable failure', async () => {
    server = await startSilentServer();
    const started = performance.now();
    // No signal: as a host calling publish itself, outside the engine, would.
    const answer = await sinkTo(server.origin, 150).publish(makeEvent(makeSucceededRecord(), 'payment.succeeded'));
    expect(answer._unsafeUnwrapErr()).toEqual(timedOut(server.host, 150));
    expect(performance.now() - started).toBeLessThan(5_000);
    await server.closed; // the sink let go of the connection
  });

  it('without timeoutMs, the default applies: nothing at 9,999 ms, a retryable failure naming 10000 ms at 10 s', async () => {
    server = await startSilentServer();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let settled = false;
    const answer = sinkTo(server.origin).publish(makeEvent(makeSucceededRecord(), 'payment.succeeded'));
    void Promise.resolve(answer).then(() => (settled = true));
    await server.requested; // over a real socket: the request is sent, and no answer comes
    // The number itself, so that code without the default fails for the time limit, not the name.
    vi.advanceTimersByTime(9_999);
    await runIo(() => settled, 20);
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    await runIo(() => settled);
    expect(settled).toBe(true);
    expect((await answer)._unsafeUnwrapErr()).toEqual(timedOut(server.host, 10_000));
    vi.useRealTimers();
    await server.closed;
  });

  it('the engine signal still aborts first when it comes before the time-out', async () => {
    server = await startSilentServer();
    const controller = new AbortController();
    const answer = sinkTo(server.origin).publish(makeEvent(makeSucceededRecord(), 'payment.succeeded'), {
      signal: controller.signal,
    });
    await server.requested;
    controller.abort(new DOMException('The event sink took too long', 'TimeoutError'));
    expect((await answer)._unsafeUnwrapErr()).toEqual({
      code: 'unavailable',
      message: `Webhook call to ${server.host} was aborted: the engine stopped waiting`,
      retryable: true,
    });
    await server.closed;
  });
});
