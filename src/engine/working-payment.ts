import { err } from 'neverthrow';
import type { AnyEventObject } from 'xstate';
import type { DomainEvent } from '../domain/domain-event.js';
import { deepFreeze } from '../domain/immutable.js';
import { isoTime } from '../domain/iso-time.js';
import type { Payment } from '../domain/payment.js';
import type { ThreeDSAuthentication } from '../domain/three-ds.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import { copyRecord } from '../domain/payment-record.js';
import { cardholderMustAct } from '../machine/public-state.js';
import type { LifecycleState, StepResult } from '../machine/step-payment.js';
import { stepPayment } from '../machine/step-payment.js';
import type { PaymentMachineEvent } from '../machine/payment-machine-events.js';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import { recordFinalState } from './engine-telemetry.js';
import { done } from './outcome.js';
import type { Outcome } from './outcome.js';
import { awaitPort, toPaymentError } from './run-port.js';
import { paymentError } from '../errors/payment-error.js';
import { hostedPageLinkOf } from './page-link.js';
import { toPublicPayment } from './to-public-payment.js';
import { watchUnsent } from './unsent-attempts.js';
import { logsAt } from '../ports/logger.js';

/**
 * A payment being worked on by one command: the record as it is in memory, the version that
 * is stored (null before the first insert) and the domain events not yet written.
 *
 * Every object the record holds (contacts, browser data, card summary, 3DS outcome,
 * authorization) is frozen all the way down from the moment it joins the record: a loaded or
 * new record is frozen once when the command starts, and `patch` freezes what it adds. Each
 * version is a copy of the one before (`copyRecord`), so freezing it for storage is one shallow
 * `Object.freeze`, not a walk; events and public views built from it are frozen as they are built.
 */
export interface WorkingPayment {
  record: PaymentRecord;
  storedVersion: number | null;
  pendingEvents: DomainEvent[];
  /** True when `record` differs from what is stored. */
  dirty: boolean;
  /** The record as this command last stored or loaded it. */
  storedRecord: PaymentRecord | null;
  /** How many writes this command has made. */
  commits: number;
  /** The last machine step taken, whose snapshot the next step starts from when it still applies. */
  lastStep: StepResult | undefined;
  /** States entered since the last write, for its log line. */
  entered: PaymentRecord['state'][];
  /** The event view last built (`eventView`) and the record it shows, so it is built once. */
  shown: { readonly record: PaymentRecord; readonly payment: Payment } | undefined;
  /** The latest version known frozen all the way down: the one the command started from, then each one it stored. */
  frozen: PaymentRecord;
  /**
   * Machine steps not yet told to the inspector: they are reported once a write has stored them
   * and dropped when it fails (a lost conflict stored nothing). Always empty without an inspector.
   */
  uninspected: UninspectedStep[];
  /**
   * What the last 3DS answer of this command gives the acquirer (docs/ports.md): held
   * for `authorize` in this command only, never stored, logged or evented. Null without one.
   */
  authentication: ThreeDSAuthentication | null;
}

/** A machine step waiting for the write that stores it, to be reported to the inspector then. */
export interface UninspectedStep {
  /** True for the step that created the payment (the inspector is told of a new actor first). */
  readonly started: boolean;
  readonly event: AnyEventObject;
  readonly step: StepResult;
  /** Where the step started from: the actor's snapshot when the inspector is told of it only now. */
  readonly from: LifecycleState | undefined;
}

/**
 * Starts work on `given`: a new record, or one a repository returned (which may hand out unfrozen
 * objects, as Postgres does). Freezes it all the way down, once, for the whole command. An
 * unfrozen record is copied first, so the record object a repository handed out stays unfrozen;
 * the copy is shallow, so the objects inside it (contacts, browser data, 3DS and authorization
 * outcomes) are frozen in place: a repository hands out objects it will not change later (the
 * Postgres one builds them fresh from each row; the memory one hands out frozen ones).
 */
export function newWorkingPayment(given: PaymentRecord, stored: boolean): WorkingPayment {
  const record = deepFreeze(Object.isFrozen(given) ? given : copyRecord(given));
  return {
    record,
    storedVersion: stored ? record.version : null,
    pendingEvents: [],
    dirty: !stored,
    storedRecord: stored ? record : null,
    commits: 0,
    lastStep: undefined,
    entered: [],
    shown: undefined,
    frozen: record,
    uninspected: [],
    authentication: null,
  };
}

/**
 * Queues a step for the inspector, which is told of it once the working record is stored
 * (`persist`), never before: a step of a write that fails or loses a race is not reported.
 * `started` marks the step that created the payment; `from` is where any other step started.
 */
export function inspectWhenStored(
  ctx: EngineContext,
  working: WorkingPayment,
  event: AnyEventObject,
  step: StepResult,
  started = false,
  from?: LifecycleState,
): void {
  if (ctx.inspection !== undefined) working.uninspected.push({ started, event, step, from });
}

