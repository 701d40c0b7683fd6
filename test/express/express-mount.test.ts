import { gzipSync } from 'node:zlib';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createExpressRouter,
  createServer,
  paystate,
  paystateErrorHandler,
} from '../../adapters/http/express/index.js';
import { createFetchHandler } from '../../adapters/http/index.js';
import { hostedRequest } from '../support/requests.js';
import { makeApi, TOKENS, type ApiHarness } from '../http/support/api-harness.js';
import { call, get, post } from '../http/support/client.js';
import { expectProblem } from '../http/support/expect-problem.js';

const MAIN = 'profile_alpha_main';

let server: Server | undefined;

async function listen(app: Express): Promise<string> {
  server = createHttpServer(app);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (server === undefined) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
  server = undefined;
});

/** A host app with its own routes and its own auth gate in front of paystate. */
function hostApp(api: ApiHarness, options: { jsonFirst?: boolean; rawBody?: boolean } = {}): Express {
  const app = express();
  if (options.jsonFirst === true) {
    app.use(
      express.json(
        options.rawBody === true
          ? {
              verify: (req, _res, buffer) => {
                (req as IncomingMessage & { rawBody?: Buffer }).rawBody = buffer;
              },
            }
          : {},
      ),
    );
  }
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  app.use('/payments', (req, res, next) => {
    if (req.headers['x-shop-session'] === 'blocked') {
      res.status(429).json({ host: 'rate limited' });
      return;
    }
    next();
  });
  app.use('/payments', paystate(api.handlerOptions));
  app.use('/payments', paystateErrorHandler());
  app.get('/payments/status', (_req, res) => {
    res.json({ host: 'status page' });
  });
  app.post('/orders', express.json(), (req, res) => {
    res.status(201).json({ order: req.body });
  });
  return app;
}

