import { Duration, Effect, Schedule } from 'effect';
import { err, ok } from 'neverthrow';
import type { Result, ResultAsync } from 'neverthrow';
import type { PaymentError } from '../errors/payment-error.js';
import { paymentError } from '../errors/payment-error.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { PortFailure, PortResult } from '../ports/port-result.js';
import { runEffect } from './outcome.js';

/** A port call failed: the adapter's own error value, or the call did not answer in time. */
export type PortCallFailure<E> = { readonly kind: 'port'; readonly error: E } | { readonly kind: 'timeout' };

/** A port's answer as the engine awaits it: a plain `Result` when the port answered at once. */
export type PortAnswer<T, E> = Result<T, PortCallFailure<E>> | Promise<Result<T, PortCallFailure<E>>>;

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

type Pending<T, E> = ResultAsync<T, E> | Promise<Result<T, E>>;

const isPending = <T, E>(value: PortResult<T, E>): value is Pending<T, E> =>
  typeof (value as { then?: unknown }).then === 'function';

function tracer(trace: PortTrace | undefined): (outcome: string) => void {
  if (trace === undefined) return () => undefined;
  const started = trace.clock.now();
  return (outcome) =>
    trace.logger.debug({ port: trace.port, ...trace.fields, outcome, ms: trace.clock.now() - started }, 'port call');
}

function settled<T, E extends PortFailure<string>>(
  result: Result<T, E>,
  log: (outcome: string) => void,
): Effect.Effect<T, PortCallFailure<E>> {
  if (result.isOk()) {
    log('ok');
    return Effect.succeed(result.value);
  }
  log(result.error.code);
  return Effect.fail({ kind: 'port', error: result.error });
}

/**
 * Awaits a pending answer with a time-out, as an Effect: `Effect.async` with a single timer that
 * the answer (or the fiber's interruption) cancels. `Effect.timeoutFail` forks a fiber and races
 * a sleep, which costs about 60 µs per call, more than the rest of a command.
 */
function awaitPending<T, E extends PortFailure<string>>(
  pending: Pending<T, E>,
  timeoutMs: number,
  log: (outcome: string) => void,
): Effect.Effect<T, PortCallFailure<E>> {
  return Effect.async<T, PortCallFailure<E>>((resume) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      log('timeout');
      resume(Effect.fail({ kind: 'timeout' }));
    }, timeoutMs);
    const finish = (effect: Effect.Effect<T, PortCallFailure<E>>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resume(effect);
    };
    Promise.resolve(pending).then(
      (result: Result<T, E>) => finish(settled(result, log)),
      (defect: unknown) => {
        if (!done) log('defect');
        finish(Effect.die(defect));
      },
    );
    return Effect.sync(() => {
      done = true;
      clearTimeout(timer);
    });
  });
}

/**
 * One attempt: calls the port and, when its answer is pending, awaits it with the time-out. A port
 * that answers at once costs no timer and no suspension. A port that throws or rejects is a bug
 * in the adapter and becomes a defect, not a failure. `first` is an answer already obtained.
 */
function attempt<T, E extends PortFailure<string>>(
  call: () => PortResult<T, E>,
  policy: PortCallPolicy,
  first?: { answer: PortResult<T, E>; log: (outcome: string) => void },
): Effect.Effect<T, PortCallFailure<E>> {
  let given = first;
  return Effect.suspend(() => {
    let answer: PortResult<T, E>;
    let log: (outcome: string) => void;
    if (given !== undefined) {
      ({ answer, log } = given);
      given = undefined;
    } else {
      log = tracer(policy.trace);
      try {
        answer = call();
      } catch (defect) {
        log('defect');
        return Effect.die(defect);
      }
    }
    return isPending(answer) ? awaitPending(answer, policy.timeoutMs, log) : settled(answer, log);
  });
}

function retrying<T, E extends PortFailure<string>>(
  once: Effect.Effect<T, PortCallFailure<E>>,
  policy: PortCallPolicy,
): Effect.Effect<T, PortCallFailure<E>> {
  const retries = policy.retries ?? 0;
  if (retries === 0) return once;
  return once.pipe(
    Effect.retry({
      schedule: Schedule.exponential(Duration.millis(policy.backoffMs ?? 25)).pipe(Schedule.jittered),
      times: retries,
      while: (failure) => isRetryable(failure, policy),
    }),
  );
}

function isRetryable<E extends PortFailure<string>>(failure: PortCallFailure<E>, policy: PortCallPolicy): boolean {
  return failure.kind === 'timeout' ? policy.retryTimeouts === true : failure.error.retryable;
}

/**
 * Wraps one port call in an Effect with a time-out and a bounded retry schedule (exponential
 * back-off with jitter) for failures the adapter marks `retryable`. For Effect programs (the
 * sweeper, event delivery).
 */
export function callPort<T, E extends PortFailure<string>>(
  call: () => PortResult<T, E>,
  policy: PortCallPolicy,
): Effect.Effect<T, PortCallFailure<E>> {
  return retrying(attempt(call, policy), policy);
}

/**
 * The same call for the engine's commands, which are plain code: when the port answers at once
 * and nothing is to be retried, the answer is returned as it is, with no Effect run at all.
 * Otherwise the waiting (time-out) and the repeating (back-off) run as the Effect `callPort`
 * builds, starting from the answer already in hand. A defect rejects the promise (or throws).
 */
export function awaitPort<T, E extends PortFailure<string>>(
  call: () => PortResult<T, E>,
  policy: PortCallPolicy,
): PortAnswer<T, E> {
  const log = tracer(policy.trace);
  let answer: PortResult<T, E>;
  try {
    answer = call();
  } catch (defect) {
    log('defect');
    throw defect;
  }
  if (!isPending(answer)) {
    if (answer.isOk()) {
      log('ok');
      return ok(answer.value);
    }
    const failure: PortCallFailure<E> = { kind: 'port', error: answer.error };
    if ((policy.retries ?? 0) === 0 || !isRetryable(failure, policy)) {
      log(answer.error.code);
      return err(failure);
    }
  }
  return runEffect(retrying(attempt(call, policy, { answer, log }), policy));
}

/** Converts a port failure into the engine's error model: storage and provider trouble is `unavailable`. */
export function toPaymentError<E extends PortFailure<string>>(what: string) {
  return (failure: PortCallFailure<E>): PaymentError => {
    if (failure.kind === 'timeout') return paymentError.unavailable(`${what} did not answer in time`);
    if (failure.error.code === 'conflict') return paymentError.conflict();
    return paymentError.unavailable(`${what} is unavailable: ${failure.error.message}`);
  };
}
