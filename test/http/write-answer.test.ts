import type { RequestListener } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { paystate } from '../../adapters/express/index.js';
import type { ApiHandler } from '../../adapters/http/api-handler.js';
import { createNodeListener, type FetchHandlerOptions } from '../../adapters/http/index.js';
import { serveNodeRequest } from '../../adapters/http/node-listener.js';
import { closeAll, listenApp } from '../express/support/express-host.js';
import { hostedRequest } from '../support/requests.js';
import { makeApi, TOKENS, type LogLine } from './support/api-harness.js';
import { call, post } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';
import { replayingUnwritable, UNWRITABLE } from './support/unwritable-answer.js';

afterEach(closeAll);

const ENTRY_POINTS: readonly (readonly [string, (options: FetchHandlerOptions) => RequestListener])[] = [
  [
    'paystate() in Express',
    (options) => {
      const app = express();
      app.use(paystate(options));
      return app;
    },
  ],
  ['createNodeListener', (options) => createNodeListener(options)],
];

const writeFailures = (logs: readonly LogLine[]) =>
  logs.filter((line) => line.level === 'error' && line.message === 'could not write the answer');

describe.each(ENTRY_POINTS)('an API answer node refuses to write, served by %s', (_name, serve) => {
  it('is a logged 500 problem document written by paystate, and the connection goes on', async () => {
    const api = makeApi();
    const origin = await listenApp(
      serve({ ...api.handlerOptions, idempotency: replayingUnwritable, problemTypeBase: 'urn:test:' }),
    );
    const url = `${origin}/v1/profiles/profile_alpha_main/payments`;
    const answer = await post(url, TOKENS.alphaHosted, hostedRequest(), { 'idempotency-key': 'k-1' });
    expectProblem(answer, 500, 'internal_error');
    expect(answer.json.type).toBe('urn:test:internal_error');
    expect(answer.headers['location']).toBeUndefined();
    expect(answer.headers['x-request-note']).toBeUndefined();
    expect(writeFailures(api.logs)).toHaveLength(1);
    expect(writeFailures(api.logs)[0]?.fields).toMatchObject({ status: 201 });
    // The keep-alive connection was answered in full: the next request on it is served.
    expectProblem(
      await post(url, TOKENS.alphaHosted, hostedRequest(), { 'idempotency-key': 'k-2' }),
      500,
      'internal_error',
    );
  });
});

describe('writeAnswer', () => {
  it('answers a HEAD with the 500 head only', async () => {
    const answering: ApiHandler = async () => UNWRITABLE;
    const origin = await listenApp((req, res) => {
      void serveNodeRequest(answering, req, res, { basePath: '' }, () => undefined);
    });
    const head = await call(`${origin}/v1/anything`, { method: 'HEAD' });
    expect({ status: head.status, text: head.text }).toEqual({ status: 500, text: '' });
    expect(head.headers['content-type']).toBe('application/problem+json');
  });
});
