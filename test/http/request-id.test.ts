import { err, ok } from 'neverthrow';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultRequestId } from '../../adapters/http/index.js';
import { containsCardNumber } from '../../src/domain/card-number.js';
import type { IdempotencyStore, PaymentEngine, StoredResponse } from '../../src/index.js';
import { hostedRequest } from '../support/requests.js';
import {
  makeApi,
  serve,
  SERVER_KINDS,
  TOKENS,
  type ApiHarness,
  type LogLine,
  type RunningServer,
  type ServerKind,
} from './support/api-harness.js';
import { bearer, call, get, post, type Answer, type CallOptions } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

/**
 * Every answer of the v1 API carries `Request-Id`, a new one per request, on every entry point
 * and for every status; every log line written for the request, by the API and by the engine
 * command it ran, carries the same id as `requestId`.
 */

const MAIN = 'profile_alpha_main';
const DEFAULT_ID = /^req_[0-9a-f]{32}$/;
/** A payment id whose read throws in the engine (a bug): the API's catch-all answers it. */
const THROWING_ID = `payment_${'e'.repeat(32)}`;

/**
 * The harness with a store that answers `in_progress` for the key `busy` and fails for `down`
 * (keeping every answer it is asked to store in `stored`), an engine whose read of `THROWING_ID`
 * throws, and pages that throw for `/boom` and answer nothing else.
 */
function stubbedApi(): ApiHarness & { readonly stored: StoredResponse[] } {
  const api = makeApi();
  const real = api.idempotency;
  const stored: StoredResponse[] = [];
  const idempotency: IdempotencyStore = {
    begin: (request) => {
      if (request.key === 'busy') return ok({ kind: 'in_progress' as const });
      if (request.key === 'down') return err({ code: 'unavailable' as const, message: 'down', retryable: true });
      return real.begin(request);
    },
    complete: (request) => {
      stored.push(request.response);
      return real.complete(request);
    },
    release: (request) => real.release(request),
    purgeExpired: (now) => real.purgeExpired(now),
  };
  const engine: PaymentEngine = {
    ...api.engine,
    getPayment: (query) => {
      if (query.paymentId === THROWING_ID) throw new Error('engine bug');
      return api.engine.getPayment(query);
    },
  };
  const pages = async (request: Request): Promise<Response | undefined> => {
    if (new URL(request.url).pathname === '/boom') throw new Error('page bug');
    return undefined;
  };
  return { ...api, stored, handlerOptions: { ...api.handlerOptions, idempotency, engine, pages } };
}

/** One request, and the log lines written while it ran (the tests send one at a time). */
interface Exchange {
  readonly name: string;
  readonly answer: Answer;
  readonly lines: readonly LogLine[];
}

/** Where the answers below come from: paystate() in Express answers no path outside `/v1` (the host does). */
const answersOutsideV1 = (kind: ServerKind) => kind !== 'express, json parser first, mounted at /api';

