import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUM_RUNS } from '../support/property-runs.js';
import { browser, creditcard, directRequest, hostedRequest } from '../support/requests.js';
import { makeApi, serve, TOKENS, type ApiHarness, type RunningServer, type ServerKind } from './support/api-harness.js';
import { call, type Answer, type CallOptions } from './support/client.js';

/**
 * Each case is an HTTP call over a real socket, so the property runs a fifth of NUM_RUNS (at
 * least 100) per server kind: 200 by default.
 */
const RUNS = Math.max(100, Math.floor(NUM_RUNS / 5));

/** Card numbers and a CVC planted in requests; none may come back. */
const CARD_NUMBERS = ['4242424242424242', '5555555555554444', '378282246310005', '4000000000003220'] as const;
const CVC = '7319';

const MAIN = 'profile_alpha_main';
const COLLECTION = `/v1/profiles/${MAIN}/payments`;
const KNOWN_FIELDS = new Set([
  'description',
  'reference',
  'method',
  'currency',
  'amount',
  'billing',
  'shipping',
  'session',
  'creditcard',
  'user',
]);

type Json = Record<string, unknown>;
interface Hostile {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
  readonly chunked?: boolean;
}

const cardNumber = fc.constantFrom(...CARD_NUMBERS);
const spacedCard = cardNumber.map((n) => n.replace(/(\d{4})(?=\d)/g, '$1 '));
const cardLike = fc.oneof(cardNumber, spacedCard);

/** A key that is not a field of the create request. */
const unknownKey = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 40 }),
    cardNumber,
    fc.constantFrom('__proto__', 'constructor', 'scree_height', 'creditcard_number', 'pan', 'cvc'),
  )
  .filter((key) => !KNOWN_FIELDS.has(key));

/** Values of any JSON type, some of them huge or card-bearing. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer(),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.nat({ max: 20_000 }).map((n) => 'x'.repeat(n + 256)),
  cardLike,
  fc.constant({ number: CARD_NUMBERS[0], cvc: CVC }),
  fc.array(fc.integer(), { maxLength: 5 }),
);

/** Mutations that always make a create request invalid. */
const invalidating: fc.Arbitrary<(body: Json) => void> = fc.oneof(
  // wrong types
  fc
    .constantFrom<[string, unknown]>(
      ['amount', '1999'],
      ['amount', 19.99],
      ['amount', 0],
      ['amount', -5],
      ['amount', 1e15],
      ['currency', 978],
      ['currency', 'eur'],
      ['currency', 'XXZ'],
      ['method', null],
      ['method', 'paypal'],
      ['billing', 'x'],
      ['shipping', []],
      ['session', { redirect_url: 'javascript:alert(1)' }],
      ['session', { redirect_url: 'http://shop.example.com/' }],
      ['description', 42],
    )
    .map(([field, value]) => (body: Json) => {
      body[field] = value;
    }),
  // huge strings
  fc
    .tuple(fc.constantFrom('description', 'reference'), fc.integer({ min: 256, max: 30_000 }))
    .map(([field, n]) => (body: Json) => {
      body[field] = 'y'.repeat(n);
    }),
  // unknown fields, card data in keys and values
  fc.tuple(unknownKey, anyValue).map(([key, value]) => (body: Json) => {
    Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
  }),
  // missing required fields
  fc.constantFrom('method', 'currency', 'amount', 'billing', 'shipping', 'session').map((field) => (body: Json) => {
    delete body[field];
  }),
  // card data where it does not belong: nested unknown keys, a card with broken parts
  fc.tuple(cardLike, fc.constantFrom('billing', 'shipping', 'session')).map(([number, where]) => (body: Json) => {
    body[where] = { ...(body[where] as Json), card_number: number, cvc: CVC };
  }),
  fc
    .constantFrom<[string, unknown]>(
      ['cvc', '12'],
      ['expiration', '2020-01-01T00:00:00.000Z'],
      ['number', '4242424242424241'],
      ['holder_name', 'X'],
    )
    .map(([field, value]) => (body: Json) => {
      body['creditcard'] = { ...creditcard(CARD_NUMBERS[0]), cvc: CVC, [field]: value };
      body['user'] = browser;
    }),
  fc.constant((body: Json) => {
    body['creditcard'] = { ...creditcard(CARD_NUMBERS[1]), cvc: CVC };
    body['user'] = { ...browser, scree_height: 1080, screen_height: undefined };
  }),
);

