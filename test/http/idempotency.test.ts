import { afterEach, describe, expect, it } from 'vitest';
import type { IdempotencyStore } from '../../src/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { makeApi, serve, SERVER_KINDS, TOKENS, type ApiHarness, type RunningServer } from './support/api-harness.js';
import { post, type Answer } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

const HOUR = 60 * 60 * 1000;
const MAIN = 'profile_alpha_main';
/** Headers that legitimately differ between two answers on the wire (each request has its own id). */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'idempotency-replayed', 'request-id']);

const stableHeaders = (answer: Answer) =>
  Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !TRANSPORT.has(name)));

describe.each(SERVER_KINDS)('Idempotency-Key (decisions.md section 6), served by %s', (kind) => {
  let api: ApiHarness;
  let server: RunningServer;
  let payments: string;

  async function start(options: Parameters<typeof makeApi>[0] = {}) {
    api = makeApi(options);
    server = await serve(kind, api);
    payments = `${server.base}/v1/profiles/${MAIN}/payments`;
  }
  afterEach(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  it('replays the first answer byte for byte, with Idempotency-Replayed: true', async () => {
    await start();
    const key = { 'idempotency-key': 'order-1234-attempt' };
    const first = await post(payments, TOKENS.alphaCompliant, hostedRequest(), key);
    expect(first.status).toBe(201);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    const size = api.repository.size();

    // Same body with other member order and whitespace: the same request.
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(hostedRequest()).reverse()), null, 2);
    for (const body of [hostedRequest(), reordered]) {
      const again = await post(payments, TOKENS.alphaCompliant, body, key);
      expect(again.status).toBe(first.status);
      expect(again.text).toBe(first.text);
      expect(stableHeaders(again)).toEqual(stableHeaders(first));
      expect(again.headers['location']).toBe(first.headers['location']);
      expect(again.headers['idempotency-replayed']).toBe('true');
      // The replay is the stored answer, but its request is a new one: its own id.
      expect(again.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
      expect(again.headers['request-id']).not.toBe(first.headers['request-id']);
    }
    expect(api.repository.size()).toBe(size);
  });

  it('replays a direct-flow answer without charging again', async () => {
    await start();
    const key = { 'idempotency-key': 'direct-1' };
    const first = await post(payments, TOKENS.alphaCompliant, directRequest('4242424242424242'), key);
    expect(first.json.state).toBe('succeeded');
    const again = await post(payments, TOKENS.alphaCompliant, directRequest('4242424242424242'), key);
    expect(again.text).toBe(first.text);
    expect(api.acquirer.authorizations()).toHaveLength(1);
  });

  it('takes another spelling of the same path as the same request', async () => {
    await start();
    const key = { 'idempotency-key': 'spelled-twice' };
    const first = await post(payments, TOKENS.alphaCompliant, hostedRequest(), key);
    expect(first.status).toBe(201);
    const encoded = payments.replace('/profiles/profile_', '/profiles/profile%5F');
    expect(encoded).not.toBe(payments);
    const again = await post(encoded, TOKENS.alphaCompliant, hostedRequest(), key);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotency-replayed']).toBe('true');
  });

  it('422 idempotency_key_reused for a different body or another path with the same key', async () => {
    await start();
    const key = { 'idempotency-key': 'k-422' };
    expect((await post(payments, TOKENS.alphaCompliant, hostedRequest(), key)).status).toBe(201);
    const size = api.repository.size();
    expectProblem(
      await post(payments, TOKENS.alphaCompliant, hostedRequest({ amount: 1 }), key),
      422,
      'idempotency_key_reused',
    );
    const otherProfile = `${server.base}/v1/profiles/profile_alpha_second/payments`;
    expectProblem(await post(otherProfile, TOKENS.alphaCompliant, hostedRequest(), key), 422, 'idempotency_key_reused');
    expect(api.repository.size()).toBe(size);
  });

  it('409 idempotency_in_progress while the first request runs, then the replay', async () => {
    await start({ acquirerLatencyMs: 600 });
    const key = { 'idempotency-key': 'slow-one' };
    const body = directRequest('4242424242424242');
    const first = post(payments, TOKENS.alphaCompliant, body, key);
    // Wait until the first request owns the key (it then waits on the slow acquirer).
    for (let waited = 0; api.idempotency.size() === 0 && waited < 2000; waited += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const during = await Promise.all([1, 2, 3].map(() => post(payments, TOKENS.alphaCompliant, body, key)));
    for (const answer of during) {
      expectProblem(answer, 409, 'idempotency_in_progress');
      expect(answer.headers['retry-after']).toBe('1');
    }
    const done = await first;
    expect(done.status).toBe(201);
    const after = await post(payments, TOKENS.alphaCompliant, body, key);
    expect(after.text).toBe(done.text);
    expect(after.headers['idempotency-replayed']).toBe('true');
    expect(api.acquirer.authorizations()).toHaveLength(1);
  });

  it('of concurrent requests with one key exactly one runs', async () => {
    await start({ acquirerLatencyMs: 200 });
    const key = { 'idempotency-key': 'burst' };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(payments, TOKENS.alphaCompliant, directRequest('4242424242424242'), key)),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(9);
    expect(api.repository.size()).toBe(1);
  });

  it('does not store validation failures, refusals or unavailability: a corrected retry runs', async () => {
    await start();
    const key = { 'idempotency-key': 'fix-and-retry' };
    expectProblem(
      await post(payments, TOKENS.alphaCompliant, hostedRequest({ amount: -1 }), key),
      400,
      'validation_failed',
    );
    expectProblem(await post(payments, TOKENS.alphaCompliant, '{"broken', key), 400, 'invalid_json');
    api.repository.injectFailure('insert');
    expectProblem(await post(payments, TOKENS.alphaCompliant, hostedRequest(), key), 503, 'unavailable');
    const retried = await post(payments, TOKENS.alphaCompliant, hostedRequest(), key);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotency-replayed']).toBeUndefined();
  });

  it('refusals before the engine do not touch the idempotency store', async () => {
    await start();
    const key = { 'idempotency-key': 'refused' };
    const calls = api.calls.beyondCredentials();
    expectProblem(
      await post(payments, TOKENS.alphaHosted, directRequest('4242424242424242'), key),
      403,
      'direct_flow_not_permitted',
    );
    expectProblem(await post(payments, TOKENS.alphaSecondOnly, hostedRequest(), key), 403, 'forbidden_profile');
    expect(api.calls.beyondCredentials()).toBe(calls);
    expect(api.idempotency.size()).toBe(0);
  });

  it('scopes keys per client', async () => {
    await start();
    const key = { 'idempotency-key': 'shared-key' };
    const one = await post(payments, TOKENS.alphaCompliant, hostedRequest(), key);
    const two = await post(payments, TOKENS.alphaHosted, hostedRequest(), key);
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(one.json.id).not.toBe(two.json.id);
    expect(two.headers['idempotency-replayed']).toBeUndefined();
  });

  it('an idempotency store that throws (a defect of its adapter): 503 or the request’s own answer, never 500 (found by a reviewer)', async () => {
    api = makeApi();
    const inner = api.handlerOptions.idempotency;
    const throws = { begin: false, complete: false, release: false };
    const store: IdempotencyStore = {
      begin: (request) => {
        if (throws.begin) throw new RangeError('Invalid time value');
        return inner.begin(request);
      },
      complete: (request) => (throws.complete ? Promise.reject(new Error('bug')) : inner.complete(request)),
      release: (request) => {
        if (throws.release) throw new Error('bug');
        return inner.release(request);
      },
      purgeExpired: (now) => inner.purgeExpired(now),
    };
    server = await serve(kind, { ...api, handlerOptions: { ...api.handlerOptions, idempotency: store } });
    payments = `${server.base}/v1/profiles/${MAIN}/payments`;
    const send = (key: string) => post(payments, TOKENS.alphaCompliant, hostedRequest(), { 'idempotency-key': key });

    throws.begin = true;
    const refused = await send('begin-throws');
    expectProblem(refused, 503, 'unavailable');
    expect(refused.headers['retry-after']).toBe('1');
    expect(api.repository.size()).toBe(0);
    throws.begin = false;

    throws.complete = true;
    const created = await send('complete-throws');
    expect(created.status).toBe(201);
    expect(api.repository.size()).toBe(1);
    // Not completed: the key stays in progress, to be taken over once stale.
    expectProblem(await send('complete-throws'), 409, 'idempotency_in_progress');

    throws.release = true;
    api.repository.injectFailure('insert');
    expectProblem(await send('release-throws'), 503, 'unavailable');
    expect(api.logs.filter((line) => line.message.startsWith('idempotency store threw'))).toHaveLength(3);
  });

  it('keeps an answer for 24 hours', async () => {
    await start();
    const key = { 'idempotency-key': 'a-day' };
    const first = await post(payments, TOKENS.alphaCompliant, hostedRequest(), key);
    api.clock.advance(23 * HOUR);
    expect((await post(payments, TOKENS.alphaCompliant, hostedRequest(), key)).text).toBe(first.text);
    api.clock.advance(HOUR);
    const later = await post(payments, TOKENS.alphaCompliant, hostedRequest(), key);
    expect(later.status).toBe(201);
    expect(later.json.id).not.toBe(first.json.id);
    expect(later.headers['idempotency-replayed']).toBeUndefined();
  });
});
