import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createServer as createExpressServer,
  paystate,
  paystateErrorHandler,
} from '../../adapters/http/express/index.js';
import {
  createFetchHandler,
  createNodeListener,
  createNodeRequestListener,
  type FetchHandlerOptions,
} from '../../adapters/http/index.js';
import { startSandboxServer, type SandboxServer } from '../../adapters/sandbox-server/index.js';
import { closeAll, listenApp } from '../express/support/express-host.js';
import { parseResponses, rawExchange } from '../express/support/raw-http.js';
import { hostedRequest } from '../support/requests.js';
import { makeApi, TOKENS, type ApiHarness, type LogLine } from './support/api-harness.js';
import { bearer, call, get, post, type Answer } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';
import { replayingUnwritable } from './support/unwritable-answer.js';

const MAIN = 'profile_alpha_main';
const DEFAULT_ID = /^req_[0-9a-f]{32}$/;
const FALLBACK_WARNING =
  'the requestId option gave no usable request id (1 to 200 visible ASCII characters, no card number); the default ids are used instead';

let sandbox: SandboxServer | undefined;
afterEach(async () => {
  await closeAll();
  await sandbox?.close();
  sandbox = undefined;
});

const paymentsOf = (origin: string) => `${origin}/v1/profiles/${MAIN}/payments`;
const idOf = (answer: Answer) => answer.headers['request-id'];
const linesWith = (logs: readonly LogLine[], message: string) => logs.filter((line) => line.message === message);

/** The ways to serve handler options, each building its own handler from them. */
const ENTRY_POINTS: readonly (readonly [string, (options: FetchHandlerOptions) => RequestListener | Express])[] = [
  ['createNodeListener', (options) => createNodeListener(options)],
  ['createFetchHandler (bridged)', (options) => createNodeRequestListener(createFetchHandler(options))],
  [
    'paystate() in Express',
    (options) => {
      const app = express();
      app.use(paystate(options));
      return app;
    },
  ],
  ['createServer(options) in Express', (options) => createExpressServer(options)],
];

describe('Request-Id on the answers paystate writes outside the API', () => {
  it('createNodeListener: a TRACE outside /v1 (501), under /v1 (405), and its last catch (500)', async () => {
    const api = makeApi();
    const origin = await listenApp(
      createNodeListener({
        ...api.handlerOptions,
        clientAddress: () => {
          throw new Error('host callback bug');
        },
      }),
    );
    const trace = await call(`${origin}/elsewhere`, { method: 'TRACE' });
    expect(trace.status).toBe(501);
    expect(idOf(trace)).toMatch(DEFAULT_ID);
    const traceApi = await call(paymentsOf(origin), { method: 'TRACE', headers: bearer(TOKENS.alphaHosted) });
    expectProblem(traceApi, 405, 'method_not_allowed');
    expect(idOf(traceApi)).toMatch(DEFAULT_ID);
    const failed = await call(`${origin}/pay/payment_1`);
    expectProblem(failed, 500, 'internal_error');
    expect(idOf(failed)).toMatch(DEFAULT_ID);
    expect(linesWith(api.logs, 'node listener failed').map((line) => line.fields['requestId'])).toEqual([idOf(failed)]);
    expect(new Set([idOf(trace), idOf(traceApi), idOf(failed)]).size).toBe(3);
  });

  it.each([
    ['createNodeListener', (options: FetchHandlerOptions) => createNodeListener(options)],
    ['paystate() in Express', (options: FetchHandlerOptions) => express().use(paystate(options))],
  ])('%s: the 500 written instead of an answer node refuses keeps the request id', async (_name, build) => {
    const api = makeApi();
    const origin = await listenApp(build({ ...api.handlerOptions, idempotency: replayingUnwritable }));
    const answer = await post(paymentsOf(origin), TOKENS.alphaHosted, hostedRequest(), { 'idempotency-key': 'k-1' });
    expectProblem(answer, 500, 'internal_error');
    expect(idOf(answer)).toMatch(DEFAULT_ID);
    // The request line (the replayed 201) and the failure name the id the client got.
    expect(linesWith(api.logs, 'http request').map((line) => line.fields['requestId'])).toEqual([idOf(answer)]);
  });

  it('createServer(options): its 404, and its 500 for a page that throws, logged under that id', async () => {
    const api = makeApi();
    const origin = await listenApp(
      createExpressServer({
        ...api.handlerOptions,
        pages: async (request) => {
          if (new URL(request.url).pathname === '/boom') throw new Error('page bug');
          return undefined;
        },
      }),
    );
    const missing = await call(`${origin}/nowhere`);
    expectProblem(missing, 404, 'not_found');
    const broken = await call(`${origin}/boom`);
    expectProblem(broken, 500, 'internal_error');
    for (const answer of [missing, broken]) expect(idOf(answer)).toMatch(DEFAULT_ID);
    expect(idOf(missing)).not.toBe(idOf(broken));
    expect(linesWith(api.logs, 'unhandled error in the HTTP handler').map((line) => line.fields['requestId'])).toEqual([
      idOf(broken),
    ]);
  });

  it("createServer(handler): the router's 501 for TRACE; paystateErrorHandler: a host parser's problem", async () => {
    const api = makeApi();
    const routed = await listenApp(createExpressServer(createFetchHandler(api.handlerOptions)));
    const trace = await call(`${routed}/v1/anything`, { method: 'TRACE' });
    expect(trace.status).toBe(501);
    expect(idOf(trace)).toMatch(DEFAULT_ID);

    let n = 0;
    const app = express();
    app.use(express.json());
    app.use(paystate(api.handlerOptions));
    app.use(paystateErrorHandler({ requestId: () => `parser-${++n}` }));
    const parsed = await listenApp(app);
    const refused = await call(paymentsOf(parsed), {
      method: 'POST',
      headers: { ...bearer(TOKENS.alphaHosted), 'content-type': 'application/json' },
      body: '{"amount":',
    });
    expectProblem(refused, 400, 'invalid_json');
    expect(idOf(refused)).toBe('parser-1');
  });
});

