import type { Result } from 'neverthrow';
import type { Client } from '../../src/ports/credential-store.js';
import type { Logger } from '../../src/ports/logger.js';
import type { RateDecision, RateLimiter, RateLimiterError } from '../../src/ports/rate-limiter.js';
import { problem, type Problem } from './problem-details.js';
import type { HttpDeps } from './route-context.js';
import { withDeadline, type StoreTimedOut } from './store-deadline.js';

/** The longest `Retry-After` the API sends: a day, whatever a limiter says. */
export const MAX_RATE_LIMIT_RETRY_AFTER_SECONDS = 86_400;

/**
 * The `429 rate_limited` of a client over its limit, with `Retry-After` in whole seconds, at least 1
 * (anything but a finite `retryAfterMs` above 0 is 1).
 */
function rateLimitedProblem(retryAfterMs: unknown): Problem {
  const valid = typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs > 0;
  const seconds = valid ? Math.min(MAX_RATE_LIMIT_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(retryAfterMs / 1000))) : 1;
  return problem('rate_limited', `Too many requests from this client; retry after ${seconds} s`, {
    headers: { 'retry-after': String(seconds) },
  });
}

const isResult = (value: unknown): value is Result<RateDecision, RateLimiterError | StoreTimedOut> =>
  typeof value === 'object' && value !== null && typeof (value as { isErr?: unknown }).isErr === 'function';

/**
 * One turn of `client` at the clock's now: the `429` problem when over its limit, else null. A
 * limiter that fails or passes `storeTimeoutMs` lets the request through, logged.
 */
export async function checkRateLimit(
  limiter: RateLimiter,
  client: Client,
  deps: Pick<HttpDeps, 'clock' | 'storeTimeoutMs'>,
  logger: Logger,
): Promise<Problem | null> {
  const through = (fields: Record<string, unknown>, message: string): null => {
    logger.error({ clientId: client.id, ...fields }, `${message}; the request goes ahead unlimited`);
    return null;
  };
  let answer: unknown;
  try {
    answer = await withDeadline(
      limiter.take(client.id, deps.clock.now()),
      deps.storeTimeoutMs,
      "The rate limiter's take",
      (late) => {
        if ('defect' in late) logger.error({ error: late.defect }, 'rate limiter rejected after its deadline');
      },
    );
  } catch (error) {
    return through({ error }, 'rate limiter threw (a defect of the adapter)');
  }
  if (!isResult(answer)) return through({}, 'rate limiter answered no Result (a defect of the adapter)');
  if (answer.isErr()) {
    const { code, message } = (answer.error ?? {}) as Partial<RateLimiterError | StoreTimedOut>;
    if (code === 'timeout') return through({ timeoutMs: deps.storeTimeoutMs }, 'rate limiter did not answer in time');
    return through({ code, message }, 'rate limiter unavailable');
  }
  const decision = answer.value as Partial<{ allowed: unknown; retryAfterMs: unknown }> | null | undefined;
  return decision?.allowed === false ? rateLimitedProblem(decision.retryAfterMs) : null;
}
