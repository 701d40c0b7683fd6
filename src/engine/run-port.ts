import { Duration, Effect, Schedule } from 'effect';
import type { Result } from 'neverthrow';
import type { PaymentError } from '../errors/payment-error.js';
import { paymentError } from '../errors/payment-error.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
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
  /** Logs every attempt at debug level: which port, how long it took, how it ended. */
  readonly trace?: PortTrace;
}

export interface PortTrace {
  readonly port: string;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly fields?: Record<string, unknown>;
}

/**
 * One port call with a time-out, as an Effect. Built on `Effect.async` with a single timer that
 * the call's completion (or the fiber's interruption) cancels: `Effect.timeoutFail` forks a
 * fiber and races a sleep, which costs about 60 µs per call, more than the rest of a command.
 * A port that throws or rejects is a bug in the adapter and becomes a defect, not a failure.
 */
function callOnce<T, E extends PortFailure<string>>(
  call: () => PortResult<T, E>,
  timeoutMs: number,
  trace: PortTrace | undefined,
): Effect.Effect<T, PortCallFailure<E>> {
  return Effect.async<T, PortCallFailure<E>>((resume) => {
    let settled = false;
    const started = trace?.clock.now() ?? 0;
    const log = (outcome: string) =>
      trace?.logger.debug({ port: trace.port, ...trace.fields, outcome, ms: trace.clock.now() - started }, 'port call');
    const timer = setTimeout(() => {
      settled = true;
      log('timeout');
      resume(Effect.fail({ kind: 'timeout' }));
    }, timeoutMs);
    const finish = (outcome: string, effect: Effect.Effect<T, PortCallFailure<E>>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      log(outcome);
      resume(effect);
    };
    try {
      Promise.resolve(call()).then(
        (result: Result<T, E>) =>
          result.isOk()
            ? finish('ok', Effect.succeed(result.value))
            : finish(result.error.code, Effect.fail({ kind: 'port', error: result.error })),
        (defect: unknown) => finish('defect', Effect.die(defect)),
      );
    } catch (defect) {
      finish('defect', Effect.die(defect));
    }
    return Effect.sync(() => {
      settled = true;
      clearTimeout(timer);
    });
  });
}

/**
 * Wraps one port call in an Effect with a time-out and a bounded retry schedule (exponential
 * back-off with jitter) for failures the adapter marks `retryable`.
 */
export function callPort<T, E extends PortFailure<string>>(
  call: () => PortResult<T, E>,
  policy: PortCallPolicy,
): Effect.Effect<T, PortCallFailure<E>> {
  const once = callOnce(call, policy.timeoutMs, policy.trace);
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
