import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, paystate } from '../../adapters/http/express/index.js';
import type { PagesHandler } from '../../adapters/http/index.js';
import { makeApi } from '../http/support/api-harness.js';
import { call } from '../http/support/client.js';
import { expectProblem } from '../http/support/expect-problem.js';
import { closeAll, listenApp, withHostedPage } from './support/express-host.js';
import { DEFAULT_REQUEST_ID as DEFAULT_ID, idOf } from '../support/request-id-answers.js';

/**
 * `paystate()` gives `pages` the request's id (`PageContext`) and writes it on what they answer,
 * the 500 written instead of a page response node refuses included, as `createNodeListener` does.
 */

afterEach(closeAll);

const pages: PagesHandler = async (request, context) => {
  const given = context?.requestId ?? 'none';
  switch (new URL(request.url).pathname) {
    case '/plain':
      return new Response(given, { headers: { 'content-type': 'text/plain' } });
    case '/own-id':
      return new Response(given, { headers: { 'request-id': 'the-page-own-id' } });
    case '/unwritable':
      return new Response('x', { headers: { 'x-note': 'a\u0001b' } });
    default:
      return undefined;
  }
};

function appWith(options: Parameters<typeof paystate>[0]): express.Express {
  const app = express();
  app.use(paystate(options));
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('host 404');
  });
  return app;
}

describe('paystate(): Request-Id on the answers of pages', () => {
  it('the id given to the page is the one answered; a page passed on reaches the host without one', async () => {
    const api = makeApi();
    let n = 0;
    const origin = await listenApp(appWith({ ...api.handlerOptions, pages, requestId: () => `host-id:${++n}` }));
    const plain = await call(`${origin}/plain`);
    const ownId = await call(`${origin}/own-id`);
    const passed = await call(`${origin}/elsewhere`);
    expect([plain.status, ownId.status, passed.status]).toEqual([200, 200, 404]);
    expect([idOf(plain), plain.text]).toEqual(['host-id:1', 'host-id:1']);
    expect([idOf(ownId), ownId.text]).toEqual(['host-id:2', 'host-id:2']);
    expect(passed.text).toBe('host 404');
    expect(idOf(passed)).toBeUndefined();
  });

  it('the 500 written instead of a page response node refuses carries the id, and its log line too', async () => {
    const api = makeApi();
    const origin = await listenApp(appWith({ ...api.handlerOptions, pages }));
    const refused = await call(`${origin}/unwritable`);
    expectProblem(refused, 500, 'internal_error');
    expect(refused.headers['x-note']).toBeUndefined();
    expect(idOf(refused)).toMatch(DEFAULT_ID);
    const logged = api.logs.filter((line) => line.message === 'could not write the response');
    expect(logged.map((line) => line.fields['requestId'])).toEqual([idOf(refused)]);
  });

  it('a page that rejects: the 500 the app answers carries the id the page ran under, as the other entry points do', async () => {
    const api = makeApi();
    let n = 0;
    const given: string[] = [];
    const failing: PagesHandler = async (_request, context) => {
      given.push(context?.requestId ?? 'none');
      throw new Error('the page broke');
    };
    const app = createServer({ ...api.handlerOptions, pages: failing, requestId: () => `host-id:${++n}` });
    const failed = await call(`${await listenApp(app)}/broken`);
    expectProblem(failed, 500, 'internal_error');
    expect(given).toEqual(['host-id:1']);
    expect(idOf(failed)).toBe('host-id:1');
    const logged = api.logs.filter((line) => line.message === 'unhandled error in the HTTP handler');
    expect(logged.map((line) => line.fields['requestId'])).toEqual(['host-id:1']);
  });

  it('the hosted page runs its reads and its submitCard under the id of the answer', async () => {
    const api = makeApi();
    let n = 0;
    const origin = await listenApp(appWith({ ...withHostedPage(api), requestId: () => `host-id:${++n}` }));
    const page = await call(`${origin}/pay/payment_${'0'.repeat(31)}1?token=x`);
    expect(page.status).toBe(404);
    expect(idOf(page)).toBe('host-id:1');
    const reads = api.logs.filter((line) => line.fields['command'] === 'getHostedPageRecord');
    expect(reads.map((line) => line.fields['requestId'])).toEqual(['host-id:1']);
  });
});
