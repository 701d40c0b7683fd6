import type { RateLimiter } from '../../src/ports/rate-limiter.js';
import { createMemoryRateLimiter, type SandboxRateLimit } from '../memory/index.js';

/** The sandbox's limit per client unless its config says otherwise: 25 requests a second, bursts of 100. */
export const DEFAULT_SANDBOX_RATE_LIMIT: Readonly<{ requestsPerSecond: number; burst: number }> = Object.freeze({
  requestsPerSecond: 25,
  burst: 100,
});

/**
 * The limiter the sandbox's API runs with: `given` when there is one (`false`: none); else the
 * config's `rate_limit` (`false`: none; a field left out takes the default), in memory, per
 * instance; else `DEFAULT_SANDBOX_RATE_LIMIT`.
 */
export function sandboxRateLimiter(
  given: RateLimiter | false | undefined,
  config: SandboxRateLimit | undefined,
): RateLimiter | undefined {
  if (given !== undefined) return given === false ? undefined : given;
  if (config === false) return undefined;
  return createMemoryRateLimiter({
    requestsPerSecond: config?.requests_per_second ?? DEFAULT_SANDBOX_RATE_LIMIT.requestsPerSecond,
    burst: config?.burst ?? DEFAULT_SANDBOX_RATE_LIMIT.burst,
  });
}
