import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, type MemoryRateLimiter } from '../../adapters/memory/index.js';
import type { RateDecision } from '../../src/index.js';
import { NUM_RUNS } from '../support/property-runs.js';

// Found by an outside review: one token made 2,916 payments in 8 s. The token bucket that now
// limits each client of the API (`rateLimit`), checked against a model and for its promises.

const take = (limiter: MemoryRateLimiter, clientId: string, now: number): RateDecision =>
  limiter.take(clientId, now)._unsafeUnwrap();

/** One request of a sequence: which client, and how many ms after the one before. */
interface Step {
  readonly client: number;
  readonly dt: number;
}

const steps = (maxLength: number) =>
  fc.array(fc.record({ client: fc.integer({ min: 0, max: 3 }), dt: fc.integer({ min: 0, max: 1500 }) }), {
    maxLength,
  });

/** Rates a bucket counts without rounding (whole numbers and quarters), and any rate at all. */
const exactRate = fc.oneof(
  fc.integer({ min: 1, max: 200 }),
  fc.integer({ min: 1, max: 400 }).map((n) => n / 4),
);
const anyRate = fc.oneof(exactRate, fc.double({ min: 0.001, max: 500, noNaN: true }));
const burstArb = fc.integer({ min: 1, max: 12 });

/**
 * The token bucket as the docs state it, one client at a time and nothing ever dropped: `burst`
 * tokens to start with, `rate` more a second up to `burst`, one per request let through; a refused
 * request takes none and waits until one token is there, in whole ms, at least 1.
 */
function model(rate: number, burst: number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (clientId: string, now: number): RateDecision => {
    const held = buckets.get(clientId);
    const at = held === undefined ? now : Math.max(now, held.at);
    // Tokens in thousandths: `rate` of them a ms.
    const milli = held === undefined ? burst * 1000 : Math.min(burst * 1000, held.tokens + (at - held.at) * rate);
    if (milli >= 1000) {
      buckets.set(clientId, { tokens: milli - 1000, at });
      return { allowed: true };
    }
    buckets.set(clientId, { tokens: milli, at });
    return { allowed: false, retryAfterMs: at - now + Math.max(1, Math.ceil((1000 - milli) / rate)) };
  };
}

/** Runs a sequence on a limiter: each decision with its client and time. */
function run(limiter: MemoryRateLimiter, sequence: readonly Step[]) {
  let now = 1_700_000_000_000;
  return sequence.map(({ client, dt }) => {
    now += dt;
    const clientId = `client_${client}`;
    return { clientId, now, decision: take(limiter, clientId, now) };
  });
}

/**
 * After requests of one client `gaps` ms apart, and more at once until one is refused: waiting
 * `retryAfterMs` lets the next one through, and waiting 1 ms less does not.
 */
function expectKeepsItsWord(rate: number, burst: number, gaps: readonly number[]): void {
  const limiter = createMemoryRateLimiter({ requestsPerSecond: rate, burst });
  let now = 5_000;
  for (const gap of gaps) take(limiter, 'a', (now += gap));
  let decision = take(limiter, 'a', now);
  for (let i = 0; decision.allowed && i <= burst; i++) decision = take(limiter, 'a', now);
  if (decision.allowed) throw new Error('a bucket of `burst` let more through at one instant');
  const wait = decision.retryAfterMs;
  expect(Number.isSafeInteger(wait) && wait >= 1).toBe(true);
  if (wait > 1) expect(take(limiter, 'a', now + wait - 1)).toEqual({ allowed: false, retryAfterMs: 1 });
  expect(take(limiter, 'a', now + wait)).toEqual({ allowed: true });
}

