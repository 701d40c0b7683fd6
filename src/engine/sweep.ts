import * as Effect from 'effect/Effect';
import type { PaymentRecord } from '../domain/payment-record.js';
import type { PaymentError } from '../errors/payment-error.js';
import type { InquiryAnswer } from '../machine/payment-machine-events.js';
import type { InquiryOutcome } from '../ports/acquirer.js';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import { describeDefect } from './describe-defect.js';
import { authorizationRecordOf, dropCard } from './drive-payment.js';
import { fromOutcome } from './outcome.js';
import { sweepMoney } from './sweep-operations.js';
import { purgeCardVault } from './purge-card-vault.js';
import { checkInquiryOutcome, logMalformedAnswer } from './port-answers.js';
import { callPort, toPaymentError } from './run-port.js';
import { newWorkingPayment, patch, persist, send } from './working-payment.js';

/** What one sweeper tick did. */
export interface SweepReport {
  readonly expired: number;
  readonly reconciled: number;
  /** Inquiries that got no final answer yet (asked again later, with back-off). */
  readonly stillUnknown: number;
  /** Payments another writer changed first (handled by them). */
  readonly conflicts: number;
  /**
   * Payments that could not be handled (storage unavailable, an adapter that threw): tried again
   * at the next batch, then set aside with a back-off while they keep failing (`SweepSetAside`).
   */
  readonly errors: number;
}

type Handled = 'expired' | 'reconciled' | 'stillUnknown' | 'conflicts' | 'errors' | 'skipped';

function answerOf(outcome: InquiryOutcome): InquiryAnswer {
  switch (outcome.kind) {
    case 'approved':
      return { kind: 'approved' };
    case 'declined':
      return { kind: 'declined', reason: outcome.reason };
    case 'not_found':
      return { kind: 'not_found' };
    case 'unknown':
      return { kind: 'pending' };
  }
}

/** A malformed answer to `inquire` is a failed inquiry: the payment is asked again on the schedule. */
const MALFORMED_INQUIRY: InquiryOutcome = Object.freeze({ kind: 'unknown', detail: 'malformed inquiry answer' });

/** The acquirer's answer to `inquire` as the sweeper goes on with it (`checkInquiryOutcome`). */
function checkedInquiry(ctx: EngineContext, paymentId: string, answer: InquiryOutcome): InquiryOutcome {
  const checked = checkInquiryOutcome(answer);
  if (checked.isOk()) return checked.value;
  logMalformedAnswer(
    ctx,
    'acquirer.inquire',
    paymentId,
    checked.error,
    'acquirer answered a malformed inquiry outcome; taken as a failed inquiry (asked again later)',
  );
  return MALFORMED_INQUIRY;
}

function expire(ctx: EngineContext, record: PaymentRecord): Effect.Effect<Handled, PaymentError> {
  const working = newWorkingPayment(record, true);
  send(ctx, working, (at) => ({ type: 'expiry.due', at }));
  if (!working.dirty) return Effect.succeed('skipped');
  return fromOutcome(() => persist(ctx, working)).pipe(
    Effect.zipRight(
      record.state === 'awaiting_challenge' ? Effect.promise(() => dropCard(ctx, record.id)) : Effect.void,
    ),
    Effect.as<Handled>('expired'),
  );
}

/**
 * Asks the acquirer what became of an authorization; never authorizes again. An inquiry that fails,
 * throws or answers something malformed is asked again later, on the schedule. First it keeps its
 * claim on the payment for as long as the inquiry and the write after it may take (`holdClaim`,
 * `claimHoldMs`), so that no other instance asks too while this one waits: when another instance
 * has claimed or changed the payment since `findDue`, it leaves it to that one (a conflict).
 */