/** Optional extras that may be valid on their own: card data in free text. */
const decorations: fc.Arbitrary<(body: Json) => void> = fc.oneof(
  cardLike.map((number) => (body: Json) => {
    body['description'] = `card ${number} cvc ${CVC}`;
  }),
  cardLike.map((number) => (body: Json) => {
    body['reference'] = number;
  }),
  fc.constant((body: Json) => {
    body['creditcard'] = { ...creditcard(CARD_NUMBERS[2]), cvc: CVC };
    body['user'] = browser;
  }),
);

const invalidBody: fc.Arbitrary<string> = fc
  .tuple(
    fc.boolean(),
    fc.array(decorations, { maxLength: 2 }),
    fc.array(invalidating, { minLength: 1, maxLength: 3 }),
    fc.boolean(),
  )
  .map(([direct, extras, breakers, pretty]) => {
    const body: Json = direct
      ? directRequest(CARD_NUMBERS[3], { creditcard: { ...creditcard(CARD_NUMBERS[3]), cvc: '737' } })
      : hostedRequest();
    for (const change of [...extras, ...breakers]) change(body);
    return JSON.stringify(body, null, pretty ? 2 : undefined);
  });

/** Not JSON at all, or not only JSON. */
const brokenJson: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc
    .tuple(fc.constant(JSON.stringify(directRequest(CARD_NUMBERS[0]))), fc.nat())
    .map(([text, n]) => text.slice(0, n % text.length)),
  fc.constant(JSON.stringify(hostedRequest())).map((text) => `${text}}`),
  fc.constant(JSON.stringify(hostedRequest())).map((text) => text.replace(':', '=')),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    '',
    ' ',
    'null',
    '[]',
    '"4242424242424242"',
    '1e999',
    'NaN',
    '{"a":1,}',
    `{"number":"${CARD_NUMBERS[0]}"`,
    '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
  ),
  fc.constant('['.repeat(5000) + ']'.repeat(5000)),
  fc.uint8Array({ minLength: 1, maxLength: 64 }),
);

const jsonHeaders = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json',
});

const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,300}$/);

/** A request to the create endpoint with hostile headers (and otherwise a valid body). */
const badHeaders: fc.Arbitrary<Hostile> = fc
  .oneof(
    fc.record({
      authorization: fc.oneof(
        headerValue,
        cardLike.map((n) => `Bearer ${n.replace(/ /g, '')}`),
        fc.constant('Bearer'),
      ),
    }),
    fc.record({
      'content-type': fc.constantFrom(
        'text/plain',
        'application/xml',
        'multipart/form-data',
        'application/json; charset=utf-16',
        '',
      ),
    }),
    fc.record({ accept: fc.constantFrom('text/html', 'image/png', 'application/json;q=0', 'application/xml') }),
    fc.record({
      'idempotency-key': fc.oneof(
        fc.constant(''),
        fc.integer({ min: 256, max: 4000 }).map((n) => 'k'.repeat(n)),
      ),
    }),
  )
  .chain((override) =>
    fc.record({
      method: fc.constant('POST'),
      path: fc.constant(COLLECTION),
      headers: fc.tuple(cardLike, fc.constantFrom('x-card-number', 'x-cvc', 'cookie')).map(([n, name]) => ({
        ...jsonHeaders(TOKENS.alphaCompliant),
        [name]: name === 'x-cvc' ? CVC : n,
        ...override,
      })),
      body: fc.constant(
        JSON.stringify(directRequest(CARD_NUMBERS[0], { creditcard: { ...creditcard(CARD_NUMBERS[0]), cvc: CVC } })),
      ),
    }),
  )
  .filter((request) => {
    // Keep only requests these headers make invalid (a random Authorization could be a valid token).
    const auth = request.headers['authorization'] ?? '';
    return !Object.values(TOKENS).some((token) => auth.trim().toLowerCase() === `bearer ${token}`);
  });

