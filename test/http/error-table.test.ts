import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_STATUS, problemFromPaymentError } from '../../adapters/http/index.js';
import { paymentError } from '../../src/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { makeApi, serve, SERVER_KINDS, TOKENS, type ApiHarness, type RunningServer } from './support/api-harness.js';
import { bearer, call, get, jsonHeaders, post } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

const MAIN = 'profile_alpha_main';
const KIB = 1024;

describe.each(SERVER_KINDS)('error table (decisions.md section 5) served by %s', (kind) => {
  let api: ApiHarness;
  let server: RunningServer;
  let payments: string;
  const hostParsesJson = kind === 'express, json parser first, mounted at /api';

  beforeAll(async () => {
    api = makeApi();
    server = await serve(kind, api);
    payments = `${server.base}/v1/profiles/${MAIN}/payments`;
  });
  afterAll(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  describe('400', () => {
    it('invalid_json for a body that is not JSON', async () => {
      expectProblem(await post(payments, TOKENS.alphaCompliant, '{"amount": 12,'), 400, 'invalid_json');
    });

    it('invalid_json for a body that is not UTF-8', async () => {
      const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
      // A host's express.json() decodes invalid UTF-8 leniently before paystate sees the body
      // (docs/embedding-http.md); the body is still refused.
      const code = hostParsesJson ? 'validation_failed' : 'invalid_json';
      expectProblem(await post(payments, TOKENS.alphaCompliant, bytes), 400, code);
    });

    it('validation_failed with the path of every invalid field', async () => {
      const body = hostedRequest({ amount: 0, billing: { ...(hostedRequest()['billing'] as object), email: 'nope' } });
      delete body['shipping'];
      const answer = await post(payments, TOKENS.alphaCompliant, body);
      expectProblem(answer, 400, 'validation_failed');
      expect(answer.json.errors.map((issue: { path: string }) => issue.path)).toEqual([
        'amount',
        'billing.email',
        'shipping',
      ]);
    });

    it('validation_failed for a body that is JSON but not an object, its detail the issue alone', async () => {
      for (const [body, received] of [
        ['null', 'null'],
        ['5', 'number'],
        ['[]', 'array'],
        ['"x"', 'string'],
      ] as const) {
        const answer = await post(payments, TOKENS.alphaCompliant, body);
        // express.json() (strict) refuses a top level that is not an object or array itself.
        if (hostParsesJson && received !== 'array') {
          expectProblem(answer, 400, 'invalid_json');
          continue;
        }
        expectProblem(answer, 400, 'validation_failed');
        expect(answer.json.detail).toBe(`Expected an object (received ${received})`);
      }
    });

    it('validation_failed for a list limit outside 1..100 and for an unknown query parameter', async () => {
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=1&limit=2', 'after=nope', 'colour=red']) {
        expectProblem(await get(`${payments}?${query}`, TOKENS.alphaCompliant), 400, 'validation_failed');
      }
      // A malformed cursor is told what a cursor looks like.
      const cursor = await get(`${payments}?after=payment_nope`, TOKENS.alphaCompliant);
      expect(cursor.json.detail).toBe(
        'after: Must be a payment id (payment_ and 32 hex digits), as next_cursor gives it',
      );
    });

    it('validation_failed for an Idempotency-Key of 0 or more than 255 characters', async () => {
      for (const key of ['', 'k'.repeat(256)]) {
        const answer = await post(payments, TOKENS.alphaCompliant, hostedRequest(), { 'idempotency-key': key });
        expectProblem(answer, 400, 'validation_failed');
        expect(answer.json.errors).toEqual([{ path: 'Idempotency-Key', message: expect.any(String) }]);
      }
    });
  });

  describe('401 unauthorized with WWW-Authenticate: Bearer', () => {
    const challenge = 'Bearer realm="paystate"';
    const invalidToken = `${challenge}, error="invalid_token"`;
    // RFC 6750 section 3.1: no error code without bearer credentials (none, or another scheme).
    const cases: Array<[string, Record<string, string>, string]> = [
      ['no Authorization header', {}, challenge],
      ['an unknown token', bearer('tok_unknown'), invalidToken],
      ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, challenge],
      ['Bearer without a token', { authorization: 'Bearer' }, invalidToken],
      ['a token with spaces', { authorization: 'Bearer two words' }, invalidToken],
    ];
    it.each(cases)('%s', async (_name, headers, expected) => {
      for (const answer of [
        await call(payments, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: hostedRequest(),
        }),
        await call(payments, { headers }),
        await call(`${server.base}/v1/partners/partner_alpha/profiles/${MAIN}`, { headers }),
      ]) {
        expectProblem(answer, 401, 'unauthorized');
        expect(answer.headers['www-authenticate']).toBe(expected);
      }
    });
  });

  describe('403', () => {
    it('forbidden_profile for a profile outside the client scope', async () => {
      const answer = await post(payments, TOKENS.alphaSecondOnly, hostedRequest());
      expectProblem(answer, 403, 'forbidden_profile');
    });

    it('direct_flow_not_permitted for card data from a client that is not PCI DSS compliant', async () => {
      const before = api.repository.size();
      const answer = await post(payments, TOKENS.alphaHosted, directRequest('4242424242424242'));
      expectProblem(answer, 403, 'direct_flow_not_permitted');
      expect(answer.text).not.toContain('4242424242424242');
      expect(api.repository.size()).toBe(before);
    });
  });

  describe('404 not_found', () => {
    it('for an unknown payment, profile or route', async () => {
      const paymentId = `payment_${'f'.repeat(32)}`;
      for (const path of [
        `/v1/profiles/${MAIN}/payments/${paymentId}`,
        `/v1/profiles/${MAIN}/payments/not-an-id`,
        `/v1/partners/partner_alpha/profiles/${MAIN}/payments/${paymentId}`,
        `/v1/partners/partner_beta/profiles/profile_beta_main`,
        '/v1/nothing-here',
        '/v1',
        '/v1/profiles',
        `/v1/profiles/${MAIN}/payments/`,
        '/v1/profiles/%E0%A4%A/payments',
      ]) {
        expectProblem(await get(`${server.base}${path}`, TOKENS.alphaCompliant), 404, 'not_found');
      }
    });

    it('outside /v1: a 404 problem, or the host app when mounted in one', async () => {
      const answer = await get(`${server.base}/v2/profiles/x/payments`, TOKENS.alphaCompliant);
      if (hostParsesJson) expect(answer.status).toBe(404);
      else expectProblem(answer, 404, 'not_found');
    });
  });

  describe('405 method_not_allowed with Allow', () => {
    it.each([
      ['DELETE', `/v1/profiles/${MAIN}/payments`, 'GET, HEAD, POST'],
      ['PUT', `/v1/profiles/${MAIN}/payments`, 'GET, HEAD, POST'],
      ['POST', `/v1/profiles/${MAIN}/payments/payment_${'0'.repeat(32)}`, 'GET, HEAD'],
      ['PATCH', '/v1/partners/partner_alpha/profiles/profile_alpha_main', 'GET, HEAD'],
      ['OPTIONS', `/v1/profiles/${MAIN}/payments`, 'GET, HEAD, POST'],
    ])('%s %s', async (method, path, allow) => {
      const answer = await call(`${server.base}${path}`, { method, headers: jsonHeaders(TOKENS.alphaCompliant) });
      expectProblem(answer, 405, 'method_not_allowed');
      expect(answer.headers['allow']).toBe(allow);
    });
  });

  describe('406 / 415', () => {
    it('not_acceptable when Accept excludes JSON', async () => {
      for (const accept of ['text/html', 'application/xml, text/*', 'application/json;q=0']) {
        expectProblem(await get(payments, TOKENS.alphaCompliant, { accept }), 406, 'not_acceptable');
        const created = await post(payments, TOKENS.alphaCompliant, hostedRequest(), { accept });
        expectProblem(created, 406, 'not_acceptable');
      }
    });

    it('accepts a missing Accept, */*, application/json and application/*+json', async () => {
      for (const accept of ['*/*', 'application/json', 'application/*+json', 'text/html, application/*;q=0.5']) {
        expect((await get(payments, TOKENS.alphaCompliant, { accept })).status).toBe(200);
      }
      expect((await call(payments, { headers: bearer(TOKENS.alphaCompliant) })).status).toBe(200);
    });

    it('unsupported_media_type when the body is not application/json', async () => {
      for (const contentType of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
      ]) {
        const answer = await post(payments, TOKENS.alphaCompliant, JSON.stringify(hostedRequest()), {
          'content-type': contentType,
        });
        expectProblem(answer, 415, 'unsupported_media_type');
      }
      const untyped = await call(payments, {
        method: 'POST',
        headers: bearer(TOKENS.alphaCompliant),
        body: JSON.stringify(hostedRequest()),
      });
      expectProblem(untyped, 415, 'unsupported_media_type');
    });

    it('unsupported_media_type for a content coding it does not decode; identity is accepted', async () => {
      for (const encoding of ['gzip', 'br', 'deflate, gzip']) {
        const answer = await post(payments, TOKENS.alphaCompliant, JSON.stringify(hostedRequest()), {
          'content-type': 'application/json',
          'content-encoding': encoding,
        });
        // A host's express.json() decodes the body itself first (and refuses this one, which is
        // not compressed); paystate then gets it decoded.
        if (hostParsesJson) expect([400, 415]).toContain(answer.status);
        else expectProblem(answer, 415, 'unsupported_media_type');
      }
      const identity = await post(payments, TOKENS.alphaCompliant, JSON.stringify(hostedRequest()), {
        'content-type': 'application/json',
        'content-encoding': 'identity',
      });
      expect(identity.status).toBe(201);
    });
  });

  describe('413 payload_too_large over 64 KiB', () => {
    const big = (bytes: number) => JSON.stringify(hostedRequest({ description: 'x'.repeat(bytes) }));

    it('with a Content-Length over the limit', async () => {
      expectProblem(await post(payments, TOKENS.alphaCompliant, big(70 * KIB)), 413, 'payload_too_large');
    });

    it('with a chunked body that passes the limit (no Content-Length to trust)', async () => {
      for (const size of [70 * KIB, 300 * KIB]) {
        const answer = await call(payments, {
          method: 'POST',
          headers: jsonHeaders(TOKENS.alphaCompliant),
          body: big(size),
          chunked: true,
        });
        expectProblem(answer, 413, 'payload_too_large');
      }
    });

    it('accepts a body just under the limit (then validates it)', async () => {
      const answer = await post(payments, TOKENS.alphaCompliant, big(60 * KIB));
      expectProblem(answer, 400, 'validation_failed');
      expect(answer.json.errors).toEqual([{ path: 'description', message: 'Must be at most 255 characters' }]);
    });
  });

  it('422 idempotency_key_reused and 409 idempotency_in_progress (see idempotency.test.ts)', async () => {
    const headers = { 'idempotency-key': `reuse-${kind}` };
    expect((await post(payments, TOKENS.alphaCompliant, hostedRequest(), headers)).status).toBe(201);
    const reused = await post(payments, TOKENS.alphaCompliant, hostedRequest({ amount: 2 }), headers);
    expectProblem(reused, 422, 'idempotency_key_reused');
  });

  it('503 unavailable with Retry-After when storage is down', async () => {
    api.repository.injectFailure('insert');
    const answer = await post(payments, TOKENS.alphaCompliant, hostedRequest());
    expectProblem(answer, 503, 'unavailable');
    expect(answer.headers['retry-after']).toBe('1');
  });
});

