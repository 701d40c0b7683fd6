import type { PaymentEngine } from '../../src/engine/payment-engine.js';
import type { Clock } from '../../src/ports/clock.js';
import type { CredentialStore } from '../../src/ports/credential-store.js';
import type { IdempotencyStore } from '../../src/ports/idempotency-store.js';
import type { Logger } from '../../src/ports/logger.js';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';
import type { Telemetry } from '../../src/ports/telemetry.js';
import { IDEMPOTENCY_STALE_AFTER_MS, IDEMPOTENCY_TTL_MS } from './idempotency.js';
import { millisecondsOption } from './milliseconds-option.js';
import { DEFAULT_PROBLEM_TYPE_BASE } from './problem-details.js';
import type { HttpDeps } from './route-context.js';
import { STORE_TIMEOUT_MS } from './store-deadline.js';

/** The ports and settings of the v1 API. */
export interface ApiOptions {
  readonly engine: PaymentEngine;
  /** Resolves bearer tokens; the only port called before a request is authorized. */
  readonly credentials: CredentialStore;
  /** Where `Idempotency-Key` answers are kept (24 hours). */
  readonly idempotency: IdempotencyStore;
  readonly clock: Clock;
  /** One `info` line per API request (route, status, duration, client); errors. Default silent. */
  readonly logger?: Logger;
  /**
   * A server span per request joined to its `traceparent` (docs/observability.md): the engine's
   * telemetry, say. Default none, and no cost.
   */
  readonly telemetry?: Telemetry;
  /** Prefix of the problem `type` URIs; the code is appended. Default `urn:paystate:problem:`. */
  readonly problemTypeBase?: string;
  /**
   * How long an `Idempotency-Key` answer is kept. Default 24 hours (`IDEMPOTENCY_TTL_MS`). A
   * `RangeError` unless a whole number of milliseconds of at least 1 (a safe integer), and unless
   * longer than `idempotencyStaleAfterMs` (default 5 minutes; give both to raise that above 24
   * hours): a key forgotten by the time its crashed request is presumed dead would let a retry
   * with that key create a second payment instead of taking over the first.
   */
  readonly idempotencyTtlMs?: number;
  /**
   * How long after its start a request that has not settled its `Idempotency-Key` is presumed
   * dead, so that a retry with the same key and body takes the key over (and answers the payment
   * that request reserved, creating it if it was not stored). Must be longer than the engine's
   * longest create: with its default time-outs and retries about 3 minutes. Default 5 minutes
   * (`IDEMPOTENCY_STALE_AFTER_MS`); a `RangeError` unless a whole number of milliseconds of at
   * least 1 (a safe integer), and unless shorter than `idempotencyTtlMs`.
   */
  readonly idempotencyStaleAfterMs?: number;
  /**
   * How long one call of the credential store or of the idempotency store may take before the
   * request gives up on it (a stalled database or a network black hole answers nothing at all):
   * the request then answers `503 unavailable` with `Retry-After`, or, when the call was the one
   * that stores the answer of a payment already created, that answer (the key stays in progress
   * and is taken over once stale). Default 5 seconds (`STORE_TIMEOUT_MS`); a `RangeError` unless a
   * whole number of milliseconds of at least 1 (a safe integer).
   */
  readonly storeTimeoutMs?: number;
  /**
   * Makes the id of each request, sent back in the `Request-Id` header of every answer and put
   * on every log line written for the request (`requestId`), by the API and by the engine command
   * it runs. Default: `req_` and 32 lowercase hex digits from Web Crypto (`defaultRequestId`).
   * Whatever it gives must be 1 to 200 visible ASCII characters holding no card number; when it
   * throws or gives anything else, that request gets a default id (the first such failure is
   * logged as a warning), never an error.
   */
  readonly requestId?: () => string;
  /**
   * Limits how often each client may call the API (`createMemoryRateLimiter` of `paystate/memory`,
   * or one on a store several instances share): every authenticated request takes one turn, before
   * its body is read; a client over its limit is answered `429 rate_limited` with `Retry-After`.
   * A limiter that fails or does not answer within `storeTimeoutMs` lets the request through
   * (logged). Default none: no limit.
   */
  readonly rateLimit?: RateLimiter;
}

/**
 * The `Idempotency-Key` limits, checked. The key must outlive the stale limit: once it expires a
 * retry begins afresh with a new payment id, so a key expiring before (or as) its crashed request
 * is presumed dead would let the retry create a second payment where it should take the first over.
 */
function idempotencyLimits(options: ApiOptions): { readonly ttlMs: number; readonly staleAfterMs: number } {
  const staleAfterMs = millisecondsOption(
    'idempotencyStaleAfterMs',
    options.idempotencyStaleAfterMs,
    IDEMPOTENCY_STALE_AFTER_MS,
  );
  const ttlMs = millisecondsOption('idempotencyTtlMs', options.idempotencyTtlMs, IDEMPOTENCY_TTL_MS);
  if (ttlMs <= staleAfterMs) {
    const ttl = options.idempotencyTtlMs === undefined ? `the default ${ttlMs}` : String(ttlMs);
    throw new RangeError(
      `idempotencyTtlMs (${ttl}) must be longer than idempotencyStaleAfterMs (${staleAfterMs}): a key ` +
        'must not be forgotten before its crashed request is presumed dead',
    );
  }
  return { ttlMs, staleAfterMs };
}

/**
 * The routes' ports and settings from the options, checked (`RangeError` for a time limit out of
 * range, `TypeError` for a `rateLimit` that is no limiter). `logger` is the host's, guarded.
 */
export function apiDeps(options: ApiOptions, logger: Logger): HttpDeps {
  const limits = idempotencyLimits(options);
  const { rateLimit } = options;
  if (rateLimit !== undefined && typeof (rateLimit as Partial<RateLimiter> | null)?.take !== 'function') {
    throw new TypeError('rateLimit must be a RateLimiter: an object with a take(clientId, now) method');
  }
  return {
    engine: options.engine,
    credentials: options.credentials,
    idempotency: options.idempotency,
    clock: options.clock,
    logger,
    problemTypeBase: options.problemTypeBase ?? DEFAULT_PROBLEM_TYPE_BASE,
    idempotencyTtlMs: limits.ttlMs,
    idempotencyStaleAfterMs: limits.staleAfterMs,
    storeTimeoutMs: millisecondsOption('storeTimeoutMs', options.storeTimeoutMs, STORE_TIMEOUT_MS),
    ...(rateLimit !== undefined && { rateLimit }),
  };
}
