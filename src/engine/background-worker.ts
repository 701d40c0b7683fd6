import * as Cause from 'effect/Cause';
import * as Chunk from 'effect/Chunk';
import * as Deferred from 'effect/Deferred';
import * as Duration from 'effect/Duration';
import * as Effect from 'effect/Effect';
import * as Fiber from 'effect/Fiber';
import * as Option from 'effect/Option';
import { maskDigits } from '../domain/mask-digits.js';
import type { PaymentError } from '../errors/payment-error.js';
import { deliverBatch } from './deliver-events.js';
import type { EngineContext } from './engine-context.js';
import { describeDefect } from './describe-defect.js';
import { withTickSpan } from './engine-telemetry.js';
import {
  createLoopTracker,
  readClock,
  tickFailureOf,
  type BackgroundWorkerStatus,
  type DeliveryTickReport,
  type LoopTracker,
} from './health.js';
import { purgeCardVault } from './purge-card-vault.js';
import { addSweepReports, emptySweepReport, sweepBatch } from './sweep.js';
import type { SweepReport } from './sweep.js';

/** A running background worker (sweeper and event delivery). */
export interface BackgroundWorker {
  /**
   * Stops both loops. At once, no new batch starts, nor a due payment of the sweeper batch under
   * way, nor a publish of the delivery batch under way: the events that batch published are marked
   * delivered, and the rest wait. What is under way (the port calls of a publish or of the due
   * payments started, and the writes after them) is waited for up to `waitMs` (default 5 s), then
   * abandoned: its answer is ignored. That is safe, only not tidy: an abandoned publish (its
   * signal aborted) leaves its event undelivered, and the events published before it in that batch
   * unmarked, so they are delivered again later (at least once, as after a crash); a payment whose
   * inquiry was abandoned stays as stored and claimed until its claim lapses, and another sweep
   * asks again; a write abandoned in flight either landed or not, and the versioned update guards
   * every later one. Once abandoned, that work starts no further port call: no retry, no load that
   * confirms a failed write, no next step (dropping a challenge's card), and the time-outs it was
   * waiting on end too. Only an attempt already sent cannot be recalled: a write already sent may
   * still land, and the versioned update guards it. So once it resolves the host may close what
   * the ports use (`await worker.stop(); await postgres.close()`). The engine's commands are not
   * affected: they go on with their retries. Resolves once both loops have stopped or been
   * abandoned, and logs a warning when anything was abandoned; calling it again gives the same
   * promise, whatever its options.
   *
   * `waitMs`: default 5000; 0 abandons what is under way at once; `Infinity` waits for it, whatever
   * its time-outs and retries make that. A `RangeError` unless from 0 to 2^31 - 1 or `Infinity`.
   */
  stop(options?: { readonly waitMs?: number }): Promise<void>;
  /**
   * What the worker is doing, for health checks and dashboards: `running`, `stopping` (from
   * `stop()` until it resolves) or `stopped`, and for each loop (sweep, delivery) when its last tick
   * started and ended, when one last ended without a failure, how many in a row failed, and the
   * last failure's code and masked message as the engine logs it (never card data). Times are the
   * clock port's. Synchronous and cheap: it copies what each tick recorded (a few assignments per
   * tick; the engine's commands record nothing). Plain frozen data.
   */
  status(): BackgroundWorkerStatus;
}

/**
 * What a failed background tick looks like in a log: each failure's code and masked message,
 * each defect as `describeDefect` puts it. Never `Cause.pretty`, which prints an adapter's error
 * text as it is (it may quote card data).
 */
function describeCause(cause: Cause.Cause<PaymentError>): string {
  const failures = Chunk.toReadonlyArray(Cause.failures(cause)).map(
    (failure) => `${failure.code}: ${maskDigits(failure.message)}`,
  );
  const defects = Chunk.toReadonlyArray(Cause.defects(cause)).map(describeDefect);
  const described = [...failures, ...defects];
  return described.length > 0 ? described.join('\n') : Cause.isInterruptedOnly(cause) ? 'interrupted' : 'unknown';
}

/** `describeCause`, for a handler that must not fail: a failure that is no `PaymentError` (a bug) cannot break it. */
function describeCauseSafely(cause: Cause.Cause<PaymentError>): string {
  try {
    return describeCause(cause);
  } catch {
    return 'a failure that could not be described';
  }
}

/**
 * A background tick's loop: runs `batch` back to back while it comes back full and made progress,
 * adding up what each did, up to `max` times, so that a backlog does not wait one
 * interval per batch. Between batches it lets the event loop serve requests: adapters that answer
 * at once (in memory) would otherwise hold it for the whole backlog. It starts no batch once
 * `stopRequested` says so. It also says whether the last batch came back full (for `status()`).
 */
