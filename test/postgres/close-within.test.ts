import { describe, expect, it } from 'vitest';
import {
  closeTimeoutMs,
  closeWithin,
  DEFAULT_CLOSE_TIMEOUT_MS,
  type CloseStep,
} from '../../adapters/postgres/bounded-close.js';
import { createPostgresPaymentRepository } from '../../adapters/postgres/index.js';
import type { Logger } from '../../src/index.js';

// The bound on the Postgres adapters' `close()` (see bounded-close.test.ts for it on a real
// database that went dark): never rejects, never waits past its time, says what it gave up.

function recordingLogger(): Logger & { readonly warnings: { fields: Record<string, unknown>; message: string }[] } {
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const none = () => undefined;
  return {
    warnings,
    debug: none,
    info: none,
    warn: (fields, message) => void warnings.push({ fields, message }),
    error: none,
  };
}

const step = (name: string, run: CloseStep['run']): CloseStep => ({ name, run, ifGivenUp: `${name} is left` });
const never = () => new Promise<string | null>(() => undefined);

describe('closeWithin', () => {
  it('runs the steps in order and resolves when they are done, logging nothing', async () => {
    const logger = recordingLogger();
    const order: string[] = [];
    const done = (name: string) => async () => {
      order.push(name);
      return null;
    };
    await closeWithin([step('a', done('a')), step('b', done('b'))], { what: 'test', withinMs: 1_000, logger });
    expect(order).toEqual(['a', 'b']);
    expect(logger.warnings).toEqual([]);
  });

  it('gives up at its time: logs the steps left and what becomes of them, cuts, resolves; later steps still run', async () => {
    const logger = recordingLogger();
    let cut = 0;
    let release: (value: string | null) => void = () => undefined;
    let ended = false;
    const started = Date.now();
    await closeWithin(
      [
        step('release', () => new Promise((resolve) => (release = resolve))),
        step('end', async () => {
          ended = true;
          return null;
        }),
      ],
      { what: 'Test store', withinMs: 100, logger, onGiveUp: () => (cut += 1) },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(cut).toBe(1);
    expect(logger.warnings).toEqual([
      {
        message: 'Test store: close gave up waiting for the database',
        fields: { waitedMs: 100, gaveUp: ['release', 'end'], consequences: ['release is left', 'end is left'] },
      },
    ]);
    expect(ended).toBe(false);
    release('too late');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ended).toBe(true);
    // A failure after giving up is no longer reported.
    expect(logger.warnings).toHaveLength(1);
  });

  it('never rejects: a step that fails or throws is logged and the next one runs; a throwing logger or cut changes nothing', async () => {
    const logger = recordingLogger();
    let last = false;
    await closeWithin(
      [
        step('fails', async () => 'connection refused'),
        step('throws', () => Promise.reject(new Error('Called end on pool more than once'))),
        step('last', async () => {
          last = true;
          return null;
        }),
      ],
      { what: 'test', withinMs: 1_000, logger },
    );
    expect(last).toBe(true);
    expect(logger.warnings.map((line) => line.fields)).toEqual([
      { step: 'fails', failure: 'connection refused' },
      { step: 'throws', failure: 'Called end on pool more than once' },
    ]);
    const throwing: Logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => {
        throw new Error('logger down');
      },
      error: () => undefined,
    };
    await expect(
      closeWithin([step('hangs', never)], {
        what: 'test',
        withinMs: 20,
        logger: throwing,
        onGiveUp: () => {
          throw new Error('cut failed');
        },
      }),
    ).resolves.toBeUndefined();
  });

  it('Infinity (or more than a timer holds) waits as long as it takes', async () => {
    const logger = recordingLogger();
    let finish: (value: string | null) => void = () => undefined;
    let resolved = false;
    const closing = closeWithin([step('slow', () => new Promise((resolve) => (finish = resolve)))], {
      what: 'test',
      withinMs: Infinity,
      logger,
    }).then(() => (resolved = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(resolved).toBe(false);
    finish(null);
    await closing;
    expect(logger.warnings).toEqual([]);
  });
});

describe('closeTimeoutMs', () => {
  it('defaults to 5 s, takes 0 and Infinity, refuses what is no number of ms', () => {
    expect(closeTimeoutMs(undefined)).toBe(DEFAULT_CLOSE_TIMEOUT_MS);
    expect(DEFAULT_CLOSE_TIMEOUT_MS).toBe(5_000);
    expect(closeTimeoutMs(0)).toBe(0);
    expect(closeTimeoutMs(Infinity)).toBe(Infinity);
    for (const bad of [-1, Number.NaN, '5000' as unknown as number])
      expect(() => closeTimeoutMs(bad)).toThrow(RangeError);
  });

  it('is checked when the repository is made', () => {
    expect(() =>
      createPostgresPaymentRepository({ connectionString: 'postgres://u:p@127.0.0.1:1/db', closeTimeoutMs: -5 }),
    ).toThrow(RangeError);
  });
});
