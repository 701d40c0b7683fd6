import * as Cause from 'effect/Cause';
import * as Chunk from 'effect/Chunk';
import * as Deferred from 'effect/Deferred';
import * as Duration from 'effect/Duration';
import * as Effect from 'effect/Effect';
import * as Fiber from 'effect/Fiber';
import * as Option from 'effect/Option';
import { ResultAsync, err, ok } from 'neverthrow';
import type { Result } from 'neverthrow';
import { maskDigits } from '../domain/mask-digits.js';
import type { Payment } from '../domain/payment.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import type { PaymentError } from '../errors/payment-error.js';
import { paymentError } from '../errors/payment-error.js';
import { deepFreeze } from '../domain/immutable.js';
import { createPaymentMachine } from '../machine/payment-machine.js';
import type { PaymentMachine } from '../machine/payment-machine.js';
import { guardLogger, logsAt, silentLogger, withLogFields } from '../ports/logger.js';
import { completeChallenge } from './complete-challenge.js';
import type { CompleteChallengeCommand } from './complete-challenge.js';
import { createPayment, newPaymentId } from './create-payment.js';
import type { CreatePaymentCommand } from './create-payment.js';
import { deliverBatch, deliverEvents } from './deliver-events.js';
import type { EngineContext, PaymentEnginePorts } from './engine-context.js';
import type { PaymentEngineOptions } from './engine-options.js';
import { resolveEngineOptions } from './engine-options.js';
import { describeDefect } from './describe-defect.js';
import {
  createLoopTracker,
  healthTimeoutOf,
  probeStorage,
  readClock,
  tickFailureOf,
  type BackgroundWorkerStatus,
  type DeliveryTickReport,
  type HealthCheckOptions,
  type HealthReport,
  type LoopTracker,
  type StorageHealth,
} from './health.js';
import { createInspection } from './inspection.js';
import { loadPayment } from './load-payment.js';
import { hostedPageLinkOf, loadHostedPage, type HostedPageQuery } from './page-link.js';
import { loggableId, MAX_LOGGED_REQUEST_ID_LENGTH } from './loggable-id.js';
import { runEffect } from './outcome.js';
import type { Outcome } from './outcome.js';
import { getPayment, listPayments } from './query-payments.js';
import type { GetPaymentQuery, ListPaymentsQuery, PaymentList } from './query-payments.js';
import { submitCard } from './submit-card.js';
import type { SubmitCardCommand } from './submit-card.js';
import { purgeCardVault } from './purge-card-vault.js';
import { addSweepReports, emptySweepReport, sweep, sweepBatch } from './sweep.js';
import { createSweepSetAside, SET_ASIDE_BATCHES } from './sweep-set-aside.js';
import type { SweepReport } from './sweep.js';
import { publicView } from './working-payment.js';

/** What `createPaymentEngine` takes: the ports, and optionally the engine's tuning. */
export interface PaymentEngineConfig extends PaymentEnginePorts {
  /** Time-outs, retries, batches and lifecycle policy; every field has a default. */
  readonly options?: PaymentEngineOptions;
}

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

/** Options of `getPaymentRecord`. */
export interface RecordQueryOptions {
  /**
   * The id of the request being served (the hosted page's `Request-Id`): every log line of the
   * read carries it as `requestId`, as with the commands' `requestId`. Never stored.
   */
  readonly requestId?: string;
}

/**
 * The payment engine. Every command returns a `ResultAsync` and never rejects for an expected
 * failure: the error is a `PaymentError` with a stable `code`.
 */