describe.each(SERVER_KINDS)('Request-Id, served by %s', (kind) => {
  let server: RunningServer;
  afterEach(async () => {
    await server.close();
  });

  /** Sends `options` to `path` (below the mount) and keeps what it logged. */
  const exchange =
    (api: ApiHarness, exchanges: Exchange[]) => async (name: string, path: string, options: CallOptions) => {
      const from = api.logs.length;
      const answer = await call(`${server.base}${path}`, options);
      exchanges.push({ name, answer, lines: api.logs.slice(from) });
      return answer;
    };

  it('every status carries a new, well-formed Request-Id, and every log line of the request carries it', async () => {
    const api = stubbedApi();
    server = await serve(kind, api);
    const exchanges: Exchange[] = [];
    const send = exchange(api, exchanges);
    const payments = `/v1/profiles/${MAIN}/payments`;
    const json = { ...bearer(TOKENS.alphaCompliant), 'content-type': 'application/json' };
    const create = (body: unknown, headers: Record<string, string> = {}): CallOptions => ({
      method: 'POST',
      headers: { ...json, ...headers },
      body,
    });
    const read = { headers: bearer(TOKENS.alphaCompliant) };

    const created = await send('201', payments, create(hostedRequest()));
    expect(created.status).toBe(201);
    const expected: readonly (readonly [string, number, string | undefined, () => Promise<Answer>])[] = [
      ['200', 200, undefined, () => send('200', payments, read)],
      ['HEAD 200', 200, undefined, () => send('HEAD 200', payments, { ...read, method: 'HEAD' })],
      ['200 payment', 200, undefined, () => send('200 payment', `${payments}/${created.json.id}`, read)],
      ['400 invalid_json', 400, 'invalid_json', () => send('400 invalid_json', payments, create('{"amount":'))],
      [
        '400 validation',
        400,
        'validation_failed',
        () => send('400 validation', payments, create(hostedRequest({ amount: 0 }))),
      ],
      ['401', 401, 'unauthorized', () => send('401', payments, {})],
      ['403', 403, 'forbidden_profile', () => send('403', payments, { headers: bearer(TOKENS.alphaSecondOnly) })],
      ['404', 404, 'not_found', () => send('404', '/v1/refunds', read)],
      ['405', 405, 'method_not_allowed', () => send('405', payments, { ...read, method: 'DELETE' })],
      [
        '406',
        406,
        'not_acceptable',
        () => send('406', payments, { headers: { ...read.headers, accept: 'text/html' } }),
      ],
      [
        '409',
        409,
        'idempotency_in_progress',
        () => send('409', payments, create(hostedRequest(), { 'idempotency-key': 'busy' })),
      ],
      [
        '413',
        413,
        'payload_too_large',
        () => send('413', payments, create(hostedRequest({ description: 'x'.repeat(70_000) }))),
      ],
      [
        '415',
        415,
        'unsupported_media_type',
        () => send('415', payments, create('{}', { 'content-type': 'text/plain' })),
      ],
      ['500', 500, 'internal_error', () => send('500', `${payments}/${THROWING_ID}`, read)],
      ['503', 503, 'unavailable', () => send('503', payments, create(hostedRequest(), { 'idempotency-key': 'down' }))],
    ];
    // One at a time, so that each request's log lines are its own.
    for (const [name, status, code, send] of expected) {
      const answer = await send();
      if (code === undefined) expect(answer.status, name).toBe(status);
      else expectProblem(answer, status, code);
    }
    const key = { 'idempotency-key': 'same-key' };
    expect((await send('201 keyed', payments, create(hostedRequest(), key))).status).toBe(201);
    expectProblem(
      await send('422', payments, create(hostedRequest({ amount: 1 }), key)),
      422,
      'idempotency_key_reused',
    );
    if (answersOutsideV1(kind)) {
      expectProblem(await send('404 outside /v1', '/nowhere', read), 404, 'not_found');
      expectProblem(await send('500 of a page', '/boom', read), 500, 'internal_error');
    }

    const ids = exchanges.map(({ answer }) => answer.headers['request-id']);
    for (const { name, answer } of exchanges) expect(answer.headers['request-id'], name).toMatch(DEFAULT_ID);
    expect(new Set(ids).size).toBe(exchanges.length);
    for (const { name, answer, lines } of exchanges) {
      // A body the host's JSON parser refused never reached paystate's handler: nothing logged. The
      // catch-alls log the error instead of the request line.
      const reachedApi = !(name === '400 invalid_json' && !answersOutsideV1(kind));
      if (reachedApi && !name.startsWith('500') && !name.includes('outside')) {
        expect(
          lines.map((line) => line.message),
          name,
        ).toContain('http request');
      }
      expect(
        lines.filter((line) => line.fields['requestId'] !== answer.headers['request-id']),
        name,
      ).toEqual([]);
    }
    // The lines of the engine's commands and of the stores are among them.
    const messagesOf = (name: string) =>
      exchanges.find((each) => each.name === name)?.lines.map((line) => line.message);
    expect(messagesOf('201')).toEqual(
      expect.arrayContaining(['payment state changed', 'command done', 'http request']),
    );
    expect(messagesOf('500')).toContain('unhandled error in the HTTP API');
    expect(messagesOf('503')).toContain('idempotency store unavailable');
    if (answersOutsideV1(kind)) expect(messagesOf('500 of a page')).toEqual(['unhandled error in the HTTP handler']);
  });

  it('an Idempotency-Key replay is the stored answer byte for byte, with its own new Request-Id', async () => {
    const api = stubbedApi();
    server = await serve(kind, api);
    const payments = `${server.base}/v1/profiles/${MAIN}/payments`;
    const key = { 'idempotency-key': 'replayed-key' };
    const first = await post(payments, TOKENS.alphaCompliant, hostedRequest(), key);
    const replays = [
      await post(payments, TOKENS.alphaCompliant, hostedRequest(), key),
      await post(payments, TOKENS.alphaCompliant, hostedRequest(), key),
    ];
    const ids = [first, ...replays].map((answer) => answer.headers['request-id']);
    for (const id of ids) expect(id).toMatch(DEFAULT_ID);
    expect(new Set(ids).size).toBe(3);
    const rest = ({ headers, status, text }: Answer) => {
      const { date: _date, 'request-id': _id, 'idempotency-replayed': _replayed, ...others } = headers;
      return { status, headers: others, text };
    };
    for (const replay of replays) {
      expect(replay.headers['idempotency-replayed']).toBe('true');
      expect(rest(replay)).toEqual(rest(first));
    }
    // What the store keeps is the answer without any request's id.
    expect(api.stored).toHaveLength(1);
    expect(Object.keys(api.stored[0]?.headers ?? {})).not.toContain('request-id');
    expect(JSON.stringify(api.stored)).not.toContain(String(ids[0]));
    // Each replay's lines carry its own id.
    const lines = api.logs.filter((line) => line.message === 'http request');
    expect(lines.map((line) => line.fields['requestId'])).toEqual(ids);
  });
});

describe('Request-Id where paystate writes the answer itself', () => {
  it('the fetch handler answers a path outside /v1 with no page, and its 500, with a Request-Id', async () => {
    const api = stubbedApi();
    const server = await serve('node:http + fetch bridge', api);
    try {
      const outside = await get(`${server.base}/nowhere`, TOKENS.alphaHosted);
      expectProblem(outside, 404, 'not_found');
      expect(outside.headers['request-id']).toMatch(DEFAULT_ID);
      const broken = await get(`${server.base}/boom`, TOKENS.alphaHosted);
      expectProblem(broken, 500, 'internal_error');
      expect(broken.headers['request-id']).toMatch(DEFAULT_ID);
      const logged = api.logs.filter((line) => line.message === 'unhandled error in the HTTP handler');
      expect(logged.map((line) => line.fields['requestId'])).toEqual([broken.headers['request-id']]);
    } finally {
      await server.close();
    }
  });
});

describe('defaultRequestId', () => {
  it('is req_ and 32 lowercase hex digits, new every time, never with 12 decimal digits in a row', () => {
    // About one random id in thirty has such a run (one in three thousand holds a card number).
    const ids = Array.from({ length: 20_000 }, defaultRequestId);
    for (const id of ids) expect(id).toMatch(DEFAULT_ID);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => /\d{12}/.test(id) || containsCardNumber(id))).toEqual([]);
    // Every hex digit turns up in every place.
    for (let place = 4; place < 36; place++) expect(new Set(ids.map((id) => id[place])).size).toBe(16);
  });
});
