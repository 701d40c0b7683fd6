import * as Duration from 'effect/Duration';
import * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import * as Option from 'effect/Option';
import * as Schedule from 'effect/Schedule';
import { err } from 'neverthrow';
import type { Result } from 'neverthrow';
import type { PaymentError } from '../errors/payment-error.js';
import { paymentError } from '../errors/payment-error.js';
import type { PortFailure, PortResult } from '../ports/port-result.js';
import { onAbort } from './on-abort.js';
import { latestExpiryMs } from './deadline-wheel.js';
import { runEffect } from './outcome.js';
import { outcomeCode, PortSpan } from './port-span.js';
import {
  ABANDONED,
  attempt,
  awaitAnswer,
  begin,
  fromOutcome,
  isAbandoned,
  isPending,
  portResult,
  settled,
  tracer,
  type AbortablePortCall,
  type Begun,
  type PortAnswer,
  type PortCallFailure,
  type PortCallPolicy,
} from './port-attempt.js';

export type { AbortablePortCall, PortAnswer, PortCallFailure, PortCallPolicy, PortTrace } from './port-attempt.js';

function retryAfter<T, E extends PortFailure<string>>(
  first: Result<T, PortCallFailure<E>>,
  call: () => PortResult<T, E>,
  policy: PortCallPolicy,
): Promise<Result<T, PortCallFailure<E>>> {
  let given: Result<T, PortCallFailure<E>> | undefined = first;
  const once = Effect.suspend(() => {
    if (given === undefined) return attempt(call, policy);
    const outcome = given;
    given = undefined;
    return fromOutcome(outcome);
  });
  return runEffect(retrying(once, policy));
}

/** The first back-off delay when a policy names none. */
const DEFAULT_BACKOFF_MS = 25;

/** The most `Schedule.jittered` stretches a delay by. */
const MAX_JITTER = 1.2;

/**
 * The longest a call with this policy can keep its caller waiting, retries included: every
 * attempt runs out of time (the deadline wheel fires at most an eighth late), and every back-off
 * is as long as the jitter makes it. Event-loop lag comes on top. What a lease must outlast.
 */
export function longestCallMs(policy: PortCallPolicy): number {
  const retries = policy.retries ?? 0;
  const backoffs = (policy.backoffMs ?? DEFAULT_BACKOFF_MS) * (2 ** retries - 1) * MAX_JITTER;
  return (retries + 1) * latestExpiryMs(policy.timeoutMs) + backoffs;
}

/**
 * `once` retried on the schedule. Once `abandon` is aborted the retries end, a back-off under way
 * included: the program fails as abandoned (and an attempt under way is no longer waited for).
 */
function retrying<T, E extends PortFailure<string>>(
  once: Effect.Effect<T, PortCallFailure<E>>,
  policy: PortCallPolicy,
): Effect.Effect<T, PortCallFailure<E>> {
  const retries = policy.retries ?? 0;
  if (retries === 0) return once;
  const retried = once.pipe(
    Effect.retry({
      schedule: Schedule.exponential(Duration.millis(policy.backoffMs ?? DEFAULT_BACKOFF_MS)).pipe(Schedule.jittered),
      times: retries,
      while: (failure) => isRetryable(failure, policy),
    }),
  );
  const { abandon } = policy;
  return abandon === undefined ? retried : Effect.raceFirst(retried, abandoned(abandon));
}

/** Fails as abandoned once `signal` is aborted (at once, when it is already). */
function abandoned(signal: AbortSignal): Effect.Effect<never, typeof ABANDONED> {
  return Effect.async<never, typeof ABANDONED>((resume) => {
    if (signal.aborted) {
      resume(Effect.fail(ABANDONED));
      return;
    }
    const stop = onAbort(signal, () => resume(Effect.fail(ABANDONED)));
    return Effect.sync(stop);
  });
}

function isRetryable<E extends PortFailure<string>>(failure: PortCallFailure<E>, policy: PortCallPolicy): boolean {
  if (policy.abandon?.aborted === true) return false;
  return failure.kind === 'timeout'
    ? policy.retryTimeouts === true && failure.abandoned !== true
    : failure.error.retryable;
}

/**
 * Wraps one port call in an Effect with a time-out and a bounded retry schedule (exponential
 * back-off with jitter) for failures the adapter marks `retryable`. For Effect programs (the
 * sweeper, event delivery). Once `abandon` is aborted it is interrupted: the background worker
 * abandons the program it is part of.
 */
export function callPort<T, E extends PortFailure<string>>(
  call: AbortablePortCall<T, E>,
  policy: PortCallPolicy,
): Effect.Effect<T, PortCallFailure<E>> {
  const { telemetry } = policy;
  if (telemetry === undefined) return callPortUntraced(call, policy);
  return Effect.suspend(() => {
    const span = new PortSpan(telemetry);
    return callPortUntraced(span.wrap(call), policy).pipe(
      Effect.onExit((exit) =>
        Effect.sync(() => {
          if (Exit.isSuccess(exit)) return span.end('ok');
          const failure = Cause.failureOption(exit.cause);
          span.end(
            Option.isSome(failure)
              ? failureOutcome(failure.value)
              : Cause.isInterruptedOnly(exit.cause)
                ? 'interrupted'
                : 'defect',
          );
        }),
      ),
    );
  });
}

