import * as Effect from 'effect/Effect';
import { ResultAsync, ok } from 'neverthrow';
import type { Payment } from '../domain/payment.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import type { PaymentError } from '../errors/payment-error.js';
import { deepFreeze } from '../domain/immutable.js';
import { createPaymentMachine } from '../machine/payment-machine.js';
import { createOperationMachines } from './operation-lifecycle.js';
import { moneyCommands, type MoneyCommands } from './money-commands.js';
import type { PaymentMachine } from '../machine/payment-machine.js';
import { guardLogger, silentLogger } from '../ports/logger.js';
import { startBackgroundWorker, type BackgroundWorker } from './background-worker.js';
import { completeChallenge } from './complete-challenge.js';
import type { CompleteChallengeCommand } from './complete-challenge.js';
import { createPayment, newPaymentId } from './create-payment.js';
import type { CreatePaymentCommand } from './create-payment.js';
import { deliverEvents } from './deliver-events.js';
import type { EngineContext, PaymentEnginePorts } from './engine-context.js';
import type { PaymentEngineOptions } from './engine-options.js';
import { resolveEngineOptions } from './engine-options.js';
import {
  healthTimeoutOf,
  probeStorage,
  readClock,
  type BackgroundWorkerStatus,
  type HealthCheckOptions,
  type HealthReport,
  type StorageHealth,
} from './health.js';
import { createInspection } from './inspection.js';
import { loadPayment } from './load-payment.js';
import { hostedPageLinkOf, loadHostedPage, type HostedPageQuery } from './page-link.js';
import { runEffect } from './outcome.js';
import { getPayment, listPayments } from './query-payments.js';
import type { GetPaymentQuery, ListPaymentsQuery, PaymentList } from './query-payments.js';
import { runCommand, noIds } from './run-command.js';
import { submitCard } from './submit-card.js';
import type { SubmitCardCommand } from './submit-card.js';
import { sweep } from './sweep.js';
import { createSweepSetAside, SET_ASIDE_BATCHES } from './sweep-set-aside.js';
import type { SweepReport } from './sweep.js';
import { publicView } from './working-payment.js';

export type { BackgroundWorker } from './background-worker.js';

/** What `createPaymentEngine` takes: the ports, and optionally the engine's tuning. */
export interface PaymentEngineConfig extends PaymentEnginePorts {
  /** Time-outs, retries, batches and lifecycle policy; every field has a default. */
  readonly options?: PaymentEngineOptions;
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
export interface PaymentEngine extends MoneyCommands {
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
    operationMachines: createOperationMachines(options),
    options: resolved,
    inspection: createInspection(machine, options.inspect),
    setAside: createSweepSetAside(SET_ASIDE_BATCHES * resolved.batchSize),
  };
  const runProgram = <A>(command: string, program: () => Effect.Effect<A, PaymentError>) =>
    runCommand(ctx, command, undefined, noIds, () => runEffect(program()), identity);
  // One delivery at a time per engine, so one process never publishes an event twice.
  const deliveryLock = Effect.unsafeMakeSemaphore(1);
  const deliver = deliveryLock.withPermits(1)(deliverEvents(ctx));

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
    ...moneyCommands(ctx),
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
      const worker = startBackgroundWorker(ctx, deliveryLock, workerOptions);
      lastWorkerStatus = () => worker.status();
      return worker;
    },
  };
}
