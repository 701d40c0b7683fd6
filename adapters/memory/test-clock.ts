import type { Clock } from '../../src/ports/clock.js';

/** Where a `createTestClock()` starts: 2026-01-15T12:00:00.000Z. */
export const DEFAULT_TEST_CLOCK_START = Date.UTC(2026, 0, 15, 12);

/**
 * A `Clock` that only moves when told to: the time the engine reads, not the time it waits (port
 * time-outs, back-offs and the worker's interval run on real timers, so `advance` fires none of them).
 */
export interface TestClock extends Clock {
  /** Moves time forward by `ms` (>= 0) and returns the new time. */
  advance(ms: number): number;
  /** Jumps to `ms` (epoch milliseconds), forwards or backwards. */
  set(ms: number): void;
}

function checkTime(ms: number, what: string): number {
  if (!Number.isFinite(ms)) throw new RangeError(`${what} must be a finite number of milliseconds, got ${ms}`);
  return ms;
}

/** A `TestClock` at `start` (epoch ms, default `DEFAULT_TEST_CLOCK_START`); a `RangeError` unless it is finite. */
export function createTestClock(start: number = DEFAULT_TEST_CLOCK_START): TestClock {
  let now = checkTime(start, 'start');
  return {
    now: () => now,
    advance(ms) {
      if (checkTime(ms, 'advance') < 0) throw new RangeError(`advance must not go backwards, got ${ms}`);
      now += ms;
      return now;
    },
    set(ms) {
      now = checkTime(ms, 'set');
    },
  };
}
