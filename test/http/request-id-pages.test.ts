import type { RequestListener } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createNodeRequestListener,
  composePages,
  createFetchHandler,
  createNodeListener,
  type FetchHandlerOptions,
  type PagesHandler,
} from '../../adapters/http/index.js';
import { closeAll, listenApp } from '../express/support/express-host.js';
import { makeApi } from './support/api-harness.js';
import { call } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';
import { DEFAULT_REQUEST_ID as DEFAULT_ID, idOf } from '../support/request-id-answers.js';

/**
 * The entry points give `pages` the request's id (`PageContext`) and write it on whatever the pages
 * answer, as on their own answers; the node listener's 500 written instead of a page's response
 * that node refuses keeps it too.
 */

afterEach(closeAll);

/** Pages answering in the ways a host's own pages may, each echoing the id its context gave. */
const pages: PagesHandler = async (request, context) => {
  const given = context?.requestId ?? 'none';
  switch (new URL(request.url).pathname) {
    case '/plain':
      return new Response(given, { headers: { 'content-type': 'text/plain' } });
    case '/own-id':
      return new Response(given, { headers: { 'request-id': 'the-page-own-id' } });
    case '/redirect':
      // Immutable headers: the id goes on a copy.
      return Response.redirect('http://example.test/elsewhere', 302);
    case '/cookies': {
      const headers = new Headers();
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2; Path=/');
      return new Response(given, { status: 201, statusText: 'Made', headers });
    }
    case '/stream':
      return new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(given));
            controller.close();
          },
        }),
      );
    case '/unwritable':
      // fetch's Headers take a control character; node refuses it (ERR_INVALID_CHAR).
      return new Response('x', { headers: { 'x-note': 'a\u0001b', 'set-cookie': 'c=3' } });
    default:
      return undefined;
  }
};

const ENTRY_POINTS: readonly (readonly [string, (options: FetchHandlerOptions) => RequestListener])[] = [
  ['createNodeListener', (options) => createNodeListener(options)],
  ['createFetchHandler (bridged)', (options) => createNodeRequestListener(createFetchHandler(options))],
];

describe.each(ENTRY_POINTS)('Request-Id on the answers of pages, served by %s', (_name, build) => {
  it('the id the page was given is the one answered, whatever the page answered with', async () => {
    const api = makeApi();
    const origin = await listenApp(build({ ...api.handlerOptions, pages: composePages(async () => undefined, pages) }));
    const plain = await call(`${origin}/plain`);
    const ownId = await call(`${origin}/own-id`);
    const stream = await call(`${origin}/stream`);
    const cookies = await call(`${origin}/cookies`);
    const redirect = await call(`${origin}/redirect`);
    const missing = await call(`${origin}/missing`);
    expect([plain, ownId, stream, cookies, redirect].map((answer) => answer.status)).toEqual([200, 200, 200, 201, 302]);
    expectProblem(missing, 404, 'not_found');
    const answers = [plain, ownId, stream, cookies, redirect, missing];
    for (const answer of answers) expect(idOf(answer)).toMatch(DEFAULT_ID);
    expect(new Set(answers.map(idOf)).size).toBe(answers.length);
    // The page got the id through composePages, and the answer carries that one (not the page's own).
    for (const answer of [plain, ownId, stream, cookies]) expect(answer.text).toBe(idOf(answer));
    // The rest of the page's response is kept.
    expect(cookies.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(redirect.headers['location']).toBe('http://example.test/elsewhere');
    expect(plain.headers['content-type']).toBe('text/plain');
  });
});

describe('createNodeListener: its own answers outside the API', () => {
  it('a TRACE (501), its last catch (500) and the 500 instead of a page response node refuses carry ids', async () => {
    const api = makeApi();
    let failAddress = false;
    const origin = await listenApp(
      createNodeListener({
        ...api.handlerOptions,
        pages,
        clientAddress: () => {
          if (failAddress) throw new Error('host callback bug');
          return undefined;
        },
      }),
    );
    const trace = await call(`${origin}/plain`, { method: 'TRACE' });
    expect(trace.status).toBe(501);
    const refused = await call(`${origin}/unwritable`);
    expectProblem(refused, 500, 'internal_error');
    // None of the refused response's headers goes out with the 500.
    expect(refused.headers['x-note']).toBeUndefined();
    expect(refused.headers['set-cookie']).toBeUndefined();
    failAddress = true;
    const failed = await call(`${origin}/plain`);
    expectProblem(failed, 500, 'internal_error');
    const answers = [trace, refused, failed];
    for (const answer of answers) expect(idOf(answer)).toMatch(DEFAULT_ID);
    expect(new Set(answers.map(idOf)).size).toBe(answers.length);
    const logged = (message: string) =>
      api.logs.filter((line) => line.message === message).map((line) => line.fields['requestId']);
    expect(logged('could not write the response')).toEqual([idOf(refused)]);
    expect(logged('node listener failed')).toEqual([idOf(failed)]);
  });
});