describe('the requestId option', () => {
  it.each(ENTRY_POINTS)(
    "%s: the host's ids on the answers and on the API's and the engine's lines",
    async (_name, build) => {
      const api = makeApi();
      let n = 0;
      const origin = await listenApp(build({ ...api.handlerOptions, requestId: () => `host-id:${++n}` }));
      const created = await post(paymentsOf(origin), TOKENS.alphaHosted, hostedRequest());
      expect(created.status).toBe(201);
      const listed = await get(paymentsOf(origin), TOKENS.alphaHosted);
      const refused = await get(paymentsOf(origin), 'not-a-token');
      expect([idOf(created), idOf(listed), idOf(refused)]).toEqual(['host-id:1', 'host-id:2', 'host-id:3']);
      for (const id of ['host-id:1', 'host-id:2']) {
        const messages = api.logs.filter((line) => line.fields['requestId'] === id).map((line) => line.message);
        expect(messages, id).toEqual(expect.arrayContaining(['command done', 'http request']));
      }
      expect(linesWith(api.logs, 'http request').map((line) => line.fields['requestId'])).toEqual([
        'host-id:1',
        'host-id:2',
        'host-id:3',
      ]);
    },
  );

  it("the sandbox server: the host's ids on its answers, its server-layer problems included", async () => {
    let n = 0;
    sandbox = await startSandboxServer({ port: 0, sweepIntervalMs: 60_000, requestId: () => `sandbox-${++n}` });
    const listed = await get(`${sandbox.url}/v1/profiles/profile_webshop/payments`, 'sandbox_hosted_only_token');
    expect(listed.status).toBe(200);
    expect(idOf(listed)).toBe('sandbox-1');
    const [unmet] = parseResponses(
      await rawExchange(sandbox.url, [
        'GET /v1/profiles/profile_webshop/payments HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nConnection: close\r\n\r\n',
      ]),
    );
    expect(unmet?.status).toBe(417);
    expect(unmet?.headers['request-id']).toBe('sandbox-2');
  });

  const bad: readonly (readonly [string, () => unknown])[] = [
    [
      'throws',
      () => {
        throw new Error('generator bug 4242424242424242');
      },
    ],
    ['gives an empty string', () => ''],
    ['gives a space', () => 'req 1'],
    ['gives 201 characters', () => 'x'.repeat(201)],
    ['gives a character outside ASCII', () => 'req_é'],
    ['gives a line break', () => 'req_1\r\nSet-Cookie: a=b'],
    ['gives a card number', () => 'req_4242424242424242'],
    ['gives a number', () => 42],
    ['gives undefined', () => undefined],
  ];

  it.each(bad)('a generator that %s: default ids, never an error, one warning', async (_name, generator) => {
    for (const [, build] of ENTRY_POINTS) {
      const api = makeApi();
      const origin = await listenApp(build({ ...api.handlerOptions, requestId: generator as () => string }));
      const answers = [
        await post(paymentsOf(origin), TOKENS.alphaHosted, hostedRequest()),
        await get(paymentsOf(origin), TOKENS.alphaHosted),
        await get(paymentsOf(origin), TOKENS.alphaHosted),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([201, 200, 200]);
      for (const answer of answers) expect(idOf(answer)).toMatch(DEFAULT_ID);
      expect(new Set(answers.map(idOf)).size).toBe(3);
      // The API's and the engine's lines carry the default ids the answers carry.
      expect(linesWith(api.logs, 'http request').map((line) => line.fields['requestId'])).toEqual(answers.map(idOf));
      expect(linesWith(api.logs, 'command done').map((line) => line.fields['requestId'])).toEqual(answers.map(idOf));
      await closeAll();
    }
  });

  it('warns once per generator, with what went wrong and never the value it gave', async () => {
    const api = makeApi();
    const generator = () => 'req_4242424242424242';
    const origin = await listenApp(createNodeListener({ ...api.handlerOptions, requestId: generator }));
    for (let i = 0; i < 3; i++) expect((await get(paymentsOf(origin), TOKENS.alphaHosted)).status).toBe(200);
    const warnings = linesWith(api.logs, FALLBACK_WARNING);
    expect(warnings.map((line) => [line.level, line.fields])).toEqual([
      ['warn', { reason: 'holds a card number', length: 20 }],
    ]);
    const throwing = () => {
      throw new Error('generator bug 4242424242424242');
    };
    const other = await listenApp(createNodeListener({ ...api.handlerOptions, requestId: throwing }));
    for (let i = 0; i < 2; i++) expect((await get(paymentsOf(other), TOKENS.alphaHosted)).status).toBe(200);
    const thrown = linesWith(api.logs, FALLBACK_WARNING).slice(1);
    expect(thrown.map((line) => line.fields['reason'])).toEqual(['threw']);
    expect(JSON.stringify(api.logs)).not.toContain('4242424242');
  });
});

describe('an incoming X-Request-Id', () => {
  /** The API's request line of one request with `X-Request-Id: value`, and its answer. */
  async function sent(api: ApiHarness, origin: string, value: string) {
    const from = api.logs.length;
    const answer = await get(paymentsOf(origin), TOKENS.alphaHosted, { 'x-request-id': value });
    const [line] = linesWith(api.logs.slice(from), 'http request');
    return { answer, line };
  }

  it.each([
    ['createNodeListener', (options: FetchHandlerOptions) => createNodeListener(options)],
    [
      'createFetchHandler (bridged)',
      (options: FetchHandlerOptions) => createNodeRequestListener(createFetchHandler(options)),
    ],
  ])('%s: logged as upstreamRequestId when safe, never answered, never our id', async (_name, build) => {
    const api = makeApi();
    const origin = await listenApp(build(api.handlerOptions));
    for (const value of ['gw-7f3a.b_c:1', 'a'.repeat(128), '0f8fad5b-d9cb-469f-a165-70867728950e', '4242']) {
      const { answer, line } = await sent(api, origin, value);
      expect(answer.status).toBe(200);
      expect(line?.fields['upstreamRequestId'], value).toBe(value);
      expect(line?.fields['requestId']).toBe(idOf(answer));
      expect(idOf(answer)).toMatch(DEFAULT_ID);
      expect(answer.headers['x-request-id']).toBeUndefined();
      expect(answer.text).not.toContain(value);
    }
    for (const value of [
      '4242424242424242',
      'trace-4242-4242-4242-4242',
      'trace.4242.4242.4242.4242',
      'a'.repeat(129),
      'has space',
      'a,b',
      'semi;colon',
      'tab\there',
    ]) {
      const { answer, line } = await sent(api, origin, value);
      expect(answer.status, value).toBe(200);
      expect(line?.fields, value).not.toHaveProperty('upstreamRequestId');
      expect(line?.fields['requestId']).toBe(idOf(answer));
    }
    expect(JSON.stringify(api.logs)).not.toContain('4242-4242');
    expect(JSON.stringify(api.logs)).not.toContain('4242424242424242');
  });
});

describe('Request-Id on the sandbox server layer (raw sockets)', () => {
  it('417, malformed 400, 431 and CONNECT 501 carry a new Request-Id each', async () => {
    sandbox = await startSandboxServer({ port: 0, sweepIntervalMs: 60_000 });
    const requests = [
      'GET /v1/profiles/profile_webshop/payments HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nConnection: close\r\n\r\n',
      'GET /v1 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
      `GET /v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      'TRACE /docs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    ];
    const answers = await Promise.all(
      requests.map(async (request) => parseResponses(await rawExchange(sandbox?.url ?? '', [request]))[0]),
    );
    expect(answers.map((answer) => answer?.status)).toEqual([417, 400, 431, 501, 501]);
    const ids = answers.map((answer) => answer?.headers['request-id']);
    for (const id of ids) expect(id).toMatch(DEFAULT_ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a request that does not arrive in time gets its 408 with a Request-Id', async () => {
    sandbox = await startSandboxServer({ port: 0, sweepIntervalMs: 60_000, requestTimeoutMs: 200 });
    const raw = await rawExchange(
      sandbox.url,
      ['GET /v1/profiles/profile_webshop/payments HTTP/1.1\r\nHost: x\r\n'],
      5_000,
    );
    const [answer] = parseResponses(raw);
    expect(answer?.status).toBe(408);
    expect(answer?.headers['request-id']).toMatch(DEFAULT_ID);
  });
});
