import { describe, expect, it } from 'vitest';
import { guardLogger, type Logger } from '../../src/ports/logger.js';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { recordProcessEvents } from '../support/process-events.js';
import { directRequest } from '../support/requests.js';

/**
 * A host's logger may be `async` (a transport that awaits a network write). When its promise
 * rejects, nobody but the engine holds it: an unhandled rejection ends a Node process by default.
 * Found by a reviewing helper.
 */
const unhandled = recordProcessEvents('unhandledRejection');

/** Lets Node report unhandled rejections (it does after the microtask queue drains). */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

const rejectingLogger = (): Logger & { calls: number } => {
  const logger = {
    calls: 0,
    debug: async () => {
      logger.calls += 1;
      throw new Error('log transport down');
    },
    info: async () => {
      logger.calls += 1;
      throw new Error('log transport down');
    },
    warn: async () => {
      logger.calls += 1;
      throw new Error('log transport down');
    },
    error: async () => {
      logger.calls += 1;
      throw new Error('log transport down');
    },
  };
  return logger;
};

describe('a logger whose methods reject', () => {
  it('guardLogger handles the rejection of each level', async () => {
    const logger = rejectingLogger();
    const guarded = guardLogger(logger);
    guarded.debug({}, 'd');
    guarded.info({}, 'i');
    guarded.warn({}, 'w');
    guarded.error({}, 'e');
    await settle();
    expect(logger.calls).toBe(4);
    expect(unhandled).toEqual([]);
  });

  it('the engine logs through it without an unhandled rejection, and answers as usual', async () => {
    const logger = rejectingLogger();
    const h = makeEngineHarness({}, 0, { logger });
    const paid = await h.engine.createPayment({
      client: compliantClient,
      profileId: 'profile_0001',
      body: directRequest('4242424242424242'),
    });
    expect(paid._unsafeUnwrap().state).toBe('succeeded');
    // A failed command logs at info.
    const refused = await h.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: {} });
    expect(refused._unsafeUnwrapErr().code).toBe('validation_failed');
    await settle();
    expect(logger.calls).toBeGreaterThan(0);
    expect(unhandled).toEqual([]);
  });

  it('a logger that answers a thenable whose then throws is handled too', async () => {
    const thenable = {
      then: () => {
        throw new Error('odd thenable');
      },
    };
    const logger: Logger = {
      debug: () => thenable as never,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    };
    guardLogger(logger).debug({}, 'd');
    await settle();
    expect(unhandled).toEqual([]);
  });
});