/** How a port call failed, as its span's outcome: the port's code, `timeout` or `abandoned`. */
function failureOutcome<E extends PortFailure<string>>(failure: PortCallFailure<E>): string {
  if (failure.kind === 'port') return outcomeCode(failure.error.code);
  return failure.abandoned === true ? 'abandoned' : 'timeout';
}

/** A port call's answer as its span's outcome. */
const answerOutcome = <T, E extends PortFailure<string>>(answer: Result<T, PortCallFailure<E>>): string =>
  answer.isOk() ? 'ok' : failureOutcome(answer.error);

/** `callPort` without a span. */
function callPortUntraced<T, E extends PortFailure<string>>(
  call: AbortablePortCall<T, E>,
  policy: PortCallPolicy,
): Effect.Effect<T, PortCallFailure<E>> {
  const { abandon } = policy;
  // Whatever it ended with once abandoned (the failure that ended its retries, included) is no
  // answer anyone waits for any more.
  const unlessAbandoned = (failure: PortCallFailure<E>) =>
    abandon !== undefined && (abandon.aborted || isAbandoned(failure)) ? Effect.interrupt : Effect.fail(failure);
  return Effect.suspend(() => {
    const first = begin(call, policy);
    // Answered at once with nothing to retry (the common case): no schedule, no race.
    if ('now' in first && (first.now.isOk() || (policy.retries ?? 0) === 0 || !isRetryable(first.now.error, policy))) {
      return first.now.isOk() ? Effect.succeed(first.now.value) : unlessAbandoned(first.now.error);
    }
    let given: Begun<T, E> | undefined = first;
    const once = Effect.suspend(() => {
      if (given === undefined) return attempt(call, policy);
      const begun = given;
      given = undefined;
      return settled(begun);
    });
    const program = retrying(once, policy);
    return abandon === undefined ? program : program.pipe(Effect.catchAll(unlessAbandoned));
  });
}

/**
 * The same call for the engine's commands, which are plain code: when the port answers at once
 * and nothing is to be retried, the answer is returned as it is. A pending answer is awaited
 * with its time-out from the deadline wheel (an Effect fiber per time-out length, not per call),
 * and retries run on the Effect schedule `callPort` uses, starting from the answer in hand. A
 * defect rejects the promise (or throws). Once `abandon` is aborted it makes no attempt more and
 * answers `timeout` marked `abandoned`, at once (see `PortCallPolicy.abandon`).
 */
export function awaitPort<T, E extends PortFailure<string>>(
  call: () => PortResult<T, E>,
  policy: PortCallPolicy,
): PortAnswer<T, E> {
  const { telemetry } = policy;
  if (telemetry === undefined) return awaitPortUntraced(call, policy);
  const span = new PortSpan(telemetry);
  let answer: PortAnswer<T, E>;
  try {
    answer = awaitPortUntraced(span.wrap(call), policy);
  } catch (defect) {
    span.end('defect');
    throw defect;
  }
  if (!(answer instanceof Promise)) {
    span.end(answerOutcome(answer));
    return answer;
  }
  return answer.then(
    (outcome) => {
      span.end(answerOutcome(outcome));
      return outcome;
    },
    (defect: unknown) => {
      span.end('defect');
      throw defect;
    },
  );
}

/** `awaitPort` without a span. */
function awaitPortUntraced<T, E extends PortFailure<string>>(
  call: () => PortResult<T, E>,
  policy: PortCallPolicy,
): PortAnswer<T, E> {
  const log = tracer(policy.trace);
  const { abandon } = policy;
  if (abandon?.aborted === true) {
    log('abandoned');
    return err(ABANDONED);
  }
  let answer: PortResult<T, E>;
  try {
    answer = call();
  } catch (defect) {
    log('defect');
    throw defect;
  }
  const retries = policy.retries ?? 0;
  if (isPending(answer)) {
    const first = awaitAnswer(answer, policy.timeoutMs, log, abandon);
    if (retries === 0) return first;
    return first.then((outcome) =>
      outcome.isOk() || !isRetryable(outcome.error, policy) ? outcome : retryAfter(outcome, call, policy),
    );
  }
  const outcome = portResult(answer, log);
  if (outcome.isOk() || retries === 0 || !isRetryable(outcome.error, policy)) return outcome;
  return retryAfter(outcome, call, policy);
}

/** Converts a port failure into the engine's error model: storage and provider trouble is `unavailable`. */
export function toPaymentError<E extends PortFailure<string>>(what: string) {
  return (failure: PortCallFailure<E>): PaymentError => {
    if (failure.kind === 'timeout') {
      return paymentError.unavailable(
        failure.abandoned === true
          ? `${what} was not waited for: the background worker stopped`
          : `${what} did not answer in time`,
      );
    }
    if (failure.error.code === 'conflict') return paymentError.conflict();
    return paymentError.unavailable(`${what} is unavailable: ${failure.error.message}`);
  };
}
