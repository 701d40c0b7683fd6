import type { IncomingMessage, RequestListener } from 'node:http';
import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createExpressRouter, createServer, paystate } from '../../adapters/http/express/index.js';
import {
  createNodeRequestListener,
  createFetchHandler,
  createNodeListener,
  type FetchHandlerOptions,
} from '../../adapters/http/index.js';
import { makeApi, type ApiHarness } from '../http/support/api-harness.js';
import { closeAll, listenApp, payOnHostedPage, withHostedPage } from './support/express-host.js';

afterEach(closeAll);

type Mount = (options: FetchHandlerOptions, configure: (app: Express) => void) => Express;

const MOUNTS: readonly (readonly [string, Mount])[] = [
  [
    'paystate(options)',
    (options, configure) => {
      const app = express();
      configure(app);
      app.use(paystate(options));
      return app;
    },
  ],
  [
    'createExpressRouter(handler)',
    (options, configure) => {
      const app = express();
      configure(app);
      app.use(createExpressRouter(createFetchHandler(options)));
      return app;
    },
  ],
  [
    'createServer(options)',
    (options, configure) => {
      const app = createServer(options);
      configure(app);
      return app;
    },
  ],
];

async function ipSentTo3DS(api: ApiHarness, origin: string, headers: Record<string, string>): Promise<unknown> {
  const paid = await payOnHostedPage(origin, '4000000000003055', headers);
  expect(paid.status).toBe(303);
  return (await api.engine.getPaymentRecord(paid.paymentId))._unsafeUnwrap().browser?.ip_address;
}

describe.each(MOUNTS)('the cardholder IP the hosted page gets through %s', (_name, mount) => {
  const harness = async (configure: (app: Express) => void = () => undefined) => {
    const api = makeApi();
    return { api, origin: await listenApp(mount(withHostedPage(api), configure)) };
  };

  it('is the socket address, whatever X-Paystate-Client-IP the client sends', async () => {
    const { api, origin } = await harness();
    expect(await ipSentTo3DS(api, origin, { 'x-paystate-client-ip': '203.0.113.66' })).toBe('127.0.0.1');
  });

  it('ignores X-Forwarded-For unless the app trusts the proxy', async () => {
    const { api, origin } = await harness();
    expect(await ipSentTo3DS(api, origin, { 'x-forwarded-for': '198.51.100.7' })).toBe('127.0.0.1');
  });

  it("is req.ip behind a proxy the app trusts ('trust proxy')", async () => {
    const { api, origin } = await harness((app) => app.set('trust proxy', 'loopback'));
    const forwarded = { 'x-forwarded-for': '198.51.100.7', 'x-paystate-client-ip': '203.0.113.66' };
    expect(await ipSentTo3DS(api, origin, forwarded)).toBe('198.51.100.7');
  });
});

type ClientAddress = (req: IncomingMessage) => string | undefined;
type NodeMount = (options: FetchHandlerOptions, clientAddress?: ClientAddress) => RequestListener;

const NODE_MOUNTS: readonly (readonly [string, NodeMount])[] = [
  [
    'createNodeListener(options)',
    (options, clientAddress) =>
      createNodeListener({ ...options, ...(clientAddress !== undefined && { clientAddress }) }),
  ],
  [
    'createNodeRequestListener(createFetchHandler(options))',
    (options, clientAddress) =>
      createNodeRequestListener(createFetchHandler(options), clientAddress === undefined ? {} : { clientAddress }),
  ],
];

/** A host behind a proxy on the loopback that writes X-Forwarded-For: its last entry, from that proxy only. */
const forwardedByLoopbackProxy: ClientAddress = (req) => {
  const socket = req.socket.remoteAddress;
  const forwarded = req.headers['x-forwarded-for'];
  if (socket !== '127.0.0.1' || typeof forwarded !== 'string') return socket;
  return forwarded.split(',').at(-1)?.trim();
};

describe.each(NODE_MOUNTS)('the cardholder IP the hosted page gets through %s on bare node:http', (_name, mount) => {
  const harness = async (clientAddress?: ClientAddress) => {
    const api = makeApi();
    return { api, origin: await listenApp(mount(withHostedPage(api), clientAddress)) };
  };

  it('is the socket address, whatever X-Paystate-Client-IP the client sends', async () => {
    const { api, origin } = await harness();
    expect(await ipSentTo3DS(api, origin, { 'x-paystate-client-ip': '203.0.113.66' })).toBe('127.0.0.1');
  });

  it('is the socket address when the client sends none, and X-Forwarded-For is not trusted', async () => {
    const { api, origin } = await harness();
    expect(await ipSentTo3DS(api, origin, {})).toBe('127.0.0.1');
    expect(await ipSentTo3DS(api, origin, { 'x-forwarded-for': '198.51.100.7' })).toBe('127.0.0.1');
  });

  it('is what clientAddress says, for a host behind a proxy it trusts', async () => {
    const { api, origin } = await harness(forwardedByLoopbackProxy);
    const forwarded = { 'x-forwarded-for': '198.51.100.7', 'x-paystate-client-ip': '203.0.113.66' };
    expect(await ipSentTo3DS(api, origin, forwarded)).toBe('198.51.100.7');
  });
});
