import * as Duration from 'effect/Duration';
import * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import * as Option from 'effect/Option';
import * as Schedule from 'effect/Schedule';
import { err } from 'neverthrow';
import type { Result, ResultAsync } from 'neverthrow';
import type { PaymentError } from '../errors/payment-error.js';
import { paymentError } from '../errors/payment-error.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { PortFailure, PortResult } from '../ports/port-result.js';
import { onAbort } from './on-abort.js';
import { createDeadlineWheel, latestExpiryMs, type DeadlineWheel } from './deadline-wheel.js';
import { runEffect } from './outcome.js';
import { outcomeCode, PortSpan, type PortTelemetry } from './port-span.js';

/**
 * A port call failed: the adapter's own error value, or the call did not answer in time. A call
 * the engine gave up on (`abandoned`: the background worker stopped, see `PortCallPolicy.abandon`)
 * is a time-out too: its outcome is as unknown, and it is never retried.
 */
export type PortCallFailure<E> =
  { readonly kind: 'port'; readonly error: E } | { readonly kind: 'timeout'; readonly abandoned?: true };

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
  /**
   * Hands each attempt an `AbortSignal` that is aborted when the engine stops waiting for its
   * answer: at the time-out (reason a `TimeoutError` `DOMException`) or when the waiting
   * program is interrupted (an `AbortError` one). `callPort` only.
   */
  readonly abortable?: boolean;
  /**
   * Once aborted, the call makes no further attempt: not the first, no retry, no back-off. The
   * wait for an attempt under way ends at once (its `AbortSignal`, when `abortable`, is aborted
   * with an `AbortError`), though the attempt itself cannot be recalled. `awaitPort` then answers
   * `timeout` with `abandoned: true`; `callPort` is interrupted (its fiber is being abandoned).
   * The background worker's stop, for its own calls only (`EngineContext.abandon`).
   */
  readonly abandon?: AbortSignal;
  /** The call's span, its retries included (`traced`); none without telemetry. */
  readonly telemetry?: PortTelemetry;
}

/** A port call as `callPort` makes it: `signal` is given when the policy is `abortable`. */
export type AbortablePortCall<T, E> = (signal?: AbortSignal) => PortResult<T, E>;

export interface PortTrace {
  readonly port: string;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly fields?: Record<string, unknown>;
}

type Pending<T, E> = ResultAsync<T, E> | Promise<Result<T, E>>;

const isPending = <T, E>(value: PortResult<T, E>): value is Pending<T, E> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

function tracer(trace: PortTrace | undefined): (outcome: string) => void {
  if (trace === undefined) return () => undefined;
  const started = trace.clock.now();
  return (outcome) =>
    trace.logger.debug({ port: trace.port, ...trace.fields, outcome, ms: trace.clock.now() - started }, 'port call');
}

/** A port call's outcome as an Effect: its value, or its failure. */
function fromOutcome<T, E>(outcome: Result<T, PortCallFailure<E>>): Effect.Effect<T, PortCallFailure<E>> {
  return outcome.isOk() ? Effect.succeed(outcome.value) : Effect.fail(outcome.error);
}

/** The time-outs of every engine in this process: one fiber per time-out length, not one per call. */
const deadlines: DeadlineWheel = createDeadlineWheel();

const TIMED_OUT = { kind: 'timeout' } as const;

/** A call given up on because its `abandon` signal was aborted. */
const ABANDONED = { kind: 'timeout', abandoned: true } as const;

const isAbandoned = <E>(failure: PortCallFailure<E>): boolean =>
  failure.kind === 'timeout' && failure.abandoned === true;

/** Why an abortable attempt's signal is aborted when the engine stops waiting for it. */
const stoppedWaiting = () => new DOMException('The engine stopped waiting for the answer', 'AbortError');

/** How a pending answer ended: its outcome (a time-out included), or a defect (it rejected). */
type Settlement<T, E> = { readonly outcome: Result<T, PortCallFailure<E>> } | { readonly defect: unknown };

/**
 * Waits for a pending answer with a time-out from the deadline wheel and calls `settle` once: with
 * the answer as a port outcome, with `timeout`, or with the adapter's defect; or, once `abandon`
 * is aborted, with `timeout` marked `abandoned`. Returns a function that stops waiting (nothing is
 * settled after it). `controller`, when given, is aborted when the wait ends without an answer: at
 * the time-out, when it is abandoned, or when it is stopped.
 */
