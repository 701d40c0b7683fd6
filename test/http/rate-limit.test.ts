import { err, ok } from 'neverthrow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../adapters/memory/index.js';
import type { RateLimiter } from '../../src/index.js';
import { hostedRequest } from '../support/requests.js';
import {
  makeApi,
  OPTION_ENTRY_POINTS,
  serve,
  SERVER_KINDS,
  TOKENS,
  type ApiHarness,
  type RunningServer,
} from './support/api-harness.js';
import { bearer, call, get, post, type Answer } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

// Found by an outside review: one token made 2,916 payments in 8 s (about 1 GB of memory in 3
// minutes in the in-memory sandbox). The handler's `rateLimit` option limits each client.

const MAIN = 'profile_alpha_main';
const PROFILE_PATH = `/v1/partners/partner_alpha/profiles/${MAIN}`;
const KIB = 1024;

/** The harness with `rateLimit` among its handler options. */
const limitedBy = (api: ApiHarness, rateLimit: RateLimiter): ApiHarness => ({
  ...api,
  handlerOptions: { ...api.handlerOptions, rateLimit },
});

function expectRateLimited(answer: Answer, retryAfter: string): void {
  expectProblem(answer, 429, 'rate_limited');
  expect(answer.headers['retry-after']).toBe(retryAfter);
  expect(answer.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  expect(answer.headers['cache-control']).toBe('no-store');
}

describe.each(SERVER_KINDS)('a limit per client (rateLimit) served by %s', (kind) => {
  let api: ApiHarness;
  let server: RunningServer;
  const profile = (token: string) => get(`${server.base}${PROFILE_PATH}`, token);

  beforeEach(async () => {
    api = makeApi();
    // Two requests at once, then one every 2 seconds.
    server = await serve(kind, limitedBy(api, createMemoryRateLimiter({ requestsPerSecond: 0.5, burst: 2 })));
  });
  afterEach(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  it('answers a client over its limit 429 with Retry-After; another client is served; after the wait it is served again', async () => {
    expect((await profile(TOKENS.alphaCompliant)).status).toBe(200);
    expect((await profile(TOKENS.alphaCompliant)).status).toBe(200);
    const limited = await profile(TOKENS.alphaCompliant);
    expectRateLimited(limited, '2');
    expect(limited.json.detail).toBe('Too many requests from this client; retry after 2 s');
    // A client with a token of its own has a bucket of its own.
    expect((await profile(TOKENS.alphaHosted)).status).toBe(200);
    expect((await profile(TOKENS.alphaHosted)).status).toBe(200);
    // 1 ms short of the wait: still refused, told to wait (at least) a second.
    api.clock.advance(1999);
    expectRateLimited(await profile(TOKENS.alphaCompliant), '1');
    api.clock.advance(1);
    expect((await profile(TOKENS.alphaCompliant)).status).toBe(200);
    expectRateLimited(await profile(TOKENS.alphaCompliant), '2');
    // The request's log line says who was refused.
    const lines = api.logs.filter((line) => line.message === 'http request' && line.fields['status'] === 429);
    expect(lines).toHaveLength(3);
    expect(lines[0]?.fields).toMatchObject({
      route: `GET ${PROFILE_PATH.replace(MAIN, '{profile_id}').replace('partner_alpha', '{partner_id}')}`,
    });
    expect(typeof lines[0]?.fields['clientId']).toBe('string');
  });

  it('refuses a create before its body is read: no port but the credential store is called', async () => {
    const payments = `${server.base}/v1/profiles/${MAIN}/payments`;
    await profile(TOKENS.alphaCompliant);
    await profile(TOKENS.alphaCompliant);
    const before = api.calls.beyondCredentials();
    // Over the 64 KiB the API reads: a body that was read would be 413.
    const big = JSON.stringify({ ...hostedRequest(), description: 'x'.repeat(70 * KIB) });
    expectRateLimited(await post(payments, TOKENS.alphaCompliant, big), '2');
    // A host's express.json() before paystate refuses what is not JSON itself (embedding-http.md).
    if (kind !== 'express, json parser first, mounted at /api') {
      expectRateLimited(await post(payments, TOKENS.alphaCompliant, '{"amount": 12,'), '2');
    }
    expect(api.calls.beyondCredentials()).toBe(before);
  });

  it('keeps nothing under the Idempotency-Key of a refused create: the retry after the wait creates the payment', async () => {
    const payments = `${server.base}/v1/profiles/${MAIN}/payments`;
    await profile(TOKENS.alphaCompliant);
    await profile(TOKENS.alphaCompliant);
    const key = { 'idempotency-key': 'order-4711' };
    expectRateLimited(await post(payments, TOKENS.alphaCompliant, hostedRequest(), key), '2');
    api.clock.advance(2000);
    const created = await post(payments, TOKENS.alphaCompliant, hostedRequest(), key);
    expect(created.status).toBe(201);
    expect(created.headers['idempotency-replayed']).toBeUndefined();
  });
});

describe('what counts against a limit', () => {
  let api: ApiHarness;
  let server: RunningServer;
  let takes: string[];

  beforeEach(async () => {
    api = makeApi();
    takes = [];
    const spy: RateLimiter = {
      take: (clientId) => {
        takes.push(clientId);
        return ok({ allowed: true });
      },
    };
    server = await serve('node:http', limitedBy(api, spy));
  });
  afterEach(() => server.close());

  it('every authenticated request of the API takes one turn of its client; requests refused before authentication take none', async () => {
    const base = server.base;
    expect((await get(`${base}${PROFILE_PATH}`, TOKENS.alphaCompliant)).status).toBe(200);
    expect((await get(`${base}/v1/profiles/${MAIN}/payments`, TOKENS.alphaCompliant)).status).toBe(200);
    expect((await post(`${base}/v1/profiles/${MAIN}/payments`, TOKENS.alphaCompliant, '{')).status).toBe(400);
    expect((await get(`${base}${PROFILE_PATH}`, TOKENS.alphaCompliant, { accept: 'text/html' })).status).toBe(406);
    expect((await get(`${base}${PROFILE_PATH}`, TOKENS.betaCompliant)).status).toBe(404);
    expect(takes).toHaveLength(5);
    expect(new Set(takes.slice(0, 4)).size).toBe(1);
    expect(takes[4]).not.toBe(takes[0]);
    // No token, a wrong one, an unknown path, a method the path does not allow: nobody to count.
    expect((await call(`${base}${PROFILE_PATH}`)).status).toBe(401);
    expect((await get(`${base}${PROFILE_PATH}`, 'tok_nobody')).status).toBe(401);
    expect((await get(`${base}/v1/nowhere`, TOKENS.alphaCompliant)).status).toBe(404);
    expect(
      (await call(`${base}${PROFILE_PATH}`, { method: 'DELETE', headers: bearer(TOKENS.alphaCompliant) })).status,
    ).toBe(405);
    expect(takes).toHaveLength(5);
  });
});

describe('a limiter that fails lets requests through', () => {
  const STORE_TIMEOUT_MS = 50;
  let api: ApiHarness;
  let server: RunningServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const serveWith = async (take: RateLimiter['take']) => {
    api = makeApi();
    const limited = limitedBy(api, { take });
    server = await serve('node:http', {
      ...limited,
      handlerOptions: { ...limited.handlerOptions, storeTimeoutMs: STORE_TIMEOUT_MS },
    });
    return get(`${server.base}${PROFILE_PATH}`, TOKENS.alphaCompliant);
  };
  const errors = () => api.logs.filter((line) => line.level === 'error').map((line) => line.message);

  it.each([
    [
      'an error',
      () => err({ code: 'unavailable' as const, message: 'redis is down', retryable: true }),
      'rate limiter unavailable',
    ],
    [
      'a throw',
      () => {
        throw new Error('bug');
      },
      'rate limiter threw (a defect of the adapter)',
    ],
    ['a rejection', () => Promise.reject(new Error('bug')), 'rate limiter threw (a defect of the adapter)'],
    ['no answer in time', () => new Promise<never>(() => undefined), 'rate limiter did not answer in time'],
    [
      'no Result',
      () => ({ allowed: false, retryAfterMs: 1000 }) as never,
      'rate limiter answered no Result (a defect of the adapter)',
    ],
  ] as const)('%s: the request is served and the failure logged', async (_, take, message) => {
    const answer = await serveWith(take as RateLimiter['take']);
    expect(answer.status).toBe(200);
    expect(errors()).toEqual([`${message}; the request goes ahead unlimited`]);
    expect(api.unhandled()).toEqual([]);
  });

  it.each([
    [1500, '2'],
    [1, '1'],
    [0, '1'],
    [-5, '1'],
    [Number.NaN, '1'],
    [1e15, '86400'],
  ])(
    'a refusal to wait %s ms is Retry-After: %s (whole seconds, at least 1, at most a day)',
    async (retryAfterMs, header) => {
      expectRateLimited(await serveWith(() => ok({ allowed: false, retryAfterMs })), header);
    },
  );
});

describe('rateLimit', () => {
  it.each(OPTION_ENTRY_POINTS)('%s: a RateLimiter, or a TypeError', (_name, create) => {
    const { handlerOptions } = makeApi();
    for (const bad of [null, {}, { take: 'soon' }, () => ok({ allowed: true })]) {
      expect(() => create({ ...handlerOptions, rateLimit: bad as unknown as RateLimiter }), String(bad)).toThrow(
        new TypeError('rateLimit must be a RateLimiter: an object with a take(clientId, now) method'),
      );
    }
    expect(() =>
      create({ ...handlerOptions, rateLimit: createMemoryRateLimiter({ requestsPerSecond: 1, burst: 1 }) }),
    ).not.toThrow();
  });
});
