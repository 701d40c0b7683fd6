import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createExpressRouter, createServer, type ExpressRouterOptions } from '../../adapters/http/express/index.js';
import { createFetchHandler } from '../../adapters/http/index.js';
import { makeApi } from '../http/support/api-harness.js';
import { call } from '../http/support/client.js';
import { expectProblem } from '../http/support/expect-problem.js';
import { closeAll, listenApp } from './support/express-host.js';
import {
  DEFAULT_REQUEST_ID,
  foreignHandler,
  idOf,
  linesWith,
  oddPages,
  recordingLogger,
} from '../support/request-id-answers.js';
import { parseResponses, rawExchange, rawGet } from './support/raw-http.js';

/*
 * `createExpressRouter` writes some answers itself: the 501 for a method a fetch `Request` cannot
 * carry and the 500 written instead of a response node refuses to write (which takes every header
 * of that response off, its `Request-Id` among them); a handler that rejects goes on to the host's
 * error handler. Each carries a `Request-Id`, as the handler's own answers do: the refused
 * response's id when it can go out as it is (the one the handler answered and logged under), else
 * a new one, also set before a rejection goes on; never one node refused.
 */

afterEach(closeAll);

/** The router alone in a host's app, with Express's own error handler behind it. */
function hostApp(handler: (request: Request) => Promise<Response>, options: ExpressRouterOptions = {}) {
  const app = express();
  app.set('env', 'test'); // Express's error handler then writes no stack trace to stderr
  app.use('/mount', createExpressRouter(handler, options));
  return app;
}

describe('createExpressRouter: Request-Id on the answers it writes itself', () => {
  it("paystate's handler: the 500 written instead of a response node refuses keeps the id the handler answered under", async () => {
    const api = makeApi();
    const logger = recordingLogger();
    const pageIds: string[] = [];
    const handler = createFetchHandler({
      ...api.handlerOptions,
      basePath: '/mount',
      pages: oddPages(pageIds),
    });
    const origin = await listenApp(hostApp(handler, { logger }));
    const responses = parseResponses(
      await rawExchange(origin, [rawGet('/mount/odd'), rawGet('/mount/odd', { close: true })]),
    );
    expect(responses.map((response) => response.status)).toEqual([500, 500]);
    expect(responses.map(idOf)).toEqual(pageIds);
    for (const id of pageIds) expect(id).toMatch(DEFAULT_REQUEST_ID);
    expect(new Set(pageIds).size).toBe(2);
    for (const response of responses) expect(response.headers['x-note']).toBeUndefined();
    expect(linesWith(logger.logs, 'could not write the response').map((line) => line.fields['requestId'])).toEqual(
      pageIds,
    );
  });

  it('a foreign handler: a new id on its 500s, its 501 and a rejection, never the refused one; its own answers as they were', async () => {
    const logger = recordingLogger();
    const origin = await listenApp(hostApp(foreignHandler, { logger }));
    const refused = await call(`${origin}/mount/odd`);
    const refusedId = await call(`${origin}/mount/odd-id`);
    const trace = await call(`${origin}/mount/fine`, { method: 'TRACE' });
    expectProblem(refused, 500, 'internal_error');
    expectProblem(refusedId, 500, 'internal_error');
    expectProblem(trace, 501, 'method_not_implemented');
    // A rejection goes on to the host's error handler (here Express's own HTML 500), with the id set.
    const rejected = await call(`${origin}/mount/boom`);
    expect(rejected.status).toBe(500);
    expect(rejected.headers['content-type']).toMatch(/^text\/html/);
    const ids = [refused, refusedId, trace, rejected].map(idOf);
    for (const id of ids) expect(id).toMatch(DEFAULT_REQUEST_ID);
    expect(new Set(ids).size).toBe(4);
    expect(JSON.stringify(refusedId.headers)).not.toContain('injected');
    expect(linesWith(logger.logs, 'could not write the response').map((line) => line.fields['requestId'])).toEqual([
      idOf(refused),
      idOf(refusedId),
    ]);
    const fine = await call(`${origin}/mount/fine`);
    expect(fine.status).toBe(200);
    expect(fine.headers).not.toHaveProperty('request-id');
  });

  it("createServer(handler): a handler that rejects or throws gets the router's id, and the 500 is logged under it", async () => {
    const logger = recordingLogger();
    let n = 0;
    const throwing = (request: Request): Promise<Response> => {
      if (new URL(request.url).pathname === '/sync') throw new Error('sync handler bug');
      return foreignHandler(request);
    };
    const origin = await listenApp(createServer(throwing, { logger, requestId: () => `app-${++n}` }));
    const rejected = await call(`${origin}/boom`);
    const thrown = await call(`${origin}/sync`);
    const refused = await call(`${origin}/odd`);
    for (const answer of [rejected, thrown, refused]) expectProblem(answer, 500, 'internal_error');
    expect([rejected, thrown, refused].map(idOf)).toEqual(['app-1', 'app-2', 'app-3']);
    expect(
      linesWith(logger.logs, 'unhandled error in the Express app').map((line) => line.fields['requestId']),
    ).toEqual(['app-1', 'app-2']);
  });
});
