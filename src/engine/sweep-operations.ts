import { err, ok } from 'neverthrow';
import type { OperationRecord } from '../domain/money-operation.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import { copyRecord } from '../domain/payment-record.js';
import { deepFreeze } from '../domain/immutable.js';
import { stepOperation } from '../machine/operation-machine.js';
import type { OperationInquiryOutcome } from '../ports/acquirer.js';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import { describeDefect } from './describe-defect.js';
import { lifecycleOf, operationEvent } from './operation-lifecycle.js';
import { checkOperationAnswer, storeStep } from './operation-writes.js';
import type { Outcome } from './outcome.js';
import { awaitPort, toPaymentError } from './run-port.js';

/** What the sweeper did with money operations and open authorizations in one batch. */
export interface MoneySweepReport {
  /** Manual authorizations released at `authorizationExpiresAt`. */
  readonly expired: number;
  /** Operations whose unknown outcome an inquiry settled. */
  readonly reconciled: number;
  readonly stillUnknown: number;
  readonly conflicts: number;
  readonly errors: number;
}

type Handled = keyof MoneySweepReport;

/** Releases the uncaptured rest of a manual authorization whose time is up (`payment.authorization_expired`). */
async function expireAuthorization(ctx: EngineContext, record: PaymentRecord): Outcome<Handled> {
  const at = ctx.ports.clock.now();
  const draft = copyRecord(record);
  draft.captureClosedBy = 'expiry';
  draft.updatedAt = at;
  draft.version = record.version + 1;
  draft.writeId = `wr_${ctx.ports.ids.hex128()}`;
  const next = deepFreeze(draft);
  const event = operationEvent(ctx, 'payment.authorization_expired', next, null, at);
  const written = await awaitPort(() => ctx.ports.repository.update(next, [event]), {
    timeoutMs: ctx.options.storageTimeoutMs,
    ...traced(ctx, 'repository.update', { paymentId: record.id }),
  });
  if (written.isOk()) return ok('expired');
  if (written.error.kind === 'port' && written.error.error.code === 'conflict') return ok('conflicts');
  return err(toPaymentError('payment storage')(written.error));
}

/** Asks the acquirer what became of an operation whose outcome is unknown, and stores the answer. */
async function reconcileOperation(ctx: EngineContext, operation: OperationRecord): Outcome<Handled> {
  const { acquirer } = ctx.ports;
  const request = { operationId: operation.id, paymentId: operation.paymentId };
  const answer = await awaitPort<OperationInquiryOutcome, { code: 'unavailable'; message: string; retryable: boolean }>(
    () =>
      operation.kind === 'capture'
        ? acquirer.inquireCapture(request)
        : operation.kind === 'cancel'
          ? acquirer.inquireCancel(request)
          : acquirer.inquireRefund(request),
    {
      timeoutMs: ctx.options.acquirerTimeoutMs,
      retries: ctx.options.retries,
      ...traced(ctx, `acquirer.inquire_${operation.kind}`, { operationId: operation.id }),
    },
  );
  const checked = answer.isOk() ? checkOperationAnswer(ctx, operation.id, answer.value) : null;
  const at = ctx.ports.clock.now();
  const step = stepOperation(ctx.operationMachines[operation.kind], lifecycleOf(operation), {
    type: 'inquiry.answered',
    at,
    outcome: checked ?? { kind: 'pending' },
  });
  const stored = await storeStep(ctx, operation, step, at);
  if (stored.isErr()) return err(stored.error);
  return ok(stored.value.state === 'processing' ? 'stillUnknown' : 'reconciled');
}

/**
 * The money part of a sweeper batch: releases the due manual authorizations (`expiries`, from
 * `findDue`) and inquires about the due operations (`findDueOperations`), one at a time. A
 * failure is counted and logged, and the item is due again at the next batch.
 */
export async function sweepMoney(ctx: EngineContext, expiries: readonly PaymentRecord[]): Outcome<MoneySweepReport> {
  const counts: Record<Handled, number> = { expired: 0, reconciled: 0, stillUnknown: 0, conflicts: 0, errors: 0 };
  const handle = async (id: string, run: () => Outcome<Handled>): Promise<void> => {
    try {
      const handled = await run();
      if (handled.isOk()) counts[handled.value] += 1;
      else if (handled.error.code === 'conflict') counts.conflicts += 1;
      else {
        counts.errors += 1;
        ctx.logger.warn({ id, code: handled.error.code }, 'sweeper could not handle a money operation');
      }
    } catch (defect) {
      counts.errors += 1;
      ctx.logger.error(
        { id, cause: describeDefect(defect) },
        'sweeper could not handle a money operation: adapter defect',
      );
    }
  };
  for (const record of expiries) await handle(record.id, () => expireAuthorization(ctx, record));
  const now = ctx.ports.clock.now();
  const due = await awaitPort(() => ctx.ports.repository.findDueOperations({ now, limit: ctx.options.batchSize }), {
    timeoutMs: ctx.options.storageTimeoutMs,
    retries: ctx.options.retries,
    retryTimeouts: true,
  });
  if (due.isErr()) return err(toPaymentError('payment storage')(due.error));
  for (const operation of due.value) await handle(operation.id, () => reconcileOperation(ctx, operation));
  return ok(counts);
}
