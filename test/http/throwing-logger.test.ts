import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeListener, createNodeRequestListener, type FetchHandlerOptions } from '../../adapters/http/index.js';
import type { Logger } from '../../src/index.js';
import { closeAll, listenApp } from '../express/support/express-host.js';
import { hostedRequest } from '../support/requests.js';
import { makeApi, TOKENS } from './support/api-harness.js';
import { call, get, post, type Answer } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';
import { replayingUnwritable } from './support/unwritable-answer.js';

/** A host logger whose `error` throws (a log transport that failed); `everything` makes every method throw. */
function throwingLogger(everything = false): Logger & { readonly calls: string[] } {
  const calls: string[] = [];
  const boom = (level: string) => (_fields: Record<string, unknown>, message: string) => {
    calls.push(`${level}: ${message}`);
    throw new Error(`the log transport failed (${level})`);
  };
  const quiet = (level: string) => (_fields: Record<string, unknown>, message: string) => {
    calls.push(`${level}: ${message}`);
  };
  const pick = (level: string) => (everything || level === 'error' ? boom(level) : quiet(level));
  return { calls, debug: pick('debug'), info: pick('info'), warn: pick('warn'), error: pick('error') };
}

/** The answer, or a failure that says the server never gave one (instead of the test timing out). */
function answerWithin(answer: Promise<Answer>, ms = 2000): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined;
  const never = new Promise<Answer>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([answer, never]).finally(() => clearTimeout(timer));
}

let escaped: unknown[] = [];
const onEscaped = (error: unknown) => escaped.push(error);

beforeEach(() => {
  escaped = [];
  process.on('unhandledRejection', onEscaped);
  process.on('uncaughtException', onEscaped);
});

afterEach(async () => {
  await closeAll();
  process.off('unhandledRejection', onEscaped);
  process.off('uncaughtException', onEscaped);
});

/** Lets a rejection nobody handled surface (node reports it after the microtask queue drains). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

const paymentsOf = (origin: string) => `${origin}/v1/profiles/profile_alpha_main/payments`;

describe('a host logger that throws in a last-resort catch (found by a reviewer)', () => {
  it('createNodeListener: an answer node refuses to write is still a 500 problem when logger.error throws (writeAnswer)', async () => {
    const api = makeApi();
    const logger = throwingLogger();
    const options: FetchHandlerOptions = {
      ...api.handlerOptions,
      idempotency: replayingUnwritable,
      logger,
      problemTypeBase: 'urn:test:',
    };
    const url = paymentsOf(await listenApp(createNodeListener(options)));
    const answer = await answerWithin(post(url, TOKENS.alphaHosted, hostedRequest(), { 'idempotency-key': 'k-1' }));
    expectProblem(answer, 500, 'internal_error');
    expect(answer.json.type).toBe('urn:test:internal_error');
    expect(answer.headers['location']).toBeUndefined();
    expect(logger.calls).toContain('error: could not write the response');
    // The keep-alive connection goes on.
    const again = await answerWithin(post(url, TOKENS.alphaHosted, hostedRequest(), { 'idempotency-key': 'k-2' }));
    expectProblem(again, 500, 'internal_error');
    await settle();
    expect(escaped).toEqual([]);
  });

  it('a logger whose every method throws loses its lines, not the answers: a created payment is answered 201, not 500', async () => {
    const api = makeApi();
    const logger = throwingLogger(true);
    const url = paymentsOf(
      await listenApp(createNodeListener({ ...api.handlerOptions, logger, problemTypeBase: 'urn:test:' })),
    );
    // With idempotency (the store is logged around) and without; then a read of what was created.
    const keyed = await answerWithin(post(url, TOKENS.alphaHosted, hostedRequest(), { 'idempotency-key': 'k-1' }));
    const plain = await answerWithin(post(url, TOKENS.alphaHosted, hostedRequest()));
    expect([keyed.status, plain.status]).toEqual([201, 201]);
    const ids = [keyed.json.id, plain.json.id];
    const stored = await Promise.all(ids.map(async (id) => (await api.repository.load(String(id)))._unsafeUnwrap()));
    expect(stored.map((record) => record?.id)).toEqual(ids);
    const read = await answerWithin(get(`${url}/${String(plain.json.id)}`, TOKENS.alphaHosted));
    expect(read.status).toBe(200);
    // The lines were attempted (and lost), the keyed request's answer is replayed.
    expect(logger.calls).toContain('info: http request');
    const replay = await answerWithin(post(url, TOKENS.alphaHosted, hostedRequest(), { 'idempotency-key': 'k-1' }));
    expect({ status: replay.status, id: replay.json.id }).toEqual({ status: 201, id: keyed.json.id });
    await settle();
    expect(escaped).toEqual([]);
  });

  it("createNodeListener: when a page request fails and the logger throws too, the listener's last catch still answers 500", async () => {
    const api = makeApi();
    const logger = throwingLogger(true);
    const origin = await listenApp(
      createNodeListener({
        ...api.handlerOptions,
        logger,
        problemTypeBase: 'urn:test:',
        clientAddress: () => {
          throw new Error('host callback bug');
        },
      }),
    );
    const answer = await answerWithin(call(`${origin}/pay/payment_1`));
    expectProblem(answer, 500, 'internal_error');
    expect(answer.json.type).toBe('urn:test:internal_error');
    expect(logger.calls.at(-1)).toBe('error: node listener failed');
    // The keep-alive connection goes on.
    expectProblem(await answerWithin(call(`${origin}/pay/payment_1`)), 500, 'internal_error');
    await settle();
    expect(escaped).toEqual([]);
  });

  it('createNodeRequestListener (fetch bridge): a handler that rejects, or a response node refuses, is still a 500 problem', async () => {
    const logger = throwingLogger(true);
    const rejecting = await listenApp(
      createNodeRequestListener(() => Promise.reject(new Error('handler bug')), { logger, problemTypeBase: 'urn:t:' }),
    );
    const failed = await answerWithin(call(`${rejecting}/anything`));
    expectProblem(failed, 500, 'internal_error');
    expect(failed.json.type).toBe('urn:t:internal_error');
    const unwritable = await listenApp(
      createNodeRequestListener(async () => new Response('{}', { headers: { 'x-note': 'bad\u0001value' } }), {
        logger,
      }),
    );
    expectProblem(await answerWithin(call(`${unwritable}/anything`)), 500, 'internal_error');
    await settle();
    expect(escaped).toEqual([]);
    expect(logger.calls).toEqual(['error: fetch handler failed', 'error: could not write the response']);
  });
});
