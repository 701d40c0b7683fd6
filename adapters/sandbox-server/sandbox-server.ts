import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestIdSource, answerClientErrors } from '../http/index.js';
import { systemClock } from '../node/index.js';
import { createWebhookEventSink } from '../webhooks/index.js';
import type { BackgroundWorker } from '../../src/engine/payment-engine.js';
import { silentLogger } from '../../src/ports/logger.js';
import { answerProbeWhileStarting, answerStartFailed } from './start-up-answers.js';
import {
  attachWorker,
  createSandboxApp,
  type MemorySandboxStorage,
  type SandboxApp,
  type SandboxAppOptions,
  type SandboxStorage,
} from './sandbox-app.js';

/**
 * Options of `startSandboxServer`: those of `createSandboxApp` (its `baseUrl` is the server's own),
 * `storage` made once it listens if need be, and how to listen.
 */
export interface SandboxServerOptions<S extends SandboxStorage = MemorySandboxStorage> extends Omit<
  SandboxAppOptions<S>,
  'baseUrl' | 'storage'
> {
  /**
   * Storage instead of memory, or a function making it once the server listens (requests wait, but
   * for the health probes); when it rejects, waiting requests get 503 and the server stops.
   */
  readonly storage?: S | (() => Promise<S>);
  /** Default 3000; 0 picks a free port. */
  readonly port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  readonly host?: string;
  /**
   * The origin browsers reach the sandbox at (`https://pay.example`), for the hosted page and
   * challenge URLs, when it is not the address it listens on: instances behind a load balancer.
   * Default `http://{host}:{port}`. A `TypeError` unless an http(s) origin without path or query.
   */
  readonly publicUrl?: string;
  /**
   * How often the sweeper (expiries, inquiries, event delivery) runs. Default `sweep_interval_ms`
   * of `schedules` (or of the config's), else 1000 ms.
   */
  readonly sweepIntervalMs?: number;
  /** How long `close` waits for requests in flight before cutting connections. Default 5000 ms. */
  readonly shutdownGraceMs?: number;
  /**
   * How long a client may take to send a whole request, headers and body, before it gets a 408
   * problem document (a slow client holds a connection for no longer). Default 30000 ms; Node's
   * own default is five minutes; 0 turns the limit off.
   */
  readonly requestTimeoutMs?: number;
}

/** A running sandbox: its URL, everything it is made of (for tests and tools), and `close`. */
export interface SandboxServer<S extends SandboxStorage = MemorySandboxStorage> extends SandboxApp<S> {
  /** Where it listens, e.g. `http://127.0.0.1:3000` (its pages' links use `publicUrl` when given). */
  readonly url: string;
  /** The port it listens on (the one picked when `port` was 0). */
  readonly port: number;
  /**
   * The engine's background worker (sweeper and event delivery) the server runs: its `status()` is
   * what `GET /healthz` reports; `close` stops it.
   */
  readonly worker: BackgroundWorker;
  /** Stops accepting connections, lets requests in flight finish, stops the sweeper. Idempotent. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** The origin of a `publicUrl`, or a `TypeError` naming what is wrong with it. */
function checkPublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`publicUrl is not a URL (got ${JSON.stringify(text.slice(0, 100))})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('publicUrl must be http or https');
  if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new TypeError('publicUrl must be an origin alone (scheme, host, port): no path, query or credentials');
  }
  return url.origin;
}

/**
 * Starts the sandbox server (docs/http-api.md, The sandbox) on node:http with its background worker and
 * health probes; resolves once it listens and its storage is made.
 */
export async function startSandboxServer<S extends SandboxStorage = MemorySandboxStorage>(
  options: SandboxServerOptions<S> = {},
): Promise<SandboxServer<S>> {
  const {
    port,
    host = '127.0.0.1',
    sweepIntervalMs,
    shutdownGraceMs,
    requestTimeoutMs,
    storage,
    publicUrl,
    ...appOptions
  } = options;
  const publicOrigin = publicUrl === undefined ? undefined : checkPublicUrl(publicUrl);
  let baseUrl = '';
  const makeApp = (made: S | undefined): SandboxApp<S> =>
    createSandboxApp<S>({ ...appOptions, ...(made !== undefined && { storage: made }), baseUrl: () => baseUrl });
  const makeStorage = typeof storage === 'function' ? (storage as () => Promise<S>) : undefined;
  let app: SandboxApp<S> | undefined = makeStorage === undefined ? makeApp(storage as S | undefined) : undefined;
  // Built once the storage is made; a bad webhook is still refused before listening.
  if (app === undefined && options.webhook !== undefined) {
    createWebhookEventSink({ ...options.webhook, clock: options.clock ?? systemClock });
  }
  // Requests that come before the app is built wait for it (health probes are answered at once).
  const waiting: [IncomingMessage, ServerResponse][] = [];
  const requestIds = requestIdSource(options.requestId, options.logger ?? silentLogger);
  const requestTimeout = requestTimeoutMs ?? 30_000;
  const server = createServer(
    requestTimeout > 0
      ? {
          requestTimeout,
          headersTimeout: Math.min(requestTimeout, 10_000),
          // How often Node checks those limits (its default is 30 s).
          connectionsCheckingInterval: Math.min(1_000, requestTimeout),
        }
      : { requestTimeout: 0 },
    (req, res) => {
      if (app !== undefined) app.listener(req, res);
      else if (!answerProbeWhileStarting(req, res, requestIds())) waiting.push([req, res]);
    },
  );
  answerClientErrors(server, requestIds);

  let closing: Promise<void> | undefined;
  // The answers of requests in flight when `close` is called say `Connection: close`, and a
  // connection is closed once its answer is sent: the shutdown waits for the requests, not for
  // `shutdownGraceMs` on the keep-alive connections they leave behind.
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    inFlight.add(response);
    response.once('close', () => {
      inFlight.delete(response);
      if (closing !== undefined) server.closeIdleConnections();
    });
  });

  server.listen(port ?? 3000, host);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  baseUrl = publicOrigin ?? `http://${urlHost(host)}:${address.port}`;
  if (app === undefined) {
    try {
      app = makeApp(await (makeStorage as () => Promise<S>)());
    } catch (error) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // The requests that waited get an answer, not a connection cut without one.
      for (const [req, res] of waiting.splice(0)) answerStartFailed(req, res, requestIds());
      server.closeAllConnections();
      await closed;
      throw error;
    }
    for (const [req, res] of waiting.splice(0)) app.listener(req, res);
  }
  const built = app;

  const worker = built.engine.startBackgroundWorker({
    intervalMs: sweepIntervalMs ?? (options.schedules ?? options.config?.schedules)?.sweep_interval_ms ?? 1000,
  });
  attachWorker(built, worker);
  const purge = setInterval(() => {
    void built
      .housekeep(built.clock.now())
      .then(undefined, (error: unknown) =>
        built.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'housekeeping failed'),
      );
  }, 60_000);
  purge.unref();

  const close = (): Promise<void> => {
    closing ??= (async () => {
      clearInterval(purge);
      for (const response of inFlight) if (!response.headersSent) response.setHeader('connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), shutdownGraceMs ?? 5000);
      force.unref();
      // The worker stops while requests finish (each waits up to 5 s), not after them.
      await Promise.all([closed.then(() => clearTimeout(force)), worker.stop()]);
    })();
    return closing;
  };

  return { ...built, url: `http://${urlHost(host)}:${address.port}`, port: address.port, worker, close };
}