function drain<B extends { readonly full: boolean }, T>(
  batch: Effect.Effect<B, PaymentError>,
  max: number,
  stopRequested: () => boolean,
  sum: { readonly start: T; add(total: T, batch: B): T; progressed(batch: B): boolean },
): Effect.Effect<Drained<T>, PaymentError> {
  return Effect.gen(function* () {
    let total = sum.start;
    let full = false;
    for (let round = 0; round < max; round++) {
      if (round > 0) yield* Effect.sleep(Duration.zero);
      if (stopRequested()) break;
      const result = yield* batch;
      total = sum.add(total, result);
      full = result.full;
      if (!result.full || !sum.progressed(result)) break;
    }
    return { total, full };
  });
}

/** What a tick's batches did together, and whether its last batch came back full (more was due). */
interface Drained<T> {
  readonly total: T;
  readonly full: boolean;
}

/** The longest `intervalMs`: Effect never wakes a sleep longer than a Node timer can wait. */
const MAX_INTERVAL_MS = 2 ** 31 - 1;

/**
 * How long `stop()` waits for the work under way by default: far longer than a publish, an
 * inquiry or a write takes when their systems are up (milliseconds), so only a hung one is
 * abandoned, and well inside the time a host gets to shut down (Kubernetes gives 30 s after
 * SIGTERM, where the port time-outs with their retries could take 34 s or more).
 */
const DEFAULT_STOP_WAIT_MS = 5_000;

/** `stop()`'s `waitMs`, checked. */
function stopWaitOf(options: { readonly waitMs?: number }): number {
  const waitMs = options.waitMs ?? DEFAULT_STOP_WAIT_MS;
  if (waitMs === Number.POSITIVE_INFINITY || (Number.isFinite(waitMs) && waitMs >= 0 && waitMs <= MAX_INTERVAL_MS)) {
    return waitMs;
  }
  throw new RangeError(
    `waitMs needs a number of milliseconds from 0 to ${MAX_INTERVAL_MS}, or Infinity (got ${String(waitMs)})`,
  );
}

/** Payments a sweep moved on (conflicts and errors are not progress). */
const handled = (report: SweepReport): number => report.expired + report.reconciled + report.stillUnknown;

/**
 * Starts the sweeper and event delivery as two loops (see `PaymentEngine.startBackgroundWorker`).
 * `deliveryLock` is the engine's: one delivery at a time per engine.
 */
