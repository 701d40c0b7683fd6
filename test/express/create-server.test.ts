import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../../adapters/http/express/index.js';
import { createFetchHandler, type FetchHandler } from '../../adapters/http/index.js';
import type { Logger } from '../../src/index.js';
import { makeApi, TOKENS, type LogLine } from '../http/support/api-harness.js';
import { call, jsonHeaders, post } from '../http/support/client.js';
import { expectProblem } from '../http/support/expect-problem.js';
import { hostedRequest } from '../support/requests.js';
import { closeAll, listenApp, MAIN_PROFILE } from './support/express-host.js';

afterEach(closeAll);

function recordingLogger(): Logger & { readonly lines: LogLine[] } {
  const lines: LogLine[] = [];
  const write = (level: string) => (fields: Record<string, unknown>, message: string) => {
    lines.push({ level, fields, message });
  };
  return { lines, debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

const failing: FetchHandler = () => Promise.reject(new Error('handler bug'));

describe('createServer(handler, { logger, problemTypeBase }) (found by a reviewer: no way to pass them)', () => {
  it('a handler that rejects is logged and answered 500 internal_error under the type base, not HTML', async () => {
    const logger = recordingLogger();
    const origin = await listenApp(createServer(failing, { logger, problemTypeBase: 'urn:test:' }));
    const answer = await call(`${origin}/v1/anything`);
    expectProblem(answer, 500, 'internal_error');
    expect(answer.json.type).toBe('urn:test:internal_error');
    expect(answer.text).not.toContain('handler bug');
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatchObject({ level: 'error', message: 'unhandled error in the Express app' });
    expect((logger.lines[0]?.fields['error'] as Error).message).toBe('handler bug');
    // The keep-alive connection goes on.
    expectProblem(await call(`${origin}/v1/anything`), 500, 'internal_error');
  });

  it('a response node refuses to write is logged to that logger and answered under the type base', async () => {
    const logger = recordingLogger();
    const unwritable: FetchHandler = async () => new Response('{}', { headers: { 'x-note': 'bad\u0001value' } });
    const origin = await listenApp(createServer(unwritable, { logger, problemTypeBase: 'urn:test:' }));
    const answer = await call(`${origin}/anything`);
    expectProblem(answer, 500, 'internal_error');
    expect(answer.json.type).toBe('urn:test:internal_error');
    expect(logger.lines.map((line) => line.message)).toEqual(['could not write the response']);
  });

  it("a body-parser-style error (a host's parsed form paystate cannot encode, the app mounted behind express.urlencoded) is a problem under the type base", async () => {
    const logger = recordingLogger();
    const host = express();
    // body-parser 2 takes `depth` (default 32); its type definitions do not list it yet.
    const deepOptions = { extended: true, depth: 64 };
    host.use(express.urlencoded(deepOptions));
    const api = makeApi();
    host.use('/pay', createServer(createFetchHandler(api.handlerOptions), { logger, problemTypeBase: 'urn:test:' }));
    const origin = await listenApp(host);
    const answer = await call(`${origin}/pay/v1/profiles/${MAIN_PROFILE}/payments`, {
      method: 'POST',
      headers: { ...jsonHeaders(TOKENS.alphaHosted), 'content-type': 'application/x-www-form-urlencoded' },
      body: `a${'[b]'.repeat(40)}=1`,
    });
    expectProblem(answer, 400, 'validation_failed');
    expect(answer.json.type).toBe('urn:test:validation_failed');
    // The client's fault: nothing to log.
    expect(logger.lines).toEqual([]);
  });

  it('a throwing logger loses its line, not the answer', async () => {
    const boom = () => {
      throw new Error('the log transport failed');
    };
    const logger: Logger = { debug: boom, info: boom, warn: boom, error: boom };
    const origin = await listenApp(createServer(failing, { logger }));
    expectProblem(await call(`${origin}/v1/anything`), 500, 'internal_error');
  });

  it('answers unknown paths as the options form does: the handler answers them (a 404 problem)', async () => {
    const api = makeApi();
    for (const app of [
      createServer(api.handlerOptions),
      createServer(createFetchHandler(api.handlerOptions)),
      createServer(createFetchHandler(api.handlerOptions), {}),
    ]) {
      const origin = await listenApp(app);
      expectProblem(await call(`${origin}/nowhere`), 404, 'not_found');
      expect(
        (await post(`${origin}/v1/profiles/${MAIN_PROFILE}/payments`, TOKENS.alphaHosted, hostedRequest())).status,
      ).toBe(201);
    }
  });
});

describe('createServer(options)', () => {
  it('pages that reject are logged to options.logger and answered 500 internal_error under its type base, not HTML', async () => {
    const api = makeApi();
    const origin = await listenApp(
      createServer({
        ...api.handlerOptions,
        problemTypeBase: 'urn:test:',
        pages: () => Promise.reject(new Error('page bug')),
      }),
    );
    const answer = await call(`${origin}/pay/x`);
    expectProblem(answer, 500, 'internal_error');
    expect(answer.json.type).toBe('urn:test:internal_error');
    expect(api.logs.filter((line) => line.level === 'error').map((line) => line.message)).toEqual([
      'unhandled error in the HTTP handler',
    ]);
  });
});
