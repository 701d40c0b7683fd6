import { guardLogger, silentLogger, type Logger } from '../../src/ports/logger.js';
import type { ResolvedConnection } from './connection.js';

/** How long a `close()` waits by default before it gives up: 5 s. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;

/** The longest a timer holds; a bound beyond it waits as long as it takes. */
const LONGEST_TIMER_MS = 2_147_483_647;

/** One piece of closing: its name in the log, and the work, which answers why it failed (or null). */
export interface CloseStep {
  readonly name: string;
  readonly run: () => Promise<string | null>;
  /** What becomes of it when the close gives up waiting for it, for the log line. */
  readonly ifGivenUp: string;
}

/** What `closeWithin` needs besides the steps. */
export interface CloseBound {
  /** Names what is closed in the log lines (`Postgres payment repository`). */
  readonly what: string;
  /** How long to wait, in ms; `Infinity` waits as long as it takes. */
  readonly withinMs: number;
  /** Where a failed step and giving up are reported, as warnings. */
  readonly logger: Logger;
  /** Called once on giving up, e.g. to cut connections that are waiting for a dark server. */
  readonly onGiveUp?: () => void;
}

/** A `closeTimeoutMs` option: ms from 0, `Infinity` included; default 5 s. A RangeError otherwise. */
export function closeTimeoutMs(value: number | undefined): number {
  if (value === undefined) return DEFAULT_CLOSE_TIMEOUT_MS;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new RangeError(`closeTimeoutMs needs a number of milliseconds from 0 (got ${String(value)})`);
  }
  return value;
}

/**
 * Runs the steps of a close in turn, waiting at most `withinMs`; never rejects. A failed step is logged;
 * on time-out it logs what it gave up, calls `onGiveUp` and resolves (docs/postgres.md#closing).
 */
export function closeWithin(steps: readonly CloseStep[], bound: CloseBound): Promise<void> {
  const logger = guardLogger(bound.logger);
  const pending = [...steps];
  let gaveUp = false;
  const work = (async () => {
    for (const step of steps) {
      let failure: string | null;
      try {
        failure = await step.run();
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      pending.shift();
      if (failure !== null && !gaveUp) logger.warn({ step: step.name, failure }, `${bound.what}: close step failed`);
    }
  })();
  if (!(bound.withinMs <= LONGEST_TIMER_MS)) return work;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      gaveUp = true;
      logger.warn(
        {
          waitedMs: bound.withinMs,
          gaveUp: pending.map((step) => step.name),
          consequences: pending.map((step) => step.ifGivenUp),
        },
        `${bound.what}: close gave up waiting for the database`,
      );
      try {
        bound.onGiveUp?.();
      } catch {
        // Nothing more to do: the close resolves all the same.
      }
      resolve();
    }, bound.withinMs);
    void work.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The options of a store whose `close()` only ends the pool it created (idempotency, credentials). */
export interface PoolCloseOptions {
  /**
   * How long `close()` waits for a pool the store created to end, in ms; default 5000, `Infinity`
   * waits as long as it takes (docs/postgres.md#closing).
   */
  readonly closeTimeoutMs?: number;
  /** Where `close()` reports what it gave up or what failed (warnings). Default: silent. */
  readonly logger?: Logger;
}

/**
 * The `close()` of a store on `connection`: runs `steps`, then ends a pool it created, within `withinMs`
 * (`closeWithin`, cutting waiting connections on giving up). Later calls give the same promise.
 */
export function poolCloser(
  connection: ResolvedConnection,
  bound: { readonly what: string; readonly withinMs: number; readonly logger?: Logger | undefined },
  steps: readonly CloseStep[] = [],
): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    const endPool: CloseStep = {
      name: 'end the pool',
      run: async () => {
        await connection.close();
        return null;
      },
      ifGivenUp:
        'connections still waiting for the server are closed without their answer: a write among them may or may not have landed, as after a crash',
    };
    closing ??= closeWithin(connection.owned ? [...steps, endPool] : steps, {
      what: bound.what,
      withinMs: bound.withinMs,
      logger: bound.logger ?? silentLogger,
      onGiveUp: connection.cut,
    });
    return closing;
  };
}
