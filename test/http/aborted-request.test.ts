import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createExpressRouter, paystate } from '../../adapters/http/express/index.js';
import {
  createNodeRequestListener,
  createFetchHandler,
  createNodeListener,
  type FetchHandlerOptions,
} from '../../adapters/http/index.js';
import type { CredentialStore } from '../../src/ports/credential-store.js';
import { withHostedPage } from '../express/support/express-host.js';
import { makeApi, TOKENS, type ApiHarness } from './support/api-harness.js';

/** Opens once the test has seen the client go away: what stands between the request and paystate. */
interface Gate {
  readonly opened: Promise<void>;
  open(): void;
}

function gate(): Gate {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A credential store that answers only once the gate opens (a slow database, say). */
function gatedCredentials(inner: CredentialStore, until: Gate): CredentialStore {
  return {
    authenticate: async (token) => {
      await until.opened;
      return inner.authenticate(token);
    },
    findProfile: (profileId) => inner.findProfile(profileId),
  };
}

/** Host middleware in front of paystate that passes the request on once the gate opens. */
const gatedMiddleware =
  (until: Gate): RequestHandler =>
  (_req, _res, next) => {
    until.opened.then(() => next(), next);
  };

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (server === undefined) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
  server = undefined;
});

async function listen(listener: RequestListener): Promise<number> {
  server = createHttpServer(listener);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * Sends the head and the first bytes of a 500-byte body, and goes away once the server has the
 * request. Resolves when the server has seen the request closed.
 */
async function abortMidBody(port: number, path: string, contentType: string): Promise<void> {
  const arrived = new Promise<IncomingMessage>((resolve) => server?.once('request', resolve));
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKENS.alphaHosted}\r\n` +
      `Content-Type: ${contentType}\r\nContent-Length: 500\r\n\r\n{"method":`,
  );
  const req = await arrived;
  const closed = new Promise<void>((resolve) => req.once('close', resolve));
  socket.destroy();
  await closed;
}

const API_PATH = '/v1/profiles/profile_alpha_main/payments';
const requestLines = (api: ApiHarness) => api.logs.filter((line) => line.message === 'http request');

/** Counts the calls of a fetch handler (or pages) that settled. */
function counting<A, R>(handler: (arg: A) => Promise<R>) {
  const counts = { started: 0, settled: 0 };
  const wrapped = async (arg: A): Promise<R> => {
    counts.started += 1;
    try {
      return await handler(arg);
    } finally {
      counts.settled += 1;
    }
  };
  return { counts, wrapped };
}

describe('a request whose client went away before paystate read its body', () => {
  it('createNodeListener: the API finishes the request (it logs it) instead of waiting forever', async () => {
    const api = makeApi();
    const until = gate();
    const options: FetchHandlerOptions = {
      ...api.handlerOptions,
      credentials: gatedCredentials(api.handlerOptions.credentials, until),
    };
    const port = await listen(createNodeListener(options));
    await abortMidBody(port, API_PATH, 'application/json');
    until.open();
    await vi.waitFor(() => expect(requestLines(api)).toHaveLength(1));
    expect(api.repository.size()).toBe(0);
  });

  it('paystate() behind a slow host middleware: the API finishes the request', async () => {
    const api = makeApi();
    const until = gate();
    const app = express();
    app.use('/payments', gatedMiddleware(until), paystate(api.handlerOptions));
    const port = await listen(app);
    await abortMidBody(port, `/payments${API_PATH}`, 'application/json');
    until.open();
    await vi.waitFor(() => expect(requestLines(api)).toHaveLength(1));
  });

  it('paystate() behind a slow host middleware: the pages (a form post) settle', async () => {
    const api = makeApi();
    const until = gate();
    const options = withHostedPage(api);
    const pages = options.pages;
    if (pages === undefined) throw new Error('no pages');
    const counted = counting(pages);
    const app = express();
    app.use('/shop', gatedMiddleware(until), paystate({ ...options, pages: counted.wrapped }));
    const port = await listen(app);
    await abortMidBody(port, '/shop/pay/payment_x', 'application/x-www-form-urlencoded');
    until.open();
    await vi.waitFor(() => expect(counted.counts).toEqual({ started: 1, settled: 1 }));
  });

  it('createExpressRouter(handler) behind a slow host middleware: the fetch handler settles', async () => {
    const api = makeApi();
    const until = gate();
    const counted = counting(createFetchHandler(api.handlerOptions));
    const app = express();
    app.use(gatedMiddleware(until), createExpressRouter(counted.wrapped));
    const port = await listen(app);
    await abortMidBody(port, API_PATH, 'application/json');
    until.open();
    await vi.waitFor(() => expect(counted.counts).toEqual({ started: 1, settled: 1 }));
    expect(requestLines(api)).toHaveLength(1);
  });

  it('createNodeRequestListener(handler) with a slow credential store: the fetch handler settles', async () => {
    const api = makeApi();
    const until = gate();
    const counted = counting(
      createFetchHandler({
        ...api.handlerOptions,
        credentials: gatedCredentials(api.handlerOptions.credentials, until),
      }),
    );
    const port = await listen(createNodeRequestListener(counted.wrapped));
    await abortMidBody(port, API_PATH, 'application/json');
    until.open();
    await vi.waitFor(() => expect(counted.counts).toEqual({ started: 1, settled: 1 }));
  });
});
