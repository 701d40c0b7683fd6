import { connect, type AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { paystate, paystateFrameworkErrors } from '../../adapters/http/fastify/index.js';
import type { FetchHandlerOptions } from '../../adapters/http/index.js';
import { MAIN_PROFILE, payOnHostedPage, RETURN_URL, withHostedPage } from '../express/support/express-host.js';
import { makeApi, TOKENS } from '../http/support/api-harness.js';
import { bearer, call, jsonHeaders, post } from '../http/support/client.js';
import { expectProblem } from '../http/support/expect-problem.js';
import { hostedRequest } from '../support/requests.js';

const PAYMENTS = `/v1/profiles/${MAIN_PROFILE}/payments`;
const REQUEST_ID = /^req_[0-9a-f]{32}$/;

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) {
    app.server.closeAllConnections();
    await app.close();
  }
});

/**
 * A Fastify app with routes of its own (a JSON POST read by Fastify's own parser, a GET), and
 * paystate registered under `prefix`; listening on a free port. Returns its origin.
 */
async function host(
  options: FetchHandlerOptions,
  prefix: string,
  setUp: (app: FastifyInstance) => void = () => undefined,
): Promise<string> {
  const app = Fastify({ frameworkErrors: paystateFrameworkErrors() });
  apps.push(app);
  app.get('/health', () => ({ ok: true }));
  app.post('/orders', (request) => ({ received: request.body }));
  setUp(app);
  await app.register(paystate(options), { prefix });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

describe('paystate() in Fastify, mounted at /api', () => {
  it("leaves the host's own routes and body parsing as they were", async () => {
    const api = makeApi();
    const origin = await host(api.handlerOptions, '/api');
    const health = await call(`${origin}/health`);
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ ok: true });
    const order = await call(`${origin}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: { sku: 'A-1' },
    });
    expect(order.json).toEqual({ received: { sku: 'A-1' } });
    // Outside the prefix, Fastify's own 404 and its own refusal of bad JSON: the host's.
    expect((await call(`${origin}/nowhere`)).json).toMatchObject({ statusCode: 404, error: 'Not Found' });
    const badOrder = await call(`${origin}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"sku":',
    });
    expect(badOrder.status).toBe(400);
    expect(badOrder.headers['content-type']).toMatch(/^application\/json/);
  });

  it('creates and reads a payment, with links and Location under the prefix', async () => {
    const api = makeApi();
    const origin = await host(api.handlerOptions, '/api');
    const created = await post(`${origin}/api${PAYMENTS}`, TOKENS.alphaHosted, hostedRequest());
    expect(created.status).toBe(201);
    expect(created.headers['location']).toBe(created.json._links.self.href);
    expect(created.json._links.self.href).toMatch(
      new RegExp(`^/api/v1/partners/partner_alpha/profiles/${MAIN_PROFILE}/payments/${created.json.id}$`),
    );
    expect(created.headers['request-id']).toMatch(REQUEST_ID);
    const read = await call(`${origin}${created.headers['location'] as string}`, {
      headers: bearer(TOKENS.alphaHosted),
    });
    expect(read.status).toBe(200);
    expect(read.json.id).toBe(created.json.id);
  });

  it('answers bad JSON, a body over 64 KiB and a wrong or unreadable Content-Type as problem documents', async () => {
    const api = makeApi();
    const origin = await host(api.handlerOptions, '/api');
    const url = `${origin}/api${PAYMENTS}`;
    const badJson = await call(url, { method: 'POST', headers: jsonHeaders(TOKENS.alphaHosted), body: '{"amount":' });
    expectProblem(badJson, 400, 'invalid_json');
    const large = '{"x":"' + 'a'.repeat(64 * 1024) + '"}';
    for (const chunked of [false, true]) {
      const tooLarge = await call(url, {
        method: 'POST',
        headers: jsonHeaders(TOKENS.alphaHosted),
        body: large,
        chunked,
      });
      expectProblem(tooLarge, 413, 'payload_too_large');
    }
    // Fastify refuses a Content-Type it cannot parse (415 in its own format) before any handler.
    for (const contentType of ['text/plain', 'application/json;;;', '/', 'application/json; charset']) {
      const answer = await call(url, {
        method: 'POST',
        headers: { ...bearer(TOKENS.alphaHosted), 'content-type': contentType },
        body: '{}',
      });
      expect(answer.headers['content-type'], contentType).toBe('application/problem+json');
      expect(answer.status, contentType).toBeGreaterThanOrEqual(400);
      expect(answer.status, contentType).toBeLessThan(500);
      expect(answer.headers['request-id'], contentType).toMatch(REQUEST_ID);
    }
    expect(badJson.headers['request-id']).toMatch(REQUEST_ID);
    expect(api.repository.size()).toBe(0);
    expect(api.unhandled()).toEqual([]);
  });

  it('answers a path under the prefix that names nothing with a 404 problem, for any method Fastify routes or not', async () => {
    const api = makeApi();
    const origin = await host(api.handlerOptions, '/api');
    for (const [method, path] of [
      ['GET', '/api/nothing'],
      ['GET', '/api'],
      ['POST', '/api/v2/payments'],
      ['PROPFIND', '/api/v1/profiles'],
      ['GET', '/api/v1/%E0%A4%A'],
    ] as const) {
      const answer = await call(`${origin}${path}`, { method, headers: bearer(TOKENS.alphaHosted) });
      expect(answer.headers['content-type'], `${method} ${path}`).toBe('application/problem+json');
      expect([404, 405], `${method} ${path}`).toContain(answer.status);
      expect(answer.headers['request-id'], `${method} ${path}`).toMatch(REQUEST_ID);
    }
  });

  it('serves the hosted page under the prefix: the form is posted urlencoded and read by paystate', async () => {
    const api = makeApi();
    const origin = await host(withHostedPage(api), '/api');
    const paid = await payOnHostedPage(`${origin}/api`);
    expect(paid.status).toBe(303);
    expect(paid.location).toMatch(new RegExp(`^${RETURN_URL.replace(/[?]/g, '\\?')}`));
    const record = (await api.engine.getPaymentRecord(paid.paymentId))._unsafeUnwrap();
    expect(record.state).not.toBe('awaiting_card');
  });

  it("passes the host's hook errors to the host's error handler", async () => {
    const api = makeApi();
    const origin = await host(api.handlerOptions, '/api', (app) => {
      app.addHook('onRequest', async (request) => {
        if (request.headers['x-staff'] !== 'yes') throw Object.assign(new Error('staff only'), { statusCode: 403 });
      });
      app.setErrorHandler((error: Error, _request, reply) =>
        reply.code(403).send({ refusedBy: 'host', message: error.message }),
      );
    });
    const refused = await call(`${origin}/api${PAYMENTS}`, { headers: bearer(TOKENS.alphaHosted) });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ refusedBy: 'host', message: 'staff only' });
    const letIn = await call(`${origin}/api${PAYMENTS}`, {
      headers: { ...bearer(TOKENS.alphaHosted), 'x-staff': 'yes' },
    });
    expect(letIn.status).toBe(200);
  });
});