/** Tells the inspector of the steps the write just stored, in the order they were taken. */
function reportStoredSteps(ctx: EngineContext, working: WorkingPayment): void {
  const { inspection } = ctx;
  const steps = working.uninspected;
  working.uninspected = [];
  if (inspection === undefined) return;
  for (const { started, event, step, from } of steps) {
    if (started) inspection.started(working.record.id, event, step);
    else inspection.stepped(working.record.id, event, step, from);
  }
}

/** Changes fields of the working record that the machine does not own (3DS outcome, card summary, …). */
export function patch(working: WorkingPayment, fields: Partial<PaymentRecord>): void {
  working.record = Object.assign(copyRecord(working.record), deepFreeze(fields));
  working.dirty = true;
}

/**
 * The payment as its events carry it, frozen all the way down: as the API shows it, but without a
 * hosted page link made from `pageTokens` (events are stored in the outbox and sent to endpoints).
 */
export function eventView(working: WorkingPayment): Payment {
  const { shown, record } = working;
  if (shown?.record === record) return shown.payment;
  const payment = toPublicPayment(record);
  working.shown = { record, payment };
  return payment;
}

/** The payment as the API shows it now, frozen all the way down: `eventView`, with the hosted page link. */
export function publicView(ctx: EngineContext, working: WorkingPayment): Payment {
  const hostedPageLink = hostedPageLinkOf(ctx);
  return hostedPageLink !== undefined && working.record.state === 'awaiting_card_data'
    ? toPublicPayment(working.record, { hostedPageLink })
    : eventView(working);
}

function lifecycleOf(record: PaymentRecord): LifecycleState {
  return {
    state: record.state,
    context: {
      flow: record.flow,
      createdAt: record.createdAt,
      expiresAt: record.expiresAt,
      failureReason: record.failureReason,
      authorizationStatus: record.authorizationStatus,
      nextInquiryAt: record.nextInquiryAt,
      inquiryAttempts: record.inquiryAttempts,
      notFoundAnswers: record.notFoundAnswers,
    },
  };
}

/** Folds a machine step into the working record and queues the domain events it asked for. */
export function applyStep(ctx: EngineContext, working: WorkingPayment, step: StepResult, at: number): void {
  const { context } = step;
  if (step.state !== working.record.state) working.entered.push(step.state);
  const record = copyRecord(working.record);
  record.state = step.state;
  record.expiresAt = context.expiresAt;
  record.failureReason = context.failureReason;
  record.authorizationStatus = context.authorizationStatus;
  record.nextInquiryAt = context.nextInquiryAt;
  record.inquiryAttempts = context.inquiryAttempts;
  record.notFoundAnswers = context.notFoundAnswers;
  if (!cardholderMustAct(step.state)) record.nextRedirect = null;
  if (step.state === 'succeeded' && working.record.state !== 'succeeded') {
    // Automatic capture is a sale: the whole amount is captured with the authorization.
    if (record.captureMethod === 'automatic') {
      record.captureReserved = record.amount;
      record.amountCaptured = record.amount;
    } else record.authorizationExpiresAt = at + ctx.options.authorizationLifetimeMs;
  }
  record.updatedAt = at;
  working.record = record;
  working.dirty = true;
  working.lastStep = step;
  for (const action of step.actions) {
    if (action.type !== 'emitEvent') continue;
    working.pendingEvents.push(
      Object.freeze({
        id: `evt_${ctx.ports.ids.hex128()}`,
        type: action.event,
        occurredAt: isoTime(at),
        paymentId: working.record.id,
        partnerId: working.record.partnerId,
        profileId: working.record.profileId,
        payment: eventView(working),
      }),
    );
  }
}

/**
 * Steps the machine with an event stamped with the clock port's time; returns the step. The
 * inspector hears of it once a write has stored it.
 */
export function send(
  ctx: EngineContext,
  working: WorkingPayment,
  event: (at: number) => PaymentMachineEvent,
): StepResult {
  const at = ctx.ports.clock.now();
  const machineEvent = event(at);
  const from = lifecycleOf(working.record);
  const step = stepPayment(ctx.machine, from, machineEvent, working.lastStep);
  if (step.changed) applyStep(ctx, working, step, at);
  else working.lastStep = step;
  inspectWhenStored(ctx, working, machineEvent, step, false, from);
  return step;
}

/**
 * Writes the working record and its pending events in one atomic repository call: an insert
 * for a new payment, else an update guarded by the stored version (a concurrent writer makes
 * it fail with `conflict`, and nothing is written).
 *
 * A write that fails may have been stored all the same (its answer lost): it is read back
 * (`wroteAfterAll`), and when that cannot tell, or the write ran out of time, the error is
 * `unavailable` with `outcome: 'unknown'`. Only when the repository said of every attempt that
 * it never reached storage (`notSent`) is the failure a plain `unavailable`, without a read.
 */
