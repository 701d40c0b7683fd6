import fc from 'fast-check';
import { err } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_STALE_AFTER_MS } from '../../adapters/http/index.js';
import type { IdempotencyStore } from '../../src/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { makeApi, serve, TOKENS, type ApiHarness, type RunningServer } from './support/api-harness.js';
import { bearer, call, get, post } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

const MAIN = 'profile_alpha_main';
let keys = 0;
const key = () => ({ 'idempotency-key': `edge-${(keys += 1)}` });

/** A store whose `complete` and `release` fail while `dead`: the request's process "crashed" after it ran. */
function crashableStore(inner: IdempotencyStore) {
  const state = { dead: false };
  const unavailable = { code: 'unavailable', message: 'the idempotency store went away', retryable: true } as const;
  const store: IdempotencyStore = {
    begin: (request) => inner.begin(request),
    complete: (request) => (state.dead ? err(unavailable) : inner.complete(request)),
    release: (request) => (state.dead ? err(unavailable) : inner.release(request)),
    purgeExpired: (now) => inner.purgeExpired(now),
  };
  return { store, state };
}

describe('captures, cancels and refunds: errors, tenancy, concurrency, crashes (node:http)', () => {
  let api: ApiHarness;
  let crash: ReturnType<typeof crashableStore>;
  let server: RunningServer;
  let base: string;

  beforeAll(async () => {
    api = makeApi();
    crash = crashableStore(api.handlerOptions.idempotency);
    server = await serve('node:http', { ...api, handlerOptions: { ...api.handlerOptions, idempotency: crash.store } });
    base = `${server.base}/v1/profiles/${MAIN}/payments`;
  });
  afterAll(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  async function manual(amount: number): Promise<string> {
    const created = await post(
      base,
      TOKENS.alphaCompliant,
      directRequest('4242424242424242', { amount, capture_method: 'manual' }),
    );
    expect(created.json.state).toBe('succeeded');
    return created.json.id as string;
  }

  it('cancels a hosted payment the cardholder has not submitted: failed / canceled; a second cancel is 409', async () => {
    const created = await post(base, TOKENS.alphaHosted, hostedRequest());
    const cancel = `${base}/${created.json.id}/cancel`;
    const canceled = await post(cancel, TOKENS.alphaHosted, {}, key());
    expect(canceled.status).toBe(200);
    expect(canceled.json).toMatchObject({ state: 'failed', failure_reason: 'canceled', amount_capturable: 0 });
    expect(canceled.json.next).toBeUndefined();
    expectProblem(await post(cancel, TOKENS.alphaHosted, {}), 409, 'payment_not_cancelable');
    expectProblem(
      await post(`${base}/${created.json.id}/refunds`, TOKENS.alphaHosted, {}),
      409,
      'payment_not_refundable',
    );
  });

  it('tenancy: 403 for a profile the client may not act on, 404 for another profile, partner, payment or operation', async () => {
    const id = await manual(100);
    const capture = await post(`${base}/${id}/captures`, TOKENS.alphaHosted, { amount: 10, final: false });
    expect(capture.status).toBe(201);
    expectProblem(await post(`${base}/${id}/captures`, TOKENS.alphaSecondOnly, {}), 403, 'forbidden_profile');
    expectProblem(await get(`${base}/${id}/captures`, TOKENS.alphaSecondOnly), 403, 'forbidden_profile');
    const second = `${server.base}/v1/profiles/profile_alpha_second/payments/${id}`;
    for (const tail of ['captures', 'refunds', 'cancel']) {
      expectProblem(await post(`${second}/${tail}`, TOKENS.alphaSecondOnly, {}), 404, 'not_found');
    }
    expectProblem(await get(`${second}/captures`, TOKENS.alphaSecondOnly), 404, 'not_found');
    expectProblem(await get(`${second}/captures/${capture.json.id}`, TOKENS.alphaSecondOnly), 404, 'not_found');
    const betaPath = `${server.base}/v1/partners/partner_beta/profiles/profile_beta_main/payments/${id}`;
    expectProblem(await post(`${betaPath}/captures`, TOKENS.betaCompliant, {}), 404, 'not_found');
    const alphaViaBeta = `${server.base}/v1/partners/partner_beta/profiles/${MAIN}/payments/${id}/captures`;
    expectProblem(await get(alphaViaBeta, TOKENS.alphaHosted), 404, 'not_found');
    const other = await manual(100);
    expectProblem(await get(`${base}/${other}/captures/${capture.json.id}`, TOKENS.alphaHosted), 404, 'not_found');
    expectProblem(await get(`${base}/${id}/refunds/${capture.json.id}`, TOKENS.alphaHosted), 404, 'not_found');
    expectProblem(await get(`${base}/${id}/captures/capture_nope`, TOKENS.alphaHosted), 404, 'not_found');
    expectProblem(await post(`${base}/payment_unknown/captures`, TOKENS.alphaHosted, {}), 404, 'not_found');
    const anonymous = await call(`${base}/${id}/captures`, { method: 'POST' });
    expectProblem(anonymous, 401, 'unauthorized');
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('validation: 400 validation_failed, invalid_json, 415, and lists with limit / after', async () => {
    const id = await manual(100);
    const captures = `${base}/${id}/captures`;
    const bad: unknown[] = [
      { amount: 0 },
      { amount: -1 },
      { amount: 1.5 },
      { amount: '10' },
      { amount: 1_000_000_000_000 },
      { final: 'yes' },
      { amount: 10, extra: true },
      [],
      '"capture"',
      null,
    ];
    for (const body of bad) expectProblem(await post(captures, TOKENS.alphaHosted, body), 400, 'validation_failed');
    const refunds = `${base}/${id}/refunds`;
    expectProblem(await post(refunds, TOKENS.alphaHosted, { reference: 'x'.repeat(256) }), 400, 'validation_failed');
    expectProblem(await post(refunds, TOKENS.alphaHosted, { final: true }), 400, 'validation_failed');
    expectProblem(await post(`${base}/${id}/cancel`, TOKENS.alphaHosted, { amount: 1 }), 400, 'validation_failed');
    expectProblem(await post(captures, TOKENS.alphaHosted, '{"amount":'), 400, 'invalid_json');
    const textBody = await call(captures, {
      method: 'POST',
      headers: { ...bearer(TOKENS.alphaHosted), 'content-type': 'text/plain' },
      body: '{}',
    });
    expectProblem(textBody, 415, 'unsupported_media_type');
    expectProblem(await post(captures, TOKENS.alphaHosted, {}, { 'idempotency-key': '' }), 400, 'validation_failed');
    expectProblem(
      await post(captures, TOKENS.alphaHosted, {}, { 'idempotency-key': 'order 4242 4242 4242 4242' }),
      400,
      'validation_failed',
    );
    // Nothing was captured by any of these.
    expect((await get(`${base}/${id}`, TOKENS.alphaHosted)).json.amount_captured).toBe(0);

    for (let i = 0; i < 3; i += 1) {
      expect((await post(captures, TOKENS.alphaHosted, { amount: 10, final: false })).status).toBe(201);
    }
    const first = await get(`${captures}?limit=2`, TOKENS.alphaHosted);
    expect(first.json.items.map((item: { amount: number }) => item.amount)).toEqual([10, 10]);
    expect(first.json._links.next.href).toBe(
      `${server.basePath}/v1/profiles/${MAIN}/payments/${id}/captures?limit=2&after=${first.json.next_cursor}`,
    );
    const rest = await get(`${captures}?limit=2&after=${first.json.next_cursor}`, TOKENS.alphaHosted);
    expect(rest.json.items).toHaveLength(1);
    expect(rest.json.next_cursor).toBeUndefined();
    const ids = [...first.json.items, ...rest.json.items].map((item: { id: string }) => item.id);
    expect(new Set(ids).size).toBe(3);
    expectProblem(await get(`${captures}?limit=0`, TOKENS.alphaHosted), 400, 'validation_failed');
    expectProblem(await get(`${captures}?after=refund_x`, TOKENS.alphaHosted), 400, 'validation_failed');
    expectProblem(await get(`${captures}?sort=desc`, TOKENS.alphaHosted), 400, 'validation_failed');
  });

  it('405 with Allow for other methods on these paths', async () => {
    const id = await manual(100);
    const cases: [string, string, string][] = [
      ['PUT', `${base}/${id}/captures`, 'GET, HEAD, POST'],
      ['DELETE', `${base}/${id}/refunds`, 'GET, HEAD, POST'],
      ['GET', `${base}/${id}/cancel`, 'POST'],
      ['POST', `${base}/${id}/captures/capture_0`, 'GET, HEAD'],
      [
        'PATCH',
        `${server.base}/v1/partners/partner_alpha/profiles/${MAIN}/payments/${id}/refunds/refund_0`,
        'GET, HEAD',
      ],
    ];
    for (const [method, url, allow] of cases) {
      const answer = await call(url, { method, headers: bearer(TOKENS.alphaHosted) });
      expectProblem(answer, 405, 'method_not_allowed');
      expect(answer.headers['allow']).toBe(allow);
    }
  });

  it('two concurrent refunds of 60 on a payment of 100: one 201, one 409, 20 rounds', async () => {
    for (let round = 0; round < 20; round += 1) {
      const created = await post(base, TOKENS.alphaCompliant, directRequest('4242424242424242', { amount: 100 }));
      const refunds = `${base}/${created.json.id}/refunds`;
      const answers = await Promise.all([
        post(refunds, TOKENS.alphaHosted, { amount: 60 }, key()),
        post(refunds, TOKENS.alphaHosted, { amount: 60 }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expectProblem(
        answers.find((answer) => answer.status === 409)!,
        409,
        'amount_exceeds_refundable',
      );
      const payment = await get(`${base}/${created.json.id}`, TOKENS.alphaHosted);
      expect(payment.json.amount_refunded).toBe(60);
      expect((await get(refunds, TOKENS.alphaHosted)).json.items).toHaveLength(1);
    }
  });

  it('two concurrent captures of 60 on a manual payment of 100: one 201, one 409, 20 rounds', async () => {
    for (let round = 0; round < 20; round += 1) {
      const id = await manual(100);
      const captures = `${base}/${id}/captures`;
      const answers = await Promise.all([
        post(captures, TOKENS.alphaHosted, { amount: 60, final: false }, key()),
        post(captures, TOKENS.alphaHosted, { amount: 60, final: false }, key()),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expectProblem(
        answers.find((answer) => answer.status === 409)!,
        409,
        'amount_exceeds_capturable',
      );
      const payment = await get(`${base}/${id}`, TOKENS.alphaHosted);
      expect(payment.json).toMatchObject({ amount_captured: 60, amount_capturable: 40 });
    }
  });

  it('a retry after a crash reaches the same capture: one capture, one acquirer call', async () => {
    const id = await manual(100);
    const captures = `${base}/${id}/captures`;
    const crashKey = key();
    const calls = () => api.calls.counts.get('acquirer.capture') ?? 0;
    const before = calls();
    crash.state.dead = true;
    const first = await post(captures, TOKENS.alphaHosted, { amount: 30 }, crashKey);
    crash.state.dead = false;
    expect(first.status).toBe(201);
    expectProblem(await post(captures, TOKENS.alphaHosted, { amount: 30 }, crashKey), 409, 'idempotency_in_progress');
    api.clock.advance(IDEMPOTENCY_STALE_AFTER_MS + 1000);
    const retry = await post(captures, TOKENS.alphaHosted, { amount: 30 }, crashKey);
    expect(retry.status).toBe(201);
    expect(retry.json.id).toBe(first.json.id);
    expect(calls() - before).toBe(1);
    expect((await get(captures, TOKENS.alphaHosted)).json.items).toHaveLength(1);
    expect((await get(`${base}/${id}`, TOKENS.alphaHosted)).json.amount_captured).toBe(30);
  });

  it('a retry after a crash of a cancel of a hosted payment answers the canceled payment, not 409', async () => {
    const created = await post(base, TOKENS.alphaHosted, hostedRequest());
    const cancel = `${base}/${created.json.id}/cancel`;
    const crashKey = key();
    crash.state.dead = true;
    const first = await post(cancel, TOKENS.alphaHosted, {}, crashKey);
    crash.state.dead = false;
    expect(first.json).toMatchObject({ state: 'failed', failure_reason: 'canceled' });
    expectProblem(await post(cancel, TOKENS.alphaHosted, {}, crashKey), 409, 'idempotency_in_progress');
    api.clock.advance(IDEMPOTENCY_STALE_AFTER_MS + 1000);
    const retry = await post(cancel, TOKENS.alphaHosted, {}, crashKey);
    expect(retry.status).toBe(200);
    expect(retry.json).toEqual(first.json);
    // Without the takeover a second cancel is refused, as before.
    expectProblem(await post(cancel, TOKENS.alphaHosted, {}, key()), 409, 'payment_not_cancelable');
  });

  it('no 500 for any body sent to the operation routes', async () => {
    const id = await manual(999_999);
    const created = await post(base, TOKENS.alphaCompliant, directRequest('4242424242424242', { amount: 999_999 }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(`${base}/${id}/captures`, `${base}/${created.json.id}/refunds`, `${base}/${id}/cancel`),
        fc.oneof(
          fc.jsonValue(),
          fc.record(
            { amount: fc.oneof(fc.integer(), fc.double(), fc.string()), final: fc.jsonValue() },
            { requiredKeys: [] },
          ),
          fc.record(
            { amount: fc.integer({ min: -5, max: 50 }), reference: fc.string(), description: fc.string() },
            { requiredKeys: [] },
          ),
          fc.string(),
        ),
        async (url, body) => {
          const answer = await post(url, TOKENS.alphaHosted, typeof body === 'string' ? body : body);
          expect(answer.status).toBeLessThan(500);
          expect([200, 201, 400, 409, 415]).toContain(answer.status);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('a retry while the first capture still runs (node:http, a slow acquirer)', () => {
  it('answers 409 idempotency_in_progress, then the first answer once it is done', async () => {
    const api = makeApi({ acquirerLatencyMs: 150 });
    const server = await serve('node:http', api);
    try {
      const base = `${server.base}/v1/profiles/${MAIN}/payments`;
      const created = await post(
        base,
        TOKENS.alphaCompliant,
        directRequest('4242424242424242', { amount: 100, capture_method: 'manual' }),
      );
      const captures = `${base}/${created.json.id}/captures`;
      const same = key();
      const first = post(captures, TOKENS.alphaHosted, { amount: 20 }, same);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expectProblem(await post(captures, TOKENS.alphaHosted, { amount: 20 }, same), 409, 'idempotency_in_progress');
      const done = await first;
      expect(done.status).toBe(201);
      const replay = await post(captures, TOKENS.alphaHosted, { amount: 20 }, same);
      expect(replay.text).toBe(done.text);
      expect((await get(captures, TOKENS.alphaHosted)).json.items).toHaveLength(1);
      expect(api.unhandled()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