describe('paystate() mounted in an existing Express app', () => {
  it.each([
    ['without a body parser', {}],
    ['behind express.json()', { jsonFirst: true }],
    ['behind express.json() keeping the raw body', { jsonFirst: true, rawBody: true }],
  ])('%s: creates, links under the mount path, and leaves the host routes alone', async (_name, options) => {
    const api = makeApi();
    const origin = await listen(hostApp(api, options));
    const created = await post(`${origin}/payments/v1/profiles/${MAIN}/payments`, TOKENS.alphaHosted, hostedRequest());
    expect(created.status).toBe(201);
    const self = `/payments/v1/partners/partner_alpha/profiles/${MAIN}/payments/${created.json.id}`;
    expect(created.headers['location']).toBe(self);
    expect(created.json._links.self.href).toBe(self);
    expect(created.json._links.profile.href).toBe(`/payments/v1/partners/partner_alpha/profiles/${MAIN}`);
    expect((await get(`${origin}${self}`, TOKENS.alphaHosted)).json.id).toBe(created.json.id);
    expect((await get(`${origin}${created.json._links.profile.href}`, TOKENS.alphaHosted)).json.name).toBe(
      'Alpha Shop',
    );

    expect((await call(`${origin}/health`)).json).toEqual({ ok: true });
    expect((await call(`${origin}/payments/status`)).json).toEqual({ host: 'status page' });
    const order = await call(`${origin}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: { sku: 'A1' },
    });
    expect(order).toMatchObject({ status: 201, json: { order: { sku: 'A1' } } });
    const gated = await get(`${origin}/payments/v1/profiles/${MAIN}/payments`, TOKENS.alphaHosted, {
      'x-shop-session': 'blocked',
    });
    expect(gated.status).toBe(429);
  });

  it('answers body-parser errors with problem documents through paystateErrorHandler', async () => {
    const api = makeApi();
    const app = express();
    app.use(express.json({ limit: '80kb' }));
    app.use('/payments', paystate(api.handlerOptions));
    app.use('/payments', paystateErrorHandler());
    const origin = await listen(app);
    const url = `${origin}/payments/v1/profiles/${MAIN}/payments`;
    expectProblem(await post(url, TOKENS.alphaCompliant, '{"amount":'), 400, 'invalid_json');
    const big = JSON.stringify(hostedRequest({ description: 'x'.repeat(100 * 1024) }));
    expectProblem(await post(url, TOKENS.alphaCompliant, big), 413, 'payload_too_large');
    const overOurs = JSON.stringify(hostedRequest({ description: 'x'.repeat(70 * 1024) }));
    expectProblem(await post(url, TOKENS.alphaCompliant, overOurs), 413, 'payload_too_large');
    expect(api.repository.size()).toBe(0);
  });

  it('takes a gzip body that the host decoded, and refuses one it would have to decode itself', async () => {
    const gzipped = new Uint8Array(gzipSync(JSON.stringify(hostedRequest())));
    const headers = { 'content-type': 'application/json', 'content-encoding': 'gzip' };
    const decoded = makeApi();
    const behindParser = await listen(hostApp(decoded, { jsonFirst: true }));
    const taken = await post(
      `${behindParser}/payments/v1/profiles/${MAIN}/payments`,
      TOKENS.alphaHosted,
      gzipped,
      headers,
    );
    expect(taken.status).toBe(201);
    const refused = makeApi();
    const alone = await listen(hostApp(refused));
    const answer = await post(`${alone}/payments/v1/profiles/${MAIN}/payments`, TOKENS.alphaHosted, gzipped, headers);
    expectProblem(answer, 415, 'unsupported_media_type');
    expect(refused.repository.size()).toBe(0);
  });

  it('with the raw body kept, the body is exactly what the client sent', async () => {
    const api = makeApi();
    const origin = await listen(hostApp(api, { jsonFirst: true, rawBody: true }));
    const url = `${origin}/payments/v1/profiles/${MAIN}/payments`;
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]);
    expectProblem(await post(url, TOKENS.alphaCompliant, bytes), 400, 'invalid_json');
  });

  it('writes links under the actual mount path, parameters included', async () => {
    const api = makeApi();
    const app = express();
    app.use('/tenants/:tenant', paystate(api.handlerOptions));
    const origin = await listen(app);
    const created = await post(
      `${origin}/tenants/acme/v1/profiles/${MAIN}/payments`,
      TOKENS.alphaHosted,
      hostedRequest(),
    );
    expect(created.headers['location']).toMatch(/^\/tenants\/acme\/v1\/partners\/partner_alpha\//);
    const read = await get(`${origin}${created.headers['location']}`, TOKENS.alphaHosted);
    expect(read.json.id).toBe(created.json.id);
  });

  it('serves pages outside /v1 when given, and passes other paths to the host', async () => {
    const api = makeApi();
    const app = express();
    app.use(
      paystate({
        ...api.handlerOptions,
        pages: async (request) =>
          new URL(request.url).pathname === '/pay/x'
            ? new Response('<p>page</p>', { headers: { 'content-type': 'text/html' } })
            : undefined,
      }),
    );
    app.get('/elsewhere', (_req, res) => {
      res.send('host');
    });
    const origin = await listen(app);
    expect((await call(`${origin}/pay/x`)).text).toBe('<p>page</p>');
    expect((await call(`${origin}/elsewhere`)).text).toBe('host');
  });
});

describe('createExpressRouter(handler) and createServer', () => {
  it('mounts any fetch handler; its basePath decides the links', async () => {
    const api = makeApi();
    const app = express();
    app.use(express.json());
    app.use('/api', createExpressRouter(createFetchHandler({ ...api.handlerOptions, basePath: '/api' })));
    const origin = await listen(app);
    const created = await post(`${origin}/api/v1/profiles/${MAIN}/payments`, TOKENS.alphaHosted, hostedRequest());
    expect(created.status).toBe(201);
    expect(created.json._links.self.href).toMatch(/^\/api\/v1\/partners\//);
    expect((await get(`${origin}${created.json._links.self.href}`, TOKENS.alphaHosted)).status).toBe(200);
  });

  it('createServer(options) answers anything else with a 404 problem', async () => {
    const api = makeApi();
    const origin = await listen(createServer(api.handlerOptions));
    expectProblem(await call(`${origin}/nowhere`), 404, 'not_found');
    expect((await post(`${origin}/v1/profiles/${MAIN}/payments`, TOKENS.alphaHosted, hostedRequest())).status).toBe(
      201,
    );
    expect((await call(`${origin}/`)).headers['x-powered-by']).toBeUndefined();
  });

  it('answers TRACE, which no fetch Request can carry, with 501 through the fetch bridge and 405 natively', async () => {
    const api = makeApi();
    const origin = await listen(createServer(createFetchHandler(api.handlerOptions)));
    const bridged = await call(`${origin}/v1/profiles/${MAIN}/payments`, { method: 'TRACE' });
    expect(bridged.status).toBe(501);
    expect(bridged.headers['content-type']).toBe('application/problem+json');
    await new Promise<void>((resolve) => {
      server?.close(() => resolve());
      server?.closeAllConnections();
    });
    const native = await listen(createServer(api.handlerOptions));
    const answer = await call(`${native}/v1/profiles/${MAIN}/payments`, { method: 'TRACE' });
    expectProblem(answer, 405, 'method_not_allowed');
  });
});
