import { ok, type Result } from 'neverthrow';
import type { RateDecision, RateLimiter, RateLimiterError } from '../../src/ports/rate-limiter.js';

/** Settings of `createMemoryRateLimiter`. */
export interface MemoryRateLimiterOptions {
  /** Requests each client may send per second, sustained: the bucket's refill rate. From 0.001 to 1,000,000. */
  readonly requestsPerSecond: number;
  /** Requests a client that has been idle may send at once: the bucket's size. A whole number of at least 1. */
  readonly burst: number;
  /**
   * Most buckets kept at once: past it, the least recently used one is dropped (its client starts
   * with a full bucket again). Idle buckets (full again) are dropped anyway. Default 10,000.
   */
  readonly maxClients?: number;
}

/** The in-memory `RateLimiter`, plus a view for tests. */
export interface MemoryRateLimiter extends RateLimiter {
  /** Answers at once. */
  take(clientId: string, now: number): Result<RateDecision, RateLimiterError>;
  /** How many buckets are held: clients seen lately whose bucket has not filled up again. */
  size(): number;
}

/** Default `maxClients`. */
export const DEFAULT_RATE_LIMITER_MAX_CLIENTS = 10_000;

const MIN_RATE = 0.001;
const MAX_RATE = 1_000_000;

/**
 * What one request costs, in the units a bucket counts: a millisecond refills `requestsPerSecond`
 * of them, so whole-number rates count in whole numbers, without rounding.
 */
const COST = 1000;

interface Bucket {
  /** Units left at `at` (`COST` per request). */
  readonly credit: number;
  /** When `credit` was counted: the latest `now` the bucket saw. */
  readonly at: number;
}

function positiveWhole(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a whole number of at least 1 (got ${String(value)})`);
  }
  return value;
}

/**
 * A token bucket per client id, in process memory (per instance): `burst` tokens refilled at
 * `requestsPerSecond`; full buckets are dropped (at most `maxClients`). A `RangeError` for bad settings
 * or a `now` that is not finite; a clock that goes back refills nothing.
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): MemoryRateLimiter {
  const rate = options.requestsPerSecond;
  if (typeof rate !== 'number' || !(rate >= MIN_RATE && rate <= MAX_RATE)) {
    throw new RangeError(`requestsPerSecond must be a number from ${MIN_RATE} to ${MAX_RATE} (got ${String(rate)})`);
  }
  const burst = positiveWhole('burst', options.burst);
  const maxClients = positiveWhole('maxClients', options.maxClients ?? DEFAULT_RATE_LIMITER_MAX_CLIENTS);
  /** Least recently used first: a bucket is moved to the end at each `take`. */
  const buckets = new Map<string, Bucket>();

  const full = burst * COST;

  /** The units a bucket holds at `now`, never more than `full`; none added for a clock that went back. */
  const creditAt = (bucket: Bucket, now: number): number =>
    Math.min(full, bucket.credit + (Math.max(now, bucket.at) - bucket.at) * rate);

  /** Drops the buckets at the front that are full again (those behind were used later). */
  const dropIdle = (now: number): void => {
    for (const [clientId, bucket] of buckets) {
      if (creditAt(bucket, now) < full) return;
      buckets.delete(clientId);
    }
  };

  /**
   * The fewest whole ms from `at` after which a bucket of `credit` (less than a request) holds a
   * request, as `creditAt` counts: the estimate moved by rounding's hair either way, so that a
   * client that waits exactly that long is let through, and one that waits a millisecond less is not.
   */
  const msUntilOne = (credit: number, at: number): number => {
    const hasOne = (wait: number) => creditAt({ credit, at }, at + wait) >= COST;
    let wait = Math.max(1, Math.ceil((COST - credit) / rate));
    while (!hasOne(wait)) wait += 1;
    while (wait > 1 && hasOne(wait - 1)) wait -= 1;
    return wait;
  };

  return {
    take(clientId, now) {
      // A defect of the caller's clock: no time can be waited out from there.
      if (!Number.isFinite(now)) throw new RangeError(`now must be a finite number of ms (got ${String(now)})`);
      dropIdle(now);
      // A client not held has a full bucket.
      const bucket = buckets.get(clientId) ?? { credit: full, at: now };
      buckets.delete(clientId);
      const credit = creditAt(bucket, now);
      let decision: RateDecision;
      if (credit >= COST) {
        buckets.set(clientId, { credit: credit - COST, at: Math.max(now, bucket.at) });
        decision = { allowed: true };
      } else {
        // A refused request changes nothing but the bucket's place in line: hammering neither
        // pushes the wait further out nor, through rounding, moves it by a millisecond.
        buckets.set(clientId, bucket);
        decision = { allowed: false, retryAfterMs: bucket.at + msUntilOne(bucket.credit, bucket.at) - now };
      }
      if (buckets.size > maxClients) {
        const oldest = buckets.keys().next();
        if (oldest.done !== true) buckets.delete(oldest.value);
      }
      return ok(decision);
    },
    size: () => buckets.size,
  };
}