const junkSegment = fc.oneof(
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
  fc.constantFrom('..', '%2e%2e', '%00', '%ZZ', '%E0%A4%A', 'profile_alpha_main%2F..', '~', '%20', '.'),
  cardNumber,
  fc.integer({ min: 100, max: 3000 }).map((n) => 'z'.repeat(n)),
);

/** Weird paths and wrong methods: none of them names a resource the caller may use. */
const weirdRoutes: fc.Arbitrary<Hostile> = fc.oneof(
  fc.record({
    method: fc.constantFrom('GET', 'POST', 'DELETE'),
    path: fc.oneof(
      fc.array(junkSegment, { minLength: 0, maxLength: 6 }).map((segments) => `/v1/${segments.join('/')}`),
      junkSegment.map((s) => `/v1/profiles/x${s}/payments`),
      junkSegment.map((s) => `/v1/profiles/${MAIN}/payments/${s}`),
      junkSegment.map((s) => `/v1/partners/${s}/profiles/${MAIN}/payments/payment_${'0'.repeat(32)}`),
      junkSegment.map((s) => `/v1/partners/partner_beta/profiles/${MAIN}x${s}`),
      fc.constantFrom(
        '//v1/profiles/profile_alpha_main/payments',
        '/V1/profiles/profile_alpha_main/payments',
        '/v1/profiles/profile_alpha_main/payments//',
      ),
    ),
    headers: fc.constant(jsonHeaders(TOKENS.alphaCompliant)),
    body: fc.constant(JSON.stringify(hostedRequest())),
  }),
  fc
    .record({
      method: fc.constantFrom('PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'HEAD'),
      path: fc.constantFrom(
        COLLECTION,
        `${COLLECTION}/payment_${'0'.repeat(32)}`,
        `/v1/partners/partner_alpha/profiles/${MAIN}`,
      ),
      headers: fc.constant(jsonHeaders(TOKENS.alphaCompliant)),
      body: fc.constant(JSON.stringify(hostedRequest())),
    })
    .filter((request) => !(request.method === 'HEAD' && !request.path.startsWith(COLLECTION + '/'))),
  fc.record({
    method: fc.constant('GET'),
    path: fc
      .tuple(fc.string({ maxLength: 20 }), fc.oneof(fc.string({ maxLength: 50 }), cardNumber))
      .map(
        ([name, value]) =>
          `${COLLECTION}?x_${encodeURIComponent(name)}=${encodeURIComponent(value)}&limit=${CARD_NUMBERS[0]}`,
      ),
    headers: fc.constant(jsonHeaders(TOKENS.alphaCompliant)),
  }),
);

/** Everything a hostile client might send. */
const hostileRequest: fc.Arbitrary<Hostile> = fc.oneof(
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant(COLLECTION),
    headers: fc.constantFrom(jsonHeaders(TOKENS.alphaCompliant), jsonHeaders(TOKENS.alphaHosted)),
    body: invalidBody,
    chunked: fc.boolean(),
  }),
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant(COLLECTION),
    headers: fc.constant(jsonHeaders(TOKENS.alphaCompliant)),
    body: brokenJson,
    chunked: fc.boolean(),
  }),
  // a valid direct request from clients that may not send it
  fc
    .record({
      method: fc.constant('POST'),
      path: fc.constantFrom(COLLECTION, '/v1/profiles/profile_beta_main/payments'),
      headers: fc.constantFrom(
        jsonHeaders(TOKENS.alphaHosted),
        jsonHeaders(TOKENS.alphaSecondOnly),
        jsonHeaders(TOKENS.betaCompliant),
      ),
      body: fc.constant(
        JSON.stringify(directRequest(CARD_NUMBERS[0], { creditcard: { ...creditcard(CARD_NUMBERS[0]), cvc: CVC } })),
      ),
    })
    .filter((request) => !(request.path.includes('beta') && request.headers.authorization.includes('beta'))),
  // over 64 KiB
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant(COLLECTION),
    headers: fc.constant(jsonHeaders(TOKENS.alphaCompliant)),
    body: fc
      .integer({ min: 65 * 1024, max: 400 * 1024 })
      .map((n) => JSON.stringify(hostedRequest({ description: 'd'.repeat(n) }))),
    chunked: fc.boolean(),
  }),
  badHeaders,
  weirdRoutes,
);