describe.each(SERVER_KINDS)('500 internal_error is a bug, never an answer to input, served by %s', (kind) => {
  it('a credential store that throws is answered 503 problem+json (as a throwing idempotency store is) and logged', async () => {
    const api = makeApi();
    const server = await serve(kind, {
      ...api,
      handlerOptions: {
        ...api.handlerOptions,
        credentials: {
          authenticate: () => {
            throw new Error('bug in the credential store');
          },
          findProfile: () => {
            throw new Error('bug');
          },
        },
      },
    });
    try {
      const answer = await post(`${server.base}/v1/profiles/${MAIN}/payments`, TOKENS.alphaCompliant, hostedRequest());
      expectProblem(answer, 503, 'unavailable');
      expect(answer.text).not.toContain('bug in the credential store');
      const thrown = api.logs.filter((line) => line.message.startsWith('credential store threw'));
      expect(thrown.map((line) => [line.level, line.fields['call']])).toEqual([['error', 'authenticate']]);
      expect(api.unhandled()).toEqual([]);
      // The profile resource reads the store too.
      const profile = await get(`${server.base}/v1/partners/partner_alpha/profiles/${MAIN}`, TOKENS.alphaCompliant);
      expectProblem(profile, 503, 'unavailable');
    } finally {
      await server.close();
    }
  });
});

