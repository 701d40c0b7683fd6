import { gzipSync } from 'node:zlib';
import type { IncomingMessage } from 'node:http';
import express, { type ErrorRequestHandler, type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { paystate, paystateErrorHandler } from '../../adapters/http/express/index.js';
import { makeApi, TOKENS, type ApiHarness } from '../http/support/api-harness.js';
import { call, jsonHeaders } from '../http/support/client.js';
import { expectProblem } from '../http/support/expect-problem.js';
import { closeAll, listenApp, MAIN_PROFILE } from './support/express-host.js';

afterEach(closeAll);

const CARD = '4242424242424242';
const PATH = `/v1/profiles/${MAIN_PROFILE}/payments`;
const FORM = 'application/x-www-form-urlencoded';

/** The errors that got past `paystateErrorHandler` to the host's last error handler. */
type Leaks = unknown[];

/** The `type` of each error that reached `paystateErrorHandler`. */
type Seen = unknown[];

/**
 * A host app with body parsers before paystate, as documented: `express.json()` with a `verify`
 * hook that refuses bodies carrying `x-reject`, `express.urlencoded()` with at most 5 fields, and
 * a middleware that (wrongly) sets an encoding on the request stream when asked to.
 */
function hostApp(api: ApiHarness, leaks: Leaks, seen: Seen = []): Express {
  const app = express();
  app.use((req, _res, next) => {
    if (req.headers['x-set-encoding'] !== undefined) req.setEncoding('utf8');
    next();
  });
  app.use(
    express.json({
      verify: (req: IncomingMessage) => {
        if (req.headers['x-reject'] !== undefined) throw new Error('signature mismatch');
      },
    }),
  );
  app.use(express.urlencoded({ extended: true, parameterLimit: 5 }));
  app.use(paystate(api.handlerOptions));
  app.use(((error: { type?: unknown }, _req, _res, next) => {
    seen.push(error.type);
    next(error);
  }) satisfies ErrorRequestHandler);
  app.use(
    paystateErrorHandler({ ...(api.handlerOptions.logger !== undefined && { logger: api.handlerOptions.logger }) }),
  );
  const last: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    leaks.push(error);
    res.status(599).type('text/html').send('<p>host error page</p>');
  };
  app.use(last);
  return app;
}

interface Case {
  readonly name: string;
  /** body-parser's `type` of the error (none for a body that does not decompress). */
  readonly type: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
  readonly status: number;
  readonly code: string;
}

const json = { ...jsonHeaders(TOKENS.alphaCompliant) };
const form = { ...json, 'content-type': FORM };
const cardJson = JSON.stringify({ card: { number: CARD, cvc: '737' } });

const CASES: readonly Case[] = [
  {
    name: "the host's verify callback refuses the body",
    type: 'entity.verify.failed',
    headers: { ...json, 'x-reject': '1' },
    body: cardJson,
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'malformed JSON',
    type: 'entity.parse.failed',
    headers: json,
    body: `{"card":{"number":"${CARD}"`,
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'a form with more fields than the parser allows',
    type: 'parameters.too.many',
    headers: form,
    body: `number=${CARD}&b=2&c=3&d=4&e=5&f=6`,
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'a form nested deeper than the parser allows',
    type: 'querystring.parse.rangeError',
    headers: form,
    body: `a${'[b]'.repeat(40)}=${CARD}`,
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'a charset the parser cannot decode',
    type: 'charset.unsupported',
    headers: { ...json, 'content-type': 'application/json; charset=klingon' },
    body: cardJson,
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'a content encoding the parser does not know',
    type: 'encoding.unsupported',
    headers: { ...json, 'content-encoding': 'compress' },
    body: cardJson,
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'a gzip body that is not gzip',
    type: undefined,
    headers: { ...json, 'content-encoding': 'gzip' },
    body: cardJson,
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'a gzip body cut short',
    type: undefined,
    headers: { ...json, 'content-encoding': 'gzip' },
    body: new Uint8Array(gzipSync(cardJson).subarray(0, 16)),
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'a brotli body that is not brotli',
    type: undefined,
    headers: { ...json, 'content-encoding': 'br' },
    body: cardJson,
    status: 400,
    code: 'invalid_json',
  },
];

describe('paystateErrorHandler after the body parsers of the host', () => {
  it.each(CASES.map((entry) => [entry.name, entry] as const))(
    '%s: a problem document that does not quote the body',
    async (_name, entry) => {
      const api = makeApi();
      const leaks: Leaks = [];
      const seen: Seen = [];
      const origin = await listenApp(hostApp(api, leaks, seen));
      const answer = await call(`${origin}${PATH}`, { method: 'POST', headers: entry.headers, body: entry.body });
      expect(seen).toEqual([entry.type]);
      expectProblem(answer, entry.status, entry.code);
      expect(answer.text).not.toContain(CARD);
      expect(answer.text).not.toContain('signature mismatch');
      expect(leaks).toEqual([]);
      expect(api.repository.size()).toBe(0);
    },
  );

  it('answers a request stream the host broke (an encoding set on it) with a logged 500, not a 400', async () => {
    const api = makeApi();
    const leaks: Leaks = [];
    const origin = await listenApp(hostApp(api, leaks));
    const answer = await call(`${origin}${PATH}`, {
      method: 'POST',
      headers: { ...json, 'x-set-encoding': '1' },
      body: cardJson,
    });
    expectProblem(answer, 500, 'internal_error');
    expect(leaks).toEqual([]);
    const logged = api.logs.filter((line) => line.message === 'a body parser before paystate failed');
    expect(answer.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
    expect(logged.map((line) => line.fields)).toEqual([
      { method: 'POST', type: 'stream.encoding.set', requestId: answer.headers['request-id'] },
    ]);
  });

  it("passes on errors that are not a body parser's, whatever their status", async () => {
    const api = makeApi();
    const leaks: Leaks = [];
    const app = express();
    app.use((_req, _res, next) => {
      next(Object.assign(new Error('no session'), { status: 401, code: 'E_SESSION' }));
    });
    app.use(paystate(api.handlerOptions));
    app.use(paystateErrorHandler());
    app.use(((error: unknown, _req, res, _next) => {
      leaks.push(error);
      res.status(401).send('host');
    }) satisfies ErrorRequestHandler);
    const answer = await call(`${await listenApp(app)}${PATH}`, { method: 'POST', headers: json, body: '{}' });
    expect(answer.status).toBe(401);
    expect(answer.text).toBe('host');
    expect(leaks).toHaveLength(1);
  });
});