export interface PaymentEngine {
  /** Creates a payment: hosted flow (returns `next.redirect` to the hosted page) or direct flow (runs 3DS and authorization). */
  createPayment(command: CreatePaymentCommand): ResultAsync<Payment, PaymentError>;
  /**
   * A new payment id from the engine's id port, for `createPayment`'s `paymentId`: the HTTP API
   * reserves one with an `Idempotency-Key` before it creates the payment. Does no I/O.
   */
  newPaymentId(): string;
  /** Card data posted from the hosted payment page. */
  submitCard(command: SubmitCardCommand): ResultAsync<Payment, PaymentError>;
  /** The issuer's challenge result for a payment awaiting a 3DS challenge. */
  completeChallenge(command: CompleteChallengeCommand): ResultAsync<Payment, PaymentError>;
  /** A payment of a profile, as the API returns it; `not_found` for one of another profile or partner. */
  getPayment(query: GetPaymentQuery): ResultAsync<Payment, PaymentError>;
  /**
   * A page of a profile's payments, newest first; `validation_failed` for a bad `limit`, or for an
   * `after` that is malformed or not a payment of the list.
   */
  listPayments(query: ListPaymentsQuery): ResultAsync<PaymentList, PaymentError>;
  /**
   * The internal record of a payment (3DS outcome, deadlines, the hosted page token when one is
   * stored) for hosts that serve the challenge return. Never contains card data. `options.requestId`,
   * as on the commands: the id of the request it serves, put on every log line it writes.
   */
  getPaymentRecord(paymentId: string, options?: RecordQueryOptions): ResultAsync<PaymentRecord, PaymentError>;
  /**
   * The internal record of the payment whose hosted page link holds `query.token`, for hosts that
   * serve the hosted page: `not_found` alike for an unknown payment, a wrong token, a direct-flow
   * payment, and a payment final for longer than `hostedPageLinkGraceMs` (its link has lapsed).
   */
  getHostedPageRecord(query: HostedPageQuery): ResultAsync<PaymentRecord, PaymentError>;
  /**
   * The hosted page link of `paymentId` (as `next.redirect` shows it while the payment awaits card
   * data), made from the `pageTokens` port; null without it (a random token is then stored, and
   * only the payment knows its link). Does no I/O and does not look the payment up.
   */
  hostedPageLink(paymentId: string): string | null;
  /** One sweeper tick: expire what is due, re-inquire unknown authorizations. */
  sweep(): ResultAsync<SweepReport, PaymentError>;
  /** Delivers pending outbox events to the event sink; returns how many were delivered. */
  deliverEvents(): ResultAsync<number, PaymentError>;
  /**
   * Runs the sweeper and event delivery as two loops of their own, each every `intervalMs`
   * (default 1000) after its last tick, until stopped: neither waits for the other (a hanging
   * acquirer inquiry does not hold up delivery), and neither stops when the other fails. Throws a
   * `RangeError` when `intervalMs` is not a number of milliseconds from 1 to 2^31 - 1 (0, a
   * negative number or `NaN` would spin without pause; a longer one would never tick again).
   */
  startBackgroundWorker(options?: { readonly intervalMs?: number }): BackgroundWorker;
  /**
   * Reports whether the engine can work, for readiness probes and on-call dashboards. It probes
   * storage with one read that cannot touch a payment (`repository.load` of
   * `HEALTH_PROBE_PAYMENT_ID`; it writes nothing and claims nothing), without retries, within
   * `timeoutMs` (default the storage time-out): `storage.status` is `ok` when the repository
   * answered in time, else `unavailable` with a masked `message`. With it comes the status of the
   * background worker this engine started last (`worker`, see `BackgroundWorker.status()`), when
   * it started one. Never fails and never rejects: it reports. A `RangeError` (thrown) only for a
   * `timeoutMs` that is not a number of milliseconds from 1 to 2^31 - 1.
   */
  checkHealth(options?: HealthCheckOptions): ResultAsync<HealthReport, never>;
  /** The lifecycle machine this engine steps (for diagrams and inspection). */
  readonly machine: PaymentMachine;
}

/**
 * An id a client sent, as a log line may show it (`loggableId`); one that is no string (plain
 * JavaScript), by its type.
 */
const loggable = (id: unknown, maxLength?: number): string =>
  typeof id === 'string' ? loggableId(id, maxLength) : `[${typeof id}]`;

/** The ids a client sent, as a log line may show them (`loggable`). */
const loggableIds = (ids: Readonly<Record<string, unknown>>): Record<string, string> =>
  Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, loggable(id)]));

const noIds = () => ({});

function defect<A>(ctx: EngineContext, command: string, error: unknown): Result<A, PaymentError> {
  ctx.logger.error({ command, cause: describeDefect(error) }, 'engine defect');
  return err(paymentError.internal());
}

/**
 * The context a command runs with: the engine's, or, when the command was given a `requestId`,
 * one whose logger puts that id (`loggableId`, up to 200 characters) on every line the command
 * writes. Not when the engine logs nothing: then it costs nothing. Reading the input is done in
 * `runCommand`'s guard (a command given without its object, from plain JavaScript, is a defect).
 */
