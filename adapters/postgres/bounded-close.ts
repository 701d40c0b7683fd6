import { guardLogger, type Logger } from '../../src/ports/logger.js';

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

/**
 * A `closeTimeoutMs` option: a number of ms from 0, `Infinity` included; default 5 s.
 *
 * @throws RangeError when it is not a number or negative.
 */
export function closeTimeoutMs(value: number | undefined): number {
  if (value === undefined) return DEFAULT_CLOSE_TIMEOUT_MS;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new RangeError(`closeTimeoutMs needs a number of milliseconds from 0 (got ${String(value)})`);
  }
  return value;
}

/**
 * Runs the steps of a close one after another and waits for them at most `withinMs`. Never
 * rejects: a step that fails (or rejects) is logged and the next one runs. When the time is up
 * it logs which steps it gave up on (`gaveUp`), calls `onGiveUp` and resolves; the steps go on
 * unwatched (a statement already sent cannot be recalled), and their failures are no longer
 * logged. A host's graceful shutdown is thereby never held up by a dark or dead database.
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