function watchAnswer<T, E extends PortFailure<string>>(
  pending: Pending<T, E>,
  timeoutMs: number,
  log: (outcome: string) => void,
  settle: (settlement: Settlement<T, E>) => void,
  controller?: AbortController,
  abandon?: AbortSignal,
): () => void {
  let done = false;
  // Stops listening to `abandon`; only a call that has one pays for the listener.
  let unlisten: (() => void) | undefined;
  const cancelDeadline = deadlines.add(timeoutMs, () => {
    if (done) return;
    done = true;
    unlisten?.();
    settle({ outcome: err(TIMED_OUT) });
    log('timeout');
    controller?.abort(new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError'));
  });
  const cancel = () => {
    cancelDeadline();
    unlisten?.();
  };
  if (abandon !== undefined) {
    const onAbandon = () => {
      if (done) return;
      done = true;
      cancelDeadline();
      settle({ outcome: err(ABANDONED) });
      log('abandoned');
      controller?.abort(stoppedWaiting());
    };
    if (abandon.aborted) onAbandon();
    else unlisten = onAbort(abandon, onAbandon);
  }
  Promise.resolve(pending).then(
    (result: Result<T, E>) => {
      if (done) return;
      done = true;
      cancel();
      // An answer that is no `Result` is the adapter's defect. Thrown from here it left the wait
      // without a settlement (its deadline already cancelled: the caller waited for ever) and
      // rejected a promise nobody handles (an unhandled rejection ends a Node process).
      let outcome: Result<T, PortCallFailure<E>>;
      try {
        outcome = portResult(result, log);
      } catch (defect) {
        log('defect');
        settle({ defect });
        return;
      }
      settle({ outcome });
    },
    (defect: unknown) => {
      if (done) return;
      done = true;
      cancel();
      log('defect');
      settle({ defect });
    },
  );
  return () => {
    if (done) return;
    done = true;
    cancel();
    controller?.abort(stoppedWaiting());
  };
}

/** A pending answer for plain code: a promise of its outcome that rejects with a defect. */
function awaitAnswer<T, E extends PortFailure<string>>(
  pending: Pending<T, E>,
  timeoutMs: number,
  log: (outcome: string) => void,
  abandon: AbortSignal | undefined,
): Promise<Result<T, PortCallFailure<E>>> {
  return new Promise((resolve, reject) => {
    watchAnswer(
      pending,
      timeoutMs,
      log,
      (settlement) => ('outcome' in settlement ? resolve(settlement.outcome) : reject(settlement.defect)),
      undefined,
      abandon,
    );
  });
}

/**
 * A port's own result as the engine awaits it, logged. Throws a `TypeError` (a defect of the
 * adapter) for an answer that is no `Result`, or a failure that is no object; the error names
 * neither, as it could hold card data.
 */
function portResult<T, E extends PortFailure<string>>(
  result: Result<T, E>,
  log: (outcome: string) => void,
): Result<T, PortCallFailure<E>> {
  const answer: unknown = result;
  if (typeof answer !== 'object' || answer === null || typeof (answer as { isOk?: unknown }).isOk !== 'function') {
    throw new TypeError(`a port answered ${answer === null ? 'null' : typeof answer}, not a Result`);
  }
  if (result.isOk()) {
    log('ok');
    return result as unknown as Result<T, PortCallFailure<E>>;
  }
  const failure: unknown = result.error;
  if (typeof failure !== 'object' || failure === null) {
    throw new TypeError(`a port failed with ${failure === null ? 'null' : typeof failure}, not a port failure`);
  }
  log(result.error.code);
  return err({ kind: 'port', error: result.error });
}

/** A pending answer in an Effect program; interrupting it stops the wait (and aborts `controller`). */
function awaitPending<T, E extends PortFailure<string>>(
  pending: Pending<T, E>,
  timeoutMs: number,
  log: (outcome: string) => void,
  controller: AbortController | undefined,
  abandon: AbortSignal | undefined,
): Effect.Effect<T, PortCallFailure<E>> {
  return Effect.async<T, PortCallFailure<E>>((resume) => {
    const stop = watchAnswer(
      pending,
      timeoutMs,
      log,
      (settlement) => resume('outcome' in settlement ? fromOutcome(settlement.outcome) : Effect.die(settlement.defect)),
      controller,
      abandon,
    );
    return Effect.sync(stop);
  });
}

/** An attempt begun: its outcome when the port answered at once, else the Effect that ends it. */
type Begun<T, E extends PortFailure<string>> =
  { readonly now: Result<T, PortCallFailure<E>> } | { readonly later: Effect.Effect<T, PortCallFailure<E>> };

/**
 * Calls the port once (none once `abandon` is aborted): a pending answer is awaited with the
 * time-out. A port that throws, rejects or answers no `Result` is a defect of the adapter.
 */
function begin<T, E extends PortFailure<string>>(call: AbortablePortCall<T, E>, policy: PortCallPolicy): Begun<T, E> {
  const log = tracer(policy.trace);
  if (policy.abandon?.aborted === true) {
    log('abandoned');
    return { now: err(ABANDONED) };
  }
  const controller = policy.abortable === true ? new AbortController() : undefined;
  let answer: PortResult<T, E>;
  try {
    answer = controller === undefined ? call() : call(controller.signal);
  } catch (defect) {
    log('defect');
    return { later: Effect.die(defect) };
  }
  if (isPending(answer)) return { later: awaitPending(answer, policy.timeoutMs, log, controller, policy.abandon) };
  try {
    return { now: portResult(answer, log) };
  } catch (defect) {
    return { later: Effect.die(defect) };
  }
}

const settled = <T, E extends PortFailure<string>>(begun: Begun<T, E>): Effect.Effect<T, PortCallFailure<E>> =>
  'now' in begun ? fromOutcome(begun.now) : begun.later;

/** One attempt as an Effect (see `begin`): a port that answers at once costs no timer and no suspension. */
function attempt<T, E extends PortFailure<string>>(
  call: AbortablePortCall<T, E>,
  policy: PortCallPolicy,
): Effect.Effect<T, PortCallFailure<E>> {
  return Effect.suspend(() => settled(begin(call, policy)));
}

/** The retries after a first attempt that ended in `first` (already logged), on the schedule. */
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
