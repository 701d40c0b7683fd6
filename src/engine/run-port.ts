import { Duration, Effect, Schedule } from 'effect';
import type { Result } from 'neverthrow';
import type { PaymentError } from '../errors/payment-error.js';
import { paymentError } from '../errors/payment-error.js';
import type { PortFailure, PortResult } from '../ports/port-result.js';

/** A port call failed: the adapter's own error value, or the call did not answer in time. */
export type PortCallFailure<E> = { readonly kind: 'port'; readonly error: E } | { readonly kind: 'timeout' };

export interface PortCallPolicy {
  /** Gives up (fails with `timeout`) after this long. */
  readonly timeoutMs: number;
  /** Extra attempts for failures marked `retryable` (and time-outs, when `retryTimeouts`). */
  readonly retries?: number;
  readonly retryTimeouts?: boolean;
  /** First back-off delay; doubles each attempt. */
  readonly backoffMs?: number;
}

/**
 * Wraps one port call in an Effect with a time-out and a bounded retry schedule.
 * A port that throws or rejects is a bug in the adapter and becomes a defect, not a failure.
 */
export function callPort<T, E extends PortFailure<string>>(
  call: () => PortResult<T, E>,
  policy: PortCallPolicy,
): Effect.Effect<T, PortCallFailure<E>> {
  const once = Effect.promise(() => Promise.resolve(call())).pipe(
    Effect.flatMap((result: Result<T, E>) =>
      result.isOk()
        ? Effect.succeed(result.value)
        : Effect.fail<PortCallFailure<E>>({ kind: 'port', error: result.error }),
    ),
    Effect.timeoutFail({
      duration: Duration.millis(policy.timeoutMs),
      onTimeout: (): PortCallFailure<E> => ({ kind: 'timeout' }),
    }),
  );
  const retries = policy.retries ?? 0;
  if (retries === 0) return once;
  return once.pipe(
    Effect.retry({
      schedule: Schedule.exponential(Duration.millis(policy.backoffMs ?? 25)).pipe(Schedule.jittered),
      times: retries,
      while: (failure) => (failure.kind === 'timeout' ? policy.retryTimeouts === true : failure.error.retryable),
    }),
  );
}

/** Converts a port failure into the engine's error model: storage and provider trouble is `unavailable`. */
export function toPaymentError<E extends PortFailure<string>>(what: string) {
  return (failure: PortCallFailure<E>): PaymentError => {
    if (failure.kind === 'timeout') return paymentError.unavailable(`${what} did not answer in time`);
    if (failure.error.code === 'conflict') return paymentError.conflict();
    return paymentError.unavailable(`${what} is unavailable: ${failure.error.message}`);
  };
}
