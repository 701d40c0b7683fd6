import type { PortFailure, PortResult } from './port-result.js';

/** What a rate limiter decided for one request: go ahead, or wait `retryAfterMs` first. */
export type RateDecision =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      /** How long until the client may send again, in ms (the API answers `Retry-After` rounded up to whole seconds, at least 1). */
      readonly retryAfterMs: number;
    };

/** The limiter's store could not answer (a shared store that is down): the request goes ahead. */
export type RateLimiterError = PortFailure<'unavailable'>;

/**
 * Limits how often each API client may call the HTTP API (the handler's `rateLimit` option): one
 * `take` per authenticated request, before its body is read. The core never calls it. A limiter
 * shared by several instances keeps its counts in a store they share; an error, a throw or no
 * answer within `storeTimeoutMs` lets the request through (logged): limiting protects, it is no
 * part of what a payment is.
 */
export interface RateLimiter {
  /** Counts one request of `clientId` (`Client.id`) at `now` (epoch ms, the handler's clock). */
  take(clientId: string, now: number): PortResult<RateDecision, RateLimiterError>;
}