function reconcile(
  ctx: EngineContext,
  record: PaymentRecord,
  stopRequested: () => boolean,
): Effect.Effect<Handled, PaymentError> {
  return Effect.gen(function* () {
    if (!(yield* holdClaim(ctx, record))) return 'conflicts';
    if (stopRequested()) return 'skipped';
    const outcome = yield* callPort(() => ctx.ports.acquirer.inquire({ paymentId: record.id }), {
      ...traced(ctx, 'acquirer.inquire', { paymentId: record.id }),
      timeoutMs: ctx.options.acquirerTimeoutMs,
      retries: ctx.options.retries,
      retryTimeouts: true,
    }).pipe(
      Effect.map((answer) => checkedInquiry(ctx, record.id, answer)),
      Effect.catchAll(() => Effect.succeed<InquiryOutcome>({ kind: 'unknown', detail: 'inquiry failed' })),
      // An adapter that throws or rejects for this payment is a failed inquiry too: the payment is
      // asked again later, with back-off. Left as it was stored, it stayed due and headed every
      // batch, and once `batchSize` such payments had gathered no other inquiry was ever made.
      Effect.catchAllDefect((defect) =>
        Effect.sync((): InquiryOutcome => {
          ctx.logger.error(
            { paymentId: record.id, cause: describeDefect(defect) },
            'acquirer inquiry threw; the payment is asked again later',
          );
          return { kind: 'unknown', detail: 'inquiry threw' };
        }),
      ),
    );
    const working = newWorkingPayment(record, true);
    if (outcome.kind === 'approved') {
      patch(working, {
        authorization: authorizationRecordOf(outcome),
      });
    }
    send(ctx, working, (at) => ({ type: 'inquiry.answered', at, outcome: answerOf(outcome) }));
    yield* fromOutcome(() => persist(ctx, working));
    return working.record.state === 'authorizing' ? 'stillUnknown' : 'reconciled';
  });
}

/** Keeps this instance's claim on a payment for `claimHoldMs`, when the repository leases claims. */
function holdClaim(ctx: EngineContext, record: PaymentRecord): Effect.Effect<boolean, PaymentError> {
  const { repository } = ctx.ports;
  const hold = repository.holdClaim;
  if (hold === undefined) return Effect.succeed(true);
  const forMs = ctx.options.claimHoldMs;
  return callPort(() => hold.call(repository, { paymentId: record.id, version: record.version, forMs }), {
    ...traced(ctx, 'repository.holdClaim', { paymentId: record.id, forMs }),
    timeoutMs: ctx.options.storageTimeoutMs,
    retries: ctx.options.retries,
    retryTimeouts: true,
  }).pipe(Effect.mapError(toPaymentError('payment storage')));
}

/** One sweeper batch and whether it was full (more may be due). */
export interface SweepBatch {
  readonly report: SweepReport;
  readonly full: boolean;
}

/**
 * One sweeper batch: expires what is due (hosted page and challenge deadlines, by the clock
 * port) and re-inquires authorizations whose outcome is unknown, at most `batchSize` of each.
 * Safe to run from several instances at once: every change is a versioned write, and a lost
 * race is counted, not failed. Once `stopRequested` says so, payments not yet started are left
 * for later (they stay due, and claimed by this instance until the claim lapses); those under way
 * are finished, unless `ctx.abandon` is aborted: then none of their port calls makes another
 * attempt (a retry, the load that confirms a failed write, dropping the card), and the batch is
 * interrupted. Payments set aside after failing (`EngineContext.setAside`) are passed by, and so
 * are those in `tick`, the payments earlier batches of the same background tick handled: a
 * payment due again at once (an inquiry delay shorter than a batch) waits for the next tick
 * instead of being asked again and again while the tick drains.
 */
