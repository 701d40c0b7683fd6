import { afterEach, describe, expect, it } from 'vitest';
import { createNodeRequestListener, createFetchHandler, createNodeListener } from '../../adapters/http/index.js';
import { closeAll, listenApp } from '../express/support/express-host.js';
import { parseResponses, rawExchange, rawGet } from '../express/support/raw-http.js';
import {
  DEFAULT_REQUEST_ID,
  foreignHandler,
  idOf,
  linesWith,
  oddPages,
  recordingLogger,
} from '../support/request-id-answers.js';
import { makeApi, TOKENS } from './support/api-harness.js';
import { call, post, type Answer } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

/*
 * The generic node:http bridge writes some answers itself: the 501 for a method a fetch `Request`
 * cannot carry, the 500 of a handler that rejects, and the 500 written instead of a response node
 * refuses to write (which takes every header of that response off, its `Request-Id` among them).
 * Each carries a `Request-Id`, as the handler's own answers do: the refused response's id when it
 * can go out as it is (the one the handler answered and logged under), else a new one; never one
 * node refused.
 */

afterEach(closeAll);

const MAIN = 'profile_alpha_main';

describe('createNodeRequestListener: Request-Id on the answers it writes itself', () => {
  it("paystate's handler: the 500 written instead of a response node refuses keeps the id the handler answered under", async () => {
    const api = makeApi();
    const pageIds: string[] = [];
    const { logger } = api.handlerOptions;
    const handler = createFetchHandler({ ...api.handlerOptions, pages: oddPages(pageIds) });
    const origin = await listenApp(createNodeRequestListener(handler, { ...(logger !== undefined && { logger }) }));
    // Two on one kept-alive connection: each 500 has its own id, and the framing holds.
    const responses = parseResponses(await rawExchange(origin, [rawGet('/odd'), rawGet('/odd', { close: true })]));
    expect(responses.map((response) => response.status)).toEqual([500, 500]);
    expect(responses.map(idOf)).toEqual(pageIds);
    for (const id of pageIds) expect(id).toMatch(DEFAULT_REQUEST_ID);
    expect(new Set(pageIds).size).toBe(2);
    for (const response of responses) expect(response.headers['x-note']).toBeUndefined();
    expect(linesWith(api.logs, 'could not write the response').map((line) => line.fields['requestId'])).toEqual(
      pageIds,
    );
    // A normal answer still carries the handler's id.
    const listed = await call(`${origin}/v1/profiles/${MAIN}/payments`, {
      headers: { authorization: `Bearer ${TOKENS.alphaHosted}` },
    });
    expect(listed.status).toBe(200);
    expect(idOf(listed)).toMatch(DEFAULT_REQUEST_ID);
  });

  it('a foreign handler: a new id on its 500s and its 501, never the refused one; its own answers as they were', async () => {
    const logger = recordingLogger();
    const logs = logger.logs;
    const origin = await listenApp(createNodeRequestListener(foreignHandler, { logger }));
    const refused = await call(`${origin}/odd`);
    const refusedId = await call(`${origin}/odd-id`);
    const rejected = await call(`${origin}/boom`);
    const trace = await call(`${origin}/fine`, { method: 'TRACE' });
    expectProblem(refused, 500, 'internal_error');
    expectProblem(refusedId, 500, 'internal_error');
    expectProblem(rejected, 500, 'internal_error');
    expectProblem(trace, 501, 'method_not_implemented');
    const ids = [refused, refusedId, rejected, trace].map(idOf);
    for (const id of ids) expect(id).toMatch(DEFAULT_REQUEST_ID);
    expect(new Set(ids).size).toBe(4);
    expect(JSON.stringify(refusedId.headers)).not.toContain('injected');
    // The failures are logged under the ids the client got.
    expect(linesWith(logs, 'could not write the response').map((line) => line.fields['requestId'])).toEqual([
      idOf(refused),
      idOf(refusedId),
    ]);
    expect(linesWith(logs, 'fetch handler failed').map((line) => line.fields['requestId'])).toEqual([idOf(rejected)]);
    // The handler's own answer gets no id it did not write.
    const fine = await call(`${origin}/fine`);
    expect(fine.status).toBe(200);
    expect(fine.headers).not.toHaveProperty('request-id');
  });

  it("the requestId option makes the bridge's ids; one that gives no header token falls back to the default", async () => {
    let n = 0;
    const origin = await listenApp(createNodeRequestListener(foreignHandler, { requestId: () => `bridge-${++n}` }));
    const answers = [
      await call(`${origin}/odd`),
      await call(`${origin}/boom`),
      await call(`${origin}/fine`, { method: 'TRACE' }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([500, 500, 501]);
    expect(answers.map(idOf)).toEqual(['bridge-1', 'bridge-2', 'bridge-3']);

    const bad = await listenApp(createNodeRequestListener(foreignHandler, { requestId: () => 'bad\r\nid' }));
    for (const answer of [
      await call(`${bad}/odd`),
      await call(`${bad}/boom`),
      await call(`${bad}/x`, { method: 'TRACE' }),
    ]) {
      expect(idOf(answer)).toMatch(DEFAULT_REQUEST_ID);
    }
  });
});

describe("createNodeListener (paystate's own listener) already writes one on each of its own answers", () => {
  it('its 404 outside /v1, the API’s 413, the 501 for TRACE and the 500 instead of a refused page', async () => {
    const api = makeApi();
    const pageIds: string[] = [];
    const pages = oddPages(pageIds);
    const origin = await listenApp(
      createNodeListener({
        ...api.handlerOptions,
        pages: async (request, context) =>
          new URL(request.url).pathname === '/odd' ? pages(request, context) : undefined,
      }),
    );
    const missing = await call(`${origin}/nowhere`);
    expectProblem(missing, 404, 'not_found');
    const tooLarge = await post(`${origin}/v1/profiles/${MAIN}/payments`, TOKENS.alphaHosted, 'x'.repeat(70_000));
    expectProblem(tooLarge, 413, 'payload_too_large');
    const trace = await call(`${origin}/nowhere`, { method: 'TRACE' });
    expectProblem(trace, 501, 'method_not_implemented');
    const refused: Answer = await call(`${origin}/odd`);
    expectProblem(refused, 500, 'internal_error');
    expect(idOf(refused)).toBe(pageIds[0]);
    const ids = [missing, tooLarge, trace, refused].map(idOf);
    for (const id of ids) expect(id).toMatch(DEFAULT_REQUEST_ID);
    expect(new Set(ids).size).toBe(4);
  });
});