describe('status of every problem code', () => {
  it('maps each code as decisions.md section 5 says', () => {
    expect(PROBLEM_STATUS).toEqual({
      invalid_json: 400,
      validation_failed: 400,
      unauthorized: 401,
      forbidden_profile: 403,
      direct_flow_not_permitted: 403,
      not_found: 404,
      method_not_allowed: 405,
      not_acceptable: 406,
      conflict: 409,
      invalid_state: 409,
      payment_not_capturable: 409,
      payment_not_cancelable: 409,
      payment_not_refundable: 409,
      amount_exceeds_capturable: 409,
      amount_exceeds_refundable: 409,
      idempotency_in_progress: 409,
      payload_too_large: 413,
      unsupported_media_type: 415,
      idempotency_key_reused: 422,
      rate_limited: 429,
      internal_error: 500,
      unavailable: 503,
    });
  });

  it('engine errors that could quote input get fixed texts; unavailable carries Retry-After', () => {
    expect(problemFromPaymentError(paymentError.forbiddenProfile('4242424242424242')).detail).not.toContain('4242');
    expect(problemFromPaymentError(paymentError.unavailable('db down: host x')).headers).toEqual({
      'retry-after': '1',
    });
    expect(problemFromPaymentError(paymentError.invalidState('failed', 'submit')).code).toBe('invalid_state');
    expect(problemFromPaymentError(paymentError.conflict()).code).toBe('conflict');
  });
});
