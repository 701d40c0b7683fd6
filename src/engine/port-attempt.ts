import * as Effect from 'effect/Effect';
import { err } from 'neverthrow';
import type { Result, ResultAsync } from 'neverthrow';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { PortFailure, PortResult } from '../ports/port-result.js';
import { onAbort } from './on-abort.js';
import { createDeadlineWheel, type DeadlineWheel } from './deadline-wheel.js';
import type { PortTelemetry } from './port-span.js';

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

export type Pending<T, E> = ResultAsync<T, E> | Promise<Result<T, E>>;

export const isPending = <T, E>(value: PortResult<T, E>): value is Pending<T, E> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

export function tracer(trace: PortTrace | undefined): (outcome: string) => void {
  if (trace === undefined) return () => undefined;
  const started = trace.clock.now();
  return (outcome) =>
    trace.logger.debug({ port: trace.port, ...trace.fields, outcome, ms: trace.clock.now() - started }, 'port call');
}

/** A port call's outcome as an Effect: its value, or its failure. */
export function fromOutcome<T, E>(outcome: Result<T, PortCallFailure<E>>): Effect.Effect<T, PortCallFailure<E>> {
  return outcome.isOk() ? Effect.succeed(outcome.value) : Effect.fail(outcome.error);
}

/** The time-outs of every engine in this process: one fiber per time-out length, not one per call. */
const deadlines: DeadlineWheel = createDeadlineWheel();

const TIMED_OUT = { kind: 'timeout' } as const;

/** A call given up on because its `abandon` signal was aborted. */
export const ABANDONED = { kind: 'timeout', abandoned: true } as const;

export const isAbandoned = <E>(failure: PortCallFailure<E>): boolean =>
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
export function awaitAnswer<T, E extends PortFailure<string>>(
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
export function portResult<T, E extends PortFailure<string>>(
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
export type Begun<T, E extends PortFailure<string>> =
  { readonly now: Result<T, PortCallFailure<E>> } | { readonly later: Effect.Effect<T, PortCallFailure<E>> };

/**
 * Calls the port once (none once `abandon` is aborted): a pending answer is awaited with the
 * time-out. A port that throws, rejects or answers no `Result` is a defect of the adapter.
 */
export function begin<T, E extends PortFailure<string>>(
  call: AbortablePortCall<T, E>,
  policy: PortCallPolicy,
): Begun<T, E> {
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

export const settled = <T, E extends PortFailure<string>>(begun: Begun<T, E>): Effect.Effect<T, PortCallFailure<E>> =>
  'now' in begun ? fromOutcome(begun.now) : begun.later;

/** One attempt as an Effect (see `begin`): a port that answers at once costs no timer and no suspension. */
export function attempt<T, E extends PortFailure<string>>(
  call: AbortablePortCall<T, E>,
  policy: PortCallPolicy,
): Effect.Effect<T, PortCallFailure<E>> {
  return Effect.suspend(() => settled(begin(call, policy)));
}

/** The retries after a first attempt that ended in `first` (already logged), on the schedule. */