export async function persist(ctx: EngineContext, working: WorkingPayment): Outcome<void> {
  const isNew = working.storedVersion === null;
  const version = isNew ? 1 : (working.storedVersion ?? 0) + 1;
  // Frozen all the way down, so that a storage adapter may keep them without copying. The
  // record's objects and the events are frozen already (see `WorkingPayment`): only fields that
  // are not the very objects of the last frozen version are walked, which also freezes anything
  // a port slipped in through the machine where its type promised a string (a decline reason).
  const writeId = `wr_${ctx.ports.ids.hex128()}`;
  const draft = copyRecord(working.record);
  draft.version = version;
  draft.writeId = writeId;
  const record: PaymentRecord = deepFreeze(draft, working.frozen);
  const events = Object.freeze([...working.pendingEvents]);
  const policy = {
    timeoutMs: ctx.options.storageTimeoutMs,
    retries: ctx.options.retries,
    ...traced(ctx, isNew ? 'repository.insert' : 'repository.update', { paymentId: record.id, state: record.state }),
  };
  const { repository } = ctx.ports;
  const write = watchUnsent(() => (isNew ? repository.insert(record, events) : repository.update(record, events)));
  const written = await awaitPort(write.call, policy);
  if (written.isErr() && written.error.kind === 'port' && write.noneSent()) {
    // Every attempt failed before it reached storage (`notSent`: the connection was refused, none
    // could be had in time): nothing was stored, so there is nothing to read back, and the
    // command fails with a plain `unavailable`. The inspector hears nothing of its steps.
    working.uninspected = [];
    return err(toPaymentError('payment storage')(written.error));
  }
  const confirmed = written.isErr() ? await wroteAfterAll(ctx, record) : 'stored';
  if (written.isErr() && confirmed !== 'stored') {
    // Nothing of this write is known stored, so the inspector hears nothing of its steps. When
    // the confirming read failed too, the write may have landed: the error says so (`outcome`).
    // So may a write that timed out: it may still be on its way (a statement queued or running
    // in the database, or waiting for a connection), and land after the read that found nothing.
    working.uninspected = [];
    const failed = toPaymentError('payment storage')(written.error);
    const unknown = (confirmed === 'unknown' || written.error.kind === 'timeout') && failed.code === 'unavailable';
    return err(unknown ? paymentError.unavailable(failed.message, 'unknown') : failed);
  }
  logStateChange(ctx, working, record, isNew);
  recordFinalState(ctx, isNew ? null : (working.storedRecord?.state ?? null), record);
  if (working.shown?.record === working.record) working.shown = { record, payment: working.shown.payment };
  working.record = record;
  working.storedVersion = version;
  working.pendingEvents = [];
  working.entered = [];
  working.dirty = false;
  working.storedRecord = record;
  working.frozen = record;
  working.commits += 1;
  reportStoredSteps(ctx, working);
  return done;
}

/**
 * One line per write that changed the state, once it is stored: a write that loses (a conflict)
 * changed nothing. `via` names the states the command passed through on the way.
 */
function logStateChange(ctx: EngineContext, working: WorkingPayment, record: PaymentRecord, isNew: boolean): void {
  const from = isNew ? null : (working.storedRecord?.state ?? null);
  if ((!isNew && from === record.state) || !logsAt(ctx.logger, 'info')) return;
  const via = working.entered.slice(0, -1);
  ctx.logger.info(
    {
      paymentId: record.id,
      profileId: record.profileId,
      from,
      to: record.state,
      ...(via.length > 0 ? { via } : {}),
      ...(record.failureReason !== null ? { failureReason: record.failureReason } : {}),
    },
    'payment state changed',
  );
}

/**
 * After a failed write: whether it happened after all. A time-out or a lost connection leaves the
 * outcome unknown (the commit may have landed), and a retry of a write that did land fails as a
 * conflict with itself. Reading the payment back tells: this write's `writeId` at its version
 * means it is `stored`, anything else that it is not yet. A read that fails too leaves it
 * `unknown`: the write counts as failed, but it may have landed (as may a timed-out write read
 * back as absent: `persist` says so).
 */
async function wroteAfterAll(ctx: EngineContext, record: PaymentRecord): Promise<'stored' | 'not_stored' | 'unknown'> {
  const stored = await awaitPort(() => ctx.ports.repository.load(record.id), {
    timeoutMs: ctx.options.storageTimeoutMs,
    retries: ctx.options.retries,
    retryTimeouts: true,
    ...traced(ctx, 'repository.load', { paymentId: record.id, confirming: record.writeId }),
  });
  if (stored.isErr()) return 'unknown';
  const landed = stored.value?.version === record.version && stored.value.writeId === record.writeId;
  if (landed) ctx.logger.warn({ paymentId: record.id, version: record.version }, 'write reported failed but stored');
  return landed ? 'stored' : 'not_stored';
}