function leaks(answer: Answer): string[] {
  // The request's id is 32 random hex digits (a 4-digit CVC turns up in one answer of about two
  // thousand): it is checked to be nothing but that, and left out of the search. (The answers the
  // host or the generic node bridge write themselves have none.)
  const { 'request-id': requestId, ...headers } = answer.headers;
  if (requestId !== undefined) expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
  const text = `${JSON.stringify(headers)}\n${answer.text}`;
  const planted = [...CARD_NUMBERS, ...CARD_NUMBERS.map((n) => n.replace(/(\d{4})(?=\d)/g, '$1 ')), CVC];
  return planted.filter((secret) => text.includes(secret));
}

const KINDS: readonly ServerKind[] = [
  'node:http',
  'node:http + fetch bridge',
  'express router (fetch handler)',
  'express, json parser first, mounted at /api',
  'fastify plugin, mounted at /api',
];

describe.each(KINDS)('hostile requests, served by %s', (kind) => {
  let api: ApiHarness;
  let server: RunningServer;
  const genericBridge = kind === 'node:http + fetch bridge' || kind === 'express router (fetch handler)';

  beforeAll(async () => {
    api = makeApi();
    server = await serve(kind, api);
    // Something to protect: payments in the store before the property runs.
    for (const body of [hostedRequest(), directRequest('4000000000003220'), directRequest('4242424242424242')]) {
      const answer = await call(`${server.base}${COLLECTION}`, {
        method: 'POST',
        headers: jsonHeaders(TOKENS.alphaCompliant),
        body,
      });
      expect(answer.status).toBe(201);
    }
  });
  afterAll(async () => {
    await server.close();
  });

  it(`answers a 4xx problem, echoes no card data and changes nothing (${RUNS} runs)`, async () => {
    const size = api.repository.size();
    const snapshot = api.repository.snapshot();
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (request) => {
        const options: CallOptions = {
          method: request.method,
          headers: { ...request.headers },
          ...(request.body !== undefined && request.method !== 'GET' && { body: request.body }),
          ...(request.chunked === true && { chunked: true }),
        };
        const answer = await call(`${server.base}${request.path}`, options);
        if (request.method === 'TRACE' && genericBridge) {
          // No fetch Request can carry TRACE: the generic bridge answers 501 (see adapters/http/node-server.ts).
          expect(answer.status).toBe(501);
        } else {
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        }
        expect(leaks(answer)).toEqual([]);
        // Mounted in a host app, paths outside /v1 are the host's (its own 404 page).
        const hostOwned = kind === 'express, json parser first, mounted at /api' && !request.path.startsWith('/v1/');
        if (hostOwned) expect(answer.status).toBe(404);
        else if (request.method !== 'HEAD') {
          expect(answer.headers['content-type']).toBe('application/problem+json');
          expect(answer.json).toMatchObject({ status: answer.status, title: expect.any(String) });
          if (answer.status !== 501) expect(answer.json.type).toMatch(new RegExp(`${answer.json.code}$`));
        }
        expect(api.repository.size()).toBe(size);
        expect(api.repository.snapshot()).toEqual(snapshot);
      }),
      { numRuns: RUNS },
    );
    expect(api.unhandled()).toEqual([]);
    expect(api.logs.filter((line) => line.level === 'error')).toEqual([]);
  });
});
