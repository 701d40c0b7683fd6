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
  /** A server span per request joined to its `traceparent` (observability.md). Default none, and no cost. */
  readonly telemetry?: Telemetry;
  /** Prefix of the problem `type` URIs; the code is appended. Default `urn:paystate:problem:`. */
  readonly problemTypeBase?: string;
  /**
   * How long an `Idempotency-Key` answer is kept, longer than `idempotencyStaleAfterMs`. Default 24
   * hours. Limits and why: embedding-http.md.
   */
  readonly idempotencyTtlMs?: number;
  /**
   * How long after its start an unsettled request is presumed dead, so that a retry takes its key
   * over; longer than the engine's longest create (about 3 minutes). Default 5 minutes.
   */
  readonly idempotencyStaleAfterMs?: number;
  /**
   * The deadline of each credential and idempotency store call; past it the request answers `503`
   * (what else it does: embedding-http.md). Default 5 seconds.
   */
  readonly storeTimeoutMs?: number;
  /**
   * Makes each request's id (`Request-Id`, on its log lines): 1 to 200 visible ASCII characters, no
   * card number, else the default is used and logged once. Default `req_` and 32 hex digits.
   */
  readonly requestId?: () => string;
  /**
   * One turn per authenticated request, before its body is read; over the limit `429` with
   * `Retry-After`; a limiter that fails lets the request through (logged). Default none.
   */
  readonly rateLimit?: RateLimiter;
}

/** The `Idempotency-Key` limits, checked: the key must outlive the stale limit (embedding-http.md). */
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
