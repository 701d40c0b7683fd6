import { err, type Result } from 'neverthrow';
import type { CredentialStore, CredentialStoreError } from '../../src/ports/credential-store.js';
import type { Logger } from '../../src/ports/logger.js';
import type { PortResult } from '../../src/ports/port-result.js';
import { problem, RETRY_LATER, type Problem } from './problem-details.js';
import type { HttpDeps } from './route-context.js';

/**
 * How long the HTTP layer waits for the credential store or the idempotency store to answer one
 * call before it gives up on it: 5 seconds (`storeTimeoutMs`).
 */
export const STORE_TIMEOUT_MS = 5000;

/** The longest delay a timer keeps (2^31 - 1 ms, about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A store call that did not answer within its deadline. */
export interface StoreTimedOut {
  readonly code: 'timeout';
  readonly message: string;
  readonly retryable: true;
}

/** How a store call ended after its deadline had passed: its answer, or a defect (it rejected). */
export type LateSettlement<T, E> = { readonly result: Result<T, E> } | { readonly defect: unknown };

const isPending = <T, E>(answer: PortResult<T, E>): answer is Exclude<PortResult<T, E>, Result<T, E>> =>
  typeof (answer as { then?: unknown }).then === 'function';

/**
 * A store's answer awaited at most `timeoutMs` (no timer for one given at once): its result, or
 * `err` `timeout`. Late answers and rejections go to `late`, never to an unhandled rejection.
 */
export function withDeadline<T, E>(
  answer: PortResult<T, E>,
  timeoutMs: number,
  what: string,
  late?: (settlement: LateSettlement<T, E>) => void,
): Promise<Result<T, E | StoreTimedOut>> {
  if (!isPending(answer)) return Promise.resolve(answer);
  const lateAnswer = (settlement: LateSettlement<T, E>) => {
    try {
      late?.(settlement);
    } catch {
      // Nobody waits for this call any more: there is no one to tell.
    }
  };
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        resolve(err({ code: 'timeout', message: `${what} did not answer within ${timeoutMs} ms`, retryable: true }));
      },
      Math.min(timeoutMs, MAX_TIMER_MS),
    );
    answer.then(
      (result) => {
        if (!timedOut) {
          clearTimeout(timer);
          resolve(result);
        } else lateAnswer({ result });
      },
      (defect: unknown) => {
        if (!timedOut) {
          clearTimeout(timer);
          reject(defect instanceof Error ? defect : new Error(String(defect), { cause: defect }));
        } else lateAnswer({ defect });
      },
    );
  });
}

/** The 503 of a credential store that failed or did not answer in time. */
export function credentialStoreUnavailable(): Problem {
  return problem('unavailable', 'The credential store is unavailable; retry later', {
    headers: RETRY_LATER,
  });
}

/** A store call's failure when the store threw or rejected: read as unavailable. */
export interface StoreThrew {
  readonly code: 'unavailable';
  readonly message: string;
  readonly retryable: false;
}

/**
 * One store call with the deadline `timeoutMs`: its result, or `err` `timeout`. A throw or
 * rejection is logged and read as unavailable (503, never 500); a late answer goes to `late`.
 */
export async function callStoreWithDeadline<T, E>(
  logger: Logger,
  store: 'credential store' | 'idempotency store',
  call: string,
  timeoutMs: number,
  run: () => PortResult<T, E>,
  late?: (result: Result<T, E>) => void,
): Promise<Result<T, E | StoreTimedOut | StoreThrew>> {
  const threw = (error: unknown, after?: true) => {
    logger.error(
      { error, call, ...(after && { afterDeadline: true }) },
      `${store} threw (a defect of the adapter); read as unavailable`,
    );
    return err({ code: 'unavailable' as const, message: `The ${store}'s ${call} threw`, retryable: false as const });
  };
  try {
    return await withDeadline(run(), timeoutMs, `The ${store}'s ${call}`, (settlement) => {
      if ('defect' in settlement) threw(settlement.defect, true);
      else late?.(settlement.result);
    });
  } catch (error) {
    return threw(error);
  }
}

/**
 * One credential store call with the deadline `storeTimeoutMs` (`callStoreWithDeadline`); a
 * time-out is logged here, to `logger` (the request's; default the API's).
 */
export async function callCredentialStore<T>(
  deps: Pick<HttpDeps, 'logger' | 'storeTimeoutMs'>,
  call: 'authenticate' | 'findProfile',
  run: () => PortResult<T, CredentialStoreError>,
  logger: Logger = deps.logger,
): Promise<Result<T, CredentialStoreError | StoreTimedOut | StoreThrew>> {
  const result = await callStoreWithDeadline(logger, 'credential store', call, deps.storeTimeoutMs, run);
  if (result.isErr() && result.error.code === 'timeout') {
    logger.error({ call, timeoutMs: deps.storeTimeoutMs }, 'credential store did not answer in time');
  }
  return result;
}

/**
 * A profile's name for a page, or null when unknown, failing or past `timeoutMs` (the page shows a
 * stand-in). A rejection before the deadline rejects; one after it is dropped.
 */
export async function profileNameOf(
  credentials: Pick<CredentialStore, 'findProfile'>,
  profileId: string,
  timeoutMs: number,
): Promise<string | null> {
  const found = await withDeadline(credentials.findProfile(profileId), timeoutMs, "The credential store's findProfile");
  return found.isOk() && found.value !== null ? found.value.name : null;
}