function commandContext(ctx: EngineContext, input: unknown): EngineContext {
  if (ctx.logger === silentLogger || typeof input !== 'object' || input === null) return ctx;
  const requestId: unknown = (input as { readonly requestId?: unknown }).requestId;
  if (requestId === undefined) return ctx;
  return {
    ...ctx,
    logger: withLogFields(ctx.logger, { requestId: loggable(requestId, MAX_LOGGED_REQUEST_ID_LENGTH) }),
  };
}

/**
 * The one boundary between the engine and its public neverthrow API. Commands are plain async
 * code returning `Result`s; the background programs (sweep, delivery) are Effect programs run to
 * a `Result` (`runEffect`). Either way a failure becomes `err(PaymentError)`, and a defect (a bug,
 * an adapter that threw) becomes `internal_error` after it is logged, never a rejected promise.
 * It logs how the command ended (failures at info, successes at debug), with the ids the client
 * sent read and made `loggableId` only when a line is written (`ids` reads them: a command given
 * without its object, from plain JavaScript, is a defect answered `internal_error`, not a throw),
 * and maps its value. The step runs with `commandContext`: given the `input` object's
 * `requestId`, every line of the command carries it.
 */
function runCommand<T, A>(
  base: EngineContext,
  command: string,
  input: unknown,
  ids: () => Readonly<Record<string, unknown>>,
  step: (ctx: EngineContext) => Outcome<T>,
  map: (value: T) => A,
): ResultAsync<A, PaymentError> {
  const started = base.ports.clock.now();
  let ctx = base;
  let pending: Outcome<T>;
  try {
    ctx = commandContext(base, input);
    pending = step(ctx);
  } catch (error) {
    pending = Promise.reject(error);
  }
  // What runs once the step has ended (its log line, `map`) must not throw either: a throw there
  // rejected the `ResultAsync` the caller holds.
  return new ResultAsync(
    pending
      .then((result): Result<A, PaymentError> => {
        if (result.isErr()) {
          if (logsAt(ctx.logger, 'info')) {
            const ms = ctx.ports.clock.now() - started;
            ctx.logger.info({ command, ...loggableIds(ids()), code: result.error.code, ms }, 'command failed');
          }
          return err(result.error);
        }
        if (logsAt(ctx.logger, 'debug')) {
          ctx.logger.debug({ command, ...loggableIds(ids()), ms: ctx.ports.clock.now() - started }, 'command done');
        }
        return ok(map(result.value));
      })
      .catch((error: unknown) => defect<A>(ctx, command, error)),
  );
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

const identity = <T>(value: T): T => value;
const frozen = <T>(value: T): T => deepFreeze(value);

/** The ports an engine cannot run without: a `TypeError` at construction rather than a defect in every command. */
const REQUIRED_PORTS = ['repository', 'acquirer', 'threeDS', 'cardVault', 'clock', 'ids'] as const;

/**
 * Builds a payment engine on the given ports. A missing port is a `TypeError` and an option out
 * of range a `RangeError`, here rather than in every command; the commands themselves never
 * throw: they answer `ResultAsync`s with `PaymentError`s.
 */
export function createPaymentEngine(config: PaymentEngineConfig): PaymentEngine {
  for (const name of REQUIRED_PORTS) {
    const port: unknown = config[name];
    if (typeof port !== 'object' || port === null) {
      throw new TypeError(`createPaymentEngine needs a ${name} port (got ${port === null ? 'null' : typeof port})`);
    }
  }
  const pageTokens: unknown = config.pageTokens;
  if (pageTokens !== undefined && typeof (pageTokens as { tokenFor?: unknown } | null)?.tokenFor !== 'function') {
    throw new TypeError('createPaymentEngine needs a pageTokens port with tokenFor(paymentId), or none');
  }
  const options = config.options ?? {};
  const machine = createPaymentMachine(options);
  const resolved = resolveEngineOptions(options);
  const ctx: EngineContext = {
    ports: config,
    logger: guardLogger(config.logger ?? silentLogger),
    machine,
    options: resolved,
    inspection: createInspection(machine, options.inspect),
    setAside: createSweepSetAside(SET_ASIDE_BATCHES * resolved.batchSize),
  };
  const runProgram = <A>(command: string, program: () => Effect.Effect<A, PaymentError>) =>
    runCommand(ctx, command, undefined, noIds, () => runEffect(program()), identity);
  // One delivery at a time per engine, so one process never publishes an event twice.
  const deliveryLock = Effect.unsafeMakeSemaphore(1);
  const deliver = deliveryLock.withPermits(1)(deliverEvents(ctx));

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
      Effect.suspend(() =>
        drain(sweepBatch(worker, stopRequested, new Set()), max, stopRequested, {
          start: emptySweepReport,
          add: (sum, batch) => addSweepReports(sum, batch.report),
          progressed: (batch) => handled(batch.report) > 0,
        }).pipe(Effect.tap(() => purgeCardVault(worker))),
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
      drain(deliveryLock.withPermits(1)(deliverBatch(worker, stopRequested)), max, stopRequested, {
        start: { delivered: 0, deferred: 0 } as DeliveryTickReport,
        add: (sum, batch) => ({ delivered: sum.delivered + batch.delivered, deferred: sum.deferred + batch.deferred }),
        // A batch that delivered made progress; so did one that only deferred events (the next
        // read passes them by), unless it ended because the sink seems down: then the tick ends
        // too. (After a stall that follows deliveries, the next batch's first new event ends it
        // at once if the sink is down.) A batch that lost the outbox lease ends the tick: another
        // instance delivers now.
        progressed: (batch) => !batch.leaseLost && (batch.delivered > 0 || (!batch.stalled && batch.deferred > 0)),
      }),
      tracker,
      (sum) => {
        if (sum.delivered > 0) ctx.logger.info({ part: 'delivery', ...sum }, 'background tick');
      },
    );
  /** The status of the background worker this engine started last, for `checkHealth`. */
  let lastWorkerStatus: (() => BackgroundWorkerStatus) | undefined;

  return {
    machine: ctx.machine,
    createPayment: (command) =>
      runCommand(
        ctx,
        'createPayment',
        command,
        () => ({ profileId: command.profileId }),
        (run) => createPayment(run, command),
        (working) => publicView(ctx, working),
      ),
    newPaymentId: () => newPaymentId(ctx),
    submitCard: (command) =>
      runCommand(
        ctx,
        'submitCard',
        command,
        () => ({ paymentId: command.paymentId }),
        (run) => submitCard(run, command),
        (working) => publicView(ctx, working),
      ),
    completeChallenge: (command) =>
      runCommand(
        ctx,
        'completeChallenge',
        command,
        () => ({ paymentId: command.paymentId }),
        (run) => completeChallenge(run, command),
        (working) => publicView(ctx, working),
      ),
    getPayment: (query) =>
      runCommand(
        ctx,
        'getPayment',
        query,
        () => ({ paymentId: query.paymentId }),
        (run) => getPayment(run, query),
        frozen,
      ),
    listPayments: (query) =>
      runCommand(
        ctx,
        'listPayments',
        query,
        () => ({ profileId: query.profileId }),
        (run) => listPayments(run, query),
        frozen,
      ),
    getHostedPageRecord: (query) =>
      runCommand(
        ctx,
        'getHostedPageRecord',
        query,
        () => ({ paymentId: query.paymentId }),
        (run) => loadHostedPage(run, query),
        identity,
      ),
    hostedPageLink: (paymentId) => hostedPageLinkOf(ctx)?.(paymentId) ?? null,
    getPaymentRecord: (paymentId, recordOptions) =>
      runCommand(
        ctx,
        'getPaymentRecord',
        recordOptions,
        () => ({ paymentId }),
        (run) => loadPayment(run, paymentId),
        identity,
      ),
    checkHealth: (healthOptions = {}) => {
      const timeoutMs = healthTimeoutOf(ctx, healthOptions);
      const at = readClock(ctx.ports.clock, 0);
      const report = (storage: StorageHealth): HealthReport => {
        const worker = lastWorkerStatus?.();
        return deepFreeze({ at, storage, ...(worker !== undefined && { worker }) });
      };
      return new ResultAsync(
        probeStorage(ctx, timeoutMs)
          // Never rejects, whatever the adapter or the clock did: what cannot be described is still reported.
          .catch((): StorageHealth => ({ status: 'unavailable', ms: 0, message: 'payment storage failed' }))
          .then((storage) => ok<HealthReport, never>(report(storage))),
      );
    },
    sweep: () => runProgram('sweep', () => sweep(ctx)),
    deliverEvents: () => runProgram('deliverEvents', () => deliver),
    startBackgroundWorker: (workerOptions = {}) => {
      const intervalMs = workerOptions.intervalMs ?? 1000;
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
      lastWorkerStatus = status;
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
    },
  };
}