describe('paystate() in Fastify, at the root', () => {
  it("answers /v1 and its pages, and leaves everything else to the host's routes and not-found handler", async () => {
    const api = makeApi();
    const origin = await host(withHostedPage(api), '', (app) => {
      app.setNotFoundHandler((request, reply) => reply.code(404).send({ host404: request.url }));
    });
    expect((await call(`${origin}/health`)).json).toEqual({ ok: true });
    const created = await post(`${origin}${PAYMENTS}`, TOKENS.alphaHosted, hostedRequest());
    expect(created.status).toBe(201);
    expect(created.headers['location']).toMatch(
      new RegExp(`^/v1/partners/partner_alpha/profiles/${MAIN_PROFILE}/payments/${created.json.id}$`),
    );
    // Neither the API nor a page: the host's not-found handler, body left for it.
    const elsewhere = await call(`${origin}/elsewhere`, {
      method: 'POST',
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(elsewhere.json).toEqual({ host404: '/elsewhere' });
    expectProblem(await call(`${origin}/v1/nothing`, { headers: bearer(TOKENS.alphaHosted) }), 404, 'not_found');
    const paid = await payOnHostedPage(origin);
    expect(paid.status).toBe(303);
  });

  it('answers an unauthenticated POST at once, its body unread, and closes the connection', async () => {
    const api = makeApi();
    const origin = await host(api.handlerOptions, '');
    const { port } = new URL(origin);
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(`${text}[no close]`);
      }, 2_000);
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(text);
      });
      socket.on('error', reject);
      // 10 MB announced, a few bytes sent: a server that waited for the body would answer nothing.
      socket.write(
        `POST ${PAYMENTS} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{"amount":`,
      );
    });
    expect(head).toMatch(/^HTTP\/1\.1 401 /);
    expect(head).toMatch(/\r\ncontent-type: application\/problem\+json\r\n/i);
    expect(head).toMatch(/\r\nrequest-id: req_[0-9a-f]{32}\r\n/i);
    expect(head).toMatch(/\r\nconnection: close\r\n/i);
    expect(head).not.toContain('[no close]');
    expect(api.calls.beyondCredentials()).toBe(0);
  });

  it('paystateFrameworkErrors: a target that does not decode is a 400 problem outside paystate, paystate’s answer under /v1', async () => {
    const api = makeApi();
    const origin = await host(api.handlerOptions, '');
    const outside = await call(`${origin}/orders/%E0%A4%A`);
    expectProblem(outside, 400, 'malformed_request');
    expect(outside.headers['request-id']).toMatch(REQUEST_ID);
    const inside = await call(`${origin}/v1/profiles/%E0%A4%A/payments`, { headers: bearer(TOKENS.alphaHosted) });
    expectProblem(inside, 404, 'not_found');
    expect(inside.headers['request-id']).toMatch(REQUEST_ID);
  });
});

describe('paystate() for Fastify, its options', () => {
  it('throws at once for options out of range, before Fastify loads it', () => {
    const { handlerOptions } = makeApi();
    expect(() => paystate({ ...handlerOptions, storeTimeoutMs: 0 })).toThrow(RangeError);
  });

  it('writes links under basePath when given, whatever the prefix', async () => {
    const api = makeApi();
    const origin = await host({ ...api.handlerOptions, basePath: '/public/payments' }, '/internal');
    const created = await post(`${origin}/internal${PAYMENTS}`, TOKENS.alphaHosted, hostedRequest());
    expect(created.status).toBe(201);
    expect(created.headers['location']).toMatch(/^\/public\/payments\/v1\/partners\/partner_alpha\/profiles\//);
  });
});