describe('createMemoryRateLimiter: a token bucket per client', () => {
  it('lets a new client send `burst` requests at once, then refuses with the wait for one token', () => {
    const limiter = createMemoryRateLimiter({ requestsPerSecond: 4, burst: 3 });
    const decisions = [1, 2, 3, 4].map(() => take(limiter, 'a', 1000));
    expect(decisions).toEqual([
      { allowed: true },
      { allowed: true },
      { allowed: true },
      { allowed: false, retryAfterMs: 250 },
    ]);
    // Refused requests take nothing: the wait does not grow while the client keeps asking.
    expect(take(limiter, 'a', 1100)).toEqual({ allowed: false, retryAfterMs: 150 });
    expect(take(limiter, 'a', 1250)).toEqual({ allowed: true });
    expect(take(limiter, 'a', 1250)).toEqual({ allowed: false, retryAfterMs: 250 });
    // Idle for long, the bucket is full again, never fuller.
    expect([1, 2, 3, 4].map(() => take(limiter, 'a', 60_000).allowed)).toEqual([true, true, true, false]);
  });

  it('decides as the model of a token bucket does, for rates counted without rounding', () => {
    fc.assert(
      fc.property(exactRate, burstArb, steps(120), (rate, burst, sequence) => {
        const expected = model(rate, burst);
        for (const { clientId, now, decision } of run(
          createMemoryRateLimiter({ requestsPerSecond: rate, burst }),
          sequence,
        )) {
          expect(decision).toEqual(expected(clientId, now));
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('never lets a client through more than burst + rate × time in any stretch of time, at any rate', () => {
    fc.assert(
      fc.property(anyRate, burstArb, steps(80), (rate, burst, sequence) => {
        const results = run(createMemoryRateLimiter({ requestsPerSecond: rate, burst }), sequence);
        const allowedTimes = new Map<string, number[]>();
        for (const { clientId, now, decision } of results) {
          if (decision.allowed) allowedTimes.set(clientId, [...(allowedTimes.get(clientId) ?? []), now]);
        }
        for (const times of allowedTimes.values()) {
          for (let first = 0; first < times.length; first++) {
            for (let last = first; last < times.length; last++) {
              const span = (times[last] as number) - (times[first] as number);
              expect(last - first + 1).toBeLessThanOrEqual(burst + (rate * span) / 1000 + 1e-9);
            }
          }
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('keeps its word: a client that waits retryAfterMs is let through, one that waits 1 ms less is not', () => {
    fc.assert(
      fc.property(
        anyRate,
        burstArb,
        fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 30 }),
        expectKeepsItsWord,
      ),
      { numRuns: NUM_RUNS },
    );
  });

  // Found by a search: sequences after which the first estimate of the wait, ceil(missing / rate),
  // is 1 ms short of what the bucket's own sums give (`under`), or 1 ms more than they need (`over`).
  it.each([
    ['under', 0.005, 2, [93193, 26493]],
    ['over', 0.4, 2, [2935, 1749]],
  ] as const)('keeps its word where rounding misleads the first estimate (%s)', (_, rate, burst, gaps) => {
    expectKeepsItsWord(rate, burst, gaps);
  });

  it('decides for each client as if it were alone: other clients, and the idle buckets dropped, change nothing', () => {
    fc.assert(
      fc.property(anyRate, burstArb, steps(120), (rate, burst, sequence) => {
        const together = run(createMemoryRateLimiter({ requestsPerSecond: rate, burst }), sequence);
        for (const client of [0, 1, 2, 3]) {
          const alone = createMemoryRateLimiter({ requestsPerSecond: rate, burst });
          const mine = together.filter((result) => result.clientId === `client_${client}`);
          for (const { clientId, now, decision } of mine) expect(take(alone, clientId, now)).toEqual(decision);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('holds only the clients seen within the time a bucket takes to fill up, and at most maxClients', () => {
    fc.assert(
      fc.property(
        anyRate,
        burstArb,
        fc.integer({ min: 1, max: 5 }),
        steps(120),
        (rate, burst, maxClients, sequence) => {
          const limiter = createMemoryRateLimiter({ requestsPerSecond: rate, burst, maxClients });
          const unbounded = createMemoryRateLimiter({ requestsPerSecond: rate, burst });
          const fillMs = (burst * 1000) / rate;
          const seen: { clientId: string; now: number }[] = [];
          for (const { clientId, now } of run(limiter, sequence)) {
            take(unbounded, clientId, now);
            seen.push({ clientId, now });
            const recent = new Set(seen.filter((each) => each.now > now - fillMs - 1).map((each) => each.clientId));
            expect(unbounded.size()).toBeLessThanOrEqual(recent.size);
            expect(limiter.size()).toBeLessThanOrEqual(maxClients);
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('drops every idle bucket: after a quiet spell one request leaves one bucket', () => {
    const limiter = createMemoryRateLimiter({ requestsPerSecond: 10, burst: 5 });
    for (let client = 0; client < 500; client++) {
      for (let request = 0; request < 5; request++) take(limiter, `client_${client}`, 1000);
    }
    expect(limiter.size()).toBe(500);
    // 5 tokens at 10 a second: full again after 500 ms.
    take(limiter, 'late', 1499);
    expect(limiter.size()).toBe(501);
    take(limiter, 'later', 1500);
    expect(limiter.size()).toBe(2);
  });

  it('refills nothing for a clock that went back, and counts the wait from the latest time it saw', () => {
    const limiter = createMemoryRateLimiter({ requestsPerSecond: 1, burst: 1 });
    expect(take(limiter, 'a', 10_000)).toEqual({ allowed: true });
    expect(take(limiter, 'a', 4_000)).toEqual({ allowed: false, retryAfterMs: 7_000 });
    expect(take(limiter, 'a', 10_999)).toEqual({ allowed: false, retryAfterMs: 1 });
    expect(take(limiter, 'a', 11_000)).toEqual({ allowed: true });
  });

  it('refuses settings out of range, and a time that is not finite', () => {
    for (const requestsPerSecond of [0, -1, 0.0009, 1_000_001, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createMemoryRateLimiter({ requestsPerSecond, burst: 1 })).toThrow(RangeError);
    }
    for (const burst of [0, -1, 1.5, Number.NaN, 2 ** 53]) {
      expect(() => createMemoryRateLimiter({ requestsPerSecond: 1, burst })).toThrow(RangeError);
    }
    expect(() => createMemoryRateLimiter({ requestsPerSecond: 1, burst: 1, maxClients: 0 })).toThrow(RangeError);
    const limiter = createMemoryRateLimiter({ requestsPerSecond: 1, burst: 1 });
    for (const now of [Number.NaN, Number.POSITIVE_INFINITY]) expect(() => limiter.take('a', now)).toThrow(RangeError);
  });
});
