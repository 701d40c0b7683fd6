import type { RequestListener } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createExpressRouter, paystate } from '../../adapters/http/express/index.js';
import {
  createNodeRequestListener,
  createFetchHandler,
  createNodeListener,
  type FetchHandlerOptions,
} from '../../adapters/http/index.js';
import { makeApi, type LogLine } from '../http/support/api-harness.js';
import { closeAll, listenApp } from './support/express-host.js';
import { parseResponses, rawExchange, rawGet } from './support/raw-http.js';

afterEach(closeAll);

/**
 * Pages whose `/odd` answer fetch accepts and node refuses to write (a control character in a
 * header value, as a host's own handler or a redirect built from odd input could make). Node
 * sets `content-length`, `set-cookie` and `x-note` before it refuses `x-odd`.
 */
const oddPages: NonNullable<FetchHandlerOptions['pages']> = async (request) =>
  new URL(request.url).pathname === '/odd'
    ? new Response('ok', {
        status: 302,
        headers: { 'content-length': '2', 'set-cookie': 'sid=1', 'x-note': 'fine', 'x-odd': 'a\u0001b' },
      })
    : undefined;

const ENTRY_POINTS: readonly (readonly [string, (options: FetchHandlerOptions) => RequestListener])[] = [
  [
    'paystate() in Express',
    (options) => {
      const app = express();
      app.use(paystate(options));
      return app;
    },
  ],
  [
    'createExpressRouter(handler, options)',
    (options) => {
      const app = express();
      const { logger, problemTypeBase } = options;
      app.use(
        createExpressRouter(createFetchHandler(options), {
          ...(logger !== undefined && { logger }),
          ...(problemTypeBase !== undefined && { problemTypeBase }),
        }),
      );
      return app;
    },
  ],
  ['createNodeListener', (options) => createNodeListener(options)],
  [
    'createNodeRequestListener(createFetchHandler(options))',
    (options) => {
      const { logger, problemTypeBase } = options;
      return createNodeRequestListener(createFetchHandler(options), {
        ...(logger !== undefined && { logger }),
        ...(problemTypeBase !== undefined && { problemTypeBase }),
      });
    },
  ],
];

const writeFailures = (logs: readonly LogLine[]) =>
  logs.filter((line) => line.level === 'error' && line.message === 'could not write the response');

describe.each(ENTRY_POINTS)('a page response node refuses to write, served by %s', (_name, serve) => {
  it('is a logged 500 problem document without its headers, and the kept-alive connection goes on', async () => {
    const api = makeApi();
    const origin = await listenApp(serve({ ...api.handlerOptions, pages: oddPages, problemTypeBase: 'urn:test:' }));
    // Both on one connection: a 500 that kept the refused response's Content-Length would spill
    // its body into the next answer, and parseResponses would fail.
    const responses = parseResponses(await rawExchange(origin, [rawGet('/odd'), rawGet('/odd', { close: true })]));
    expect(responses).toHaveLength(2);
    for (const response of responses) {
      expect(response.status).toBe(500);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(response.body)).toMatchObject({ type: 'urn:test:internal_error', code: 'internal_error' });
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.headers['x-note']).toBeUndefined();
      expect(response.headers['x-odd']).toBeUndefined();
    }
    expect(writeFailures(api.logs)).toHaveLength(2);
    expect(writeFailures(api.logs)[0]?.fields).toMatchObject({ method: 'GET', status: 302 });
  });
});