export function sweepBatch(
  ctx: EngineContext,
  stopRequested: () => boolean = () => false,
  tick?: Set<string>,
): Effect.Effect<SweepBatch, PaymentError> {
  return Effect.gen(function* () {
    const limit = ctx.options.batchSize;
    const { setAside } = ctx;
    const now = ctx.ports.clock.now();
    // Payments set aside may head what is due: reading as many more finds the others.
    const asked = limit + setAside.waitingCount(now);
    const due = yield* callPort(() => ctx.ports.repository.findDue({ now, limit: asked }), {
      ...(ctx.abandon !== undefined ? { abandon: ctx.abandon } : {}),
      timeoutMs: ctx.options.storageTimeoutMs,
      retries: ctx.options.retries,
      retryTimeouts: true,
    }).pipe(Effect.mapError(toPaymentError('payment storage')));
    const open = (record: PaymentRecord) => !setAside.waiting(record.id, now) && tick?.has(record.id) !== true;
    const expiries = due.expiries.filter(open).slice(0, limit);
    const inquiries = due.inquiries.filter(open).slice(0, limit);
    /** Counts a failure of the payment (`SweepSetAside`); for its log line, how long it is set aside, if it is. */
    const setAsideAfterFailure = (record: PaymentRecord): { setAsideMs?: number } => {
      const at = ctx.ports.clock.now();
      const setAsideMs = setAside.failed(record.id, at) - at;
      return setAsideMs > 0 ? { setAsideMs } : {};
    };
    const work = [
      ...expiries.map((record) => [record, () => expire(ctx, record)] as const),
      ...inquiries.map((record) => [record, () => reconcile(ctx, record, stopRequested)] as const),
    ].map(([record, handle]) => {
      tick?.add(record.id);
      return Effect.suspend(() => (stopRequested() ? Effect.succeed<Handled>('skipped') : handle())).pipe(
        Effect.tap((handled) =>
          Effect.sync(() => {
            if (handled !== 'skipped') setAside.handled(record.id);
          }),
        ),
        Effect.catchAll((error) =>
          // A write the background worker's stop abandoned (`ctx.abandon`) failed for that: the
          // tick is being abandoned, which the worker logs once.
          ctx.abandon?.aborted === true
            ? Effect.interrupt
            : Effect.sync((): Handled => {
                if (error.code === 'conflict') {
                  setAside.handled(record.id);
                  return 'conflicts';
                }
                ctx.logger.warn(
                  { paymentId: record.id, code: error.code, ...setAsideAfterFailure(record) },
                  'sweeper could not handle a payment',
                );
                return 'errors';
              }),
        ),
        // An adapter that throws for one payment is that payment's error: the others of the
        // batch, and later batches, go on (it would otherwise fail every batch it heads). An
        // acquirer inquiry that throws is backed off in the record (`reconcile`); a payment whose
        // write or claim keeps failing or throwing is set aside (`SweepSetAside`): either way it
        // no longer heads every batch.
        Effect.catchAllDefect((defect) =>
          Effect.sync((): Handled => {
            ctx.logger.error(
              { paymentId: record.id, cause: describeDefect(defect), ...setAsideAfterFailure(record) },
              'sweeper could not handle a payment: adapter defect',
            );
            return 'errors';
          }),
        ),
      );
    });
    const results = yield* Effect.all(work, { concurrency: ctx.options.sweepConcurrency });
    const count = (kind: Handled) => results.filter((result) => result === kind).length;
    // Captures, cancels and refunds with unknown outcomes, and manual authorizations due to lapse.
    const money = yield* fromOutcome(() => sweepMoney(ctx, (due.authorizationExpiries ?? []).slice(0, limit)));
    const report: SweepReport = {
      expired: count('expired') + money.expired,
      reconciled: count('reconciled') + money.reconciled,
      stillUnknown: count('stillUnknown') + money.stillUnknown,
      conflicts: count('conflicts') + money.conflicts,
      errors: count('errors') + money.errors,
    };
    return { report, full: due.expiries.length >= asked || due.inquiries.length >= asked };
  });
}

/** One sweeper batch (see `sweepBatch`), then the vault's expired cards (`purgeCardVault`); the engine's public `sweep`. */
export function sweep(ctx: EngineContext): Effect.Effect<SweepReport, PaymentError> {
  return Effect.map(sweepBatch(ctx), (batch) => batch.report).pipe(Effect.tap(() => purgeCardVault(ctx)));
}

export const emptySweepReport: SweepReport = { expired: 0, reconciled: 0, stillUnknown: 0, conflicts: 0, errors: 0 };

export function addSweepReports(a: SweepReport, b: SweepReport): SweepReport {
  return {
    expired: a.expired + b.expired,
    reconciled: a.reconciled + b.reconciled,
    stillUnknown: a.stillUnknown + b.stillUnknown,
    conflicts: a.conflicts + b.conflicts,
    errors: a.errors + b.errors,
  };
}
