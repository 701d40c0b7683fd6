import type { Clock } from '../../src/ports/clock.js';

/** The wall clock: `Date.now()`. */
export const systemClock: Clock = Object.freeze({ now: () => Date.now() });