export function startBackgroundWorker(
  ctx: EngineContext,
  deliveryLock: Effect.Semaphore,
  options: { readonly intervalMs?: number },
): BackgroundWorker {
  /**
   * A loop's tick, made total: whatever its program does (fails, dies), it ends in success, so
   * that `Effect.repeat` goes on; what went wrong is logged (the logger cannot throw). `tracker`
   * records when it started and how it ended, for `status()`.
   */
  const total = <A extends object>(
    part: string,
    program: Effect.Effect<Drained<A>, PaymentError>,
    tracker: LoopTracker<A>,
    done: (value: A) => void,
  ) =>
    Effect.sync(() => tracker.started()).pipe(
      Effect.zipRight(program),
      Effect.tap(({ total: value, full }) =>
        Effect.sync(() => {
          tracker.succeeded(value, full);
          done(value);
        }),
      ),
      Effect.catchAllCause((cause) =>
        // Interrupted: `stop()` abandoned the tick, and says so itself.
        Cause.isInterruptedOnly(cause)
          ? Effect.void
          : Effect.sync(() => {
              tracker.failed(tickFailureOf(cause));
              ctx.logger.error({ part, cause: describeCauseSafely(cause) }, 'background tick failed');
            }),
      ),
      Effect.asVoid,
    );
  const max = ctx.options.batchesPerTick;
  const sweepTick = (worker: EngineContext, stopRequested: () => boolean, tracker: LoopTracker<SweepReport>) =>
    total(
      'sweep',
      // A tick handles each payment once (see `sweepBatch`).
      withTickSpan(worker, 'sweep', (traced) =>
        Effect.suspend(() =>
          drain(sweepBatch(traced, stopRequested, new Set()), max, stopRequested, {
            start: emptySweepReport,
            add: (sum, batch) => addSweepReports(sum, batch.report),
            progressed: (batch) => handled(batch.report) > 0,
          }).pipe(Effect.tap(() => purgeCardVault(traced))),
        ),
      ),
      tracker,
      (report) => {
        if (handled(report) > 0) ctx.logger.info({ part: 'sweep', ...report }, 'background tick');
      },
    );
  const deliveryTick = (
    worker: EngineContext,
    stopRequested: () => boolean,
    tracker: LoopTracker<DeliveryTickReport>,
  ) =>
    total(
      'delivery',
      withTickSpan(worker, 'delivery', (traced) =>
        drain(deliveryLock.withPermits(1)(deliverBatch(traced, stopRequested)), max, stopRequested, {
          start: { delivered: 0, deferred: 0 } as DeliveryTickReport,
          add: (sum, batch) => ({
            delivered: sum.delivered + batch.delivered,
            deferred: sum.deferred + batch.deferred,
          }),
          // A batch that delivered made progress; so did one that only deferred events (the next
          // read passes them by), unless it ended because the sink seems down: then the tick ends
          // too. (After a stall that follows deliveries, the next batch's first new event ends it
          // at once if the sink is down.) A batch that lost the outbox lease ends the tick: another
          // instance delivers now.
          progressed: (batch) => !batch.leaseLost && (batch.delivered > 0 || (!batch.stalled && batch.deferred > 0)),
        }),
      ),
      tracker,
      (sum) => {
        if (sum.delivered > 0) ctx.logger.info({ part: 'delivery', ...sum }, 'background tick');
      },
    );
  const intervalMs = options.intervalMs ?? 1000;
  if (!Number.isFinite(intervalMs) || intervalMs < 1 || intervalMs > MAX_INTERVAL_MS) {
    throw new RangeError(
      `intervalMs needs a number of milliseconds from 1 to ${MAX_INTERVAL_MS} (got ${String(intervalMs)})`,
    );
  }
  let stopping = false;
  const stopRequested = () => stopping;
  // Aborted once `stop()` is done waiting: no port call of this worker makes another attempt
  // (the host's commands use `ctx`, which has no such signal).
  const abandonment = new AbortController();
  const worker: EngineContext = { ...ctx, abandon: abandonment.signal };
  // Wakes both loops from the pause between ticks when stopping.
  const wake = Effect.runSync(Deferred.make<void>());
  const pause = Effect.raceFirst(Effect.sleep(Duration.millis(intervalMs)), Deferred.await(wake));
  // A tick under way, once stopping, starts no new batch, payment or publish, and stores what
  // it did (a delivery cut between publish and mark would publish again); `stop()` cuts it
  // short only after `waitMs`.
  const loop = (part: string, tick: Effect.Effect<void>, tracker: LoopTracker<object>) => {
    const fiber = Effect.runFork(
      Effect.gen(function* () {
        while (!stopping) {
          yield* tick;
          if (!stopping) yield* pause;
        }
      }),
    );
    return { part, tracker, fiber };
  };
  const { clock } = ctx.ports;
  const startedAt = readClock(clock, 0);
  const sweepTracker = createLoopTracker<SweepReport>(clock);
  const deliveryTracker = createLoopTracker<DeliveryTickReport>(clock);
  const loops = [
    loop('sweep', sweepTick(worker, stopRequested, sweepTracker), sweepTracker),
    loop('delivery', deliveryTick(worker, stopRequested, deliveryTracker), deliveryTracker),
  ];
  const fibers = loops.map(({ fiber }) => fiber);
  let state: BackgroundWorkerStatus['state'] = 'running';
  const status = (): BackgroundWorkerStatus =>
    Object.freeze({
      state,
      intervalMs,
      startedAt,
      at: readClock(clock, startedAt),
      sweep: sweepTracker.status(),
      delivery: deliveryTracker.status(),
    });
  let stopped: Promise<void> | undefined;
  const ended = () => {
    for (const { tracker } of loops) tracker.stopped();
    state = 'stopped';
  };
  return {
    status,
    stop: (stopOptions) => {
      // Stopped already: the same promise, whatever is asked this time.
      if (stopped !== undefined) return stopped;
      const waitMs = stopWaitOf(stopOptions ?? {});
      stopping = true;
      state = 'stopping';
      stopped ??= Effect.runPromise(
        Effect.gen(function* () {
          yield* Deferred.succeed(wake, undefined);
          const finished =
            waitMs === Number.POSITIVE_INFINITY
              ? Option.some(yield* Fiber.awaitAll(fibers))
              : yield* Effect.timeoutOption(Fiber.awaitAll(fibers), Duration.millis(waitMs));
          if (Option.isSome(finished)) {
            abandonment.abort();
            ended();
            return;
          }
          const abandoned = loops.filter(({ tracker }) => tracker.ticking).map(({ part }) => part);
          // First the signal, so that no attempt starts in between (a retry of a write runs on
          // a fiber of its own: interrupting the loops only stops waiting for it), then the loops.
          abandonment.abort();
          yield* Fiber.interruptAll(fibers);
          ended();
          if (abandoned.length === 0) return;
          ctx.logger.warn(
            { parts: abandoned, waitMs },
            'background worker stopped without waiting any longer for the work under way; it is done again later',
          );
        }),
      );
      return stopped;
    },
  };
}
