import { err, ok } from 'neverthrow';
import type { OperationKind, PublicOperation } from '../domain/money-operation.js';
import { paymentError } from '../errors/payment-error.js';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import { isOperationId, toPublicOperation } from './operation-lifecycle.js';
import { loadTargetPayment, type OperationTarget } from './operation-command.js';
import { loadOperation } from './operation-writes.js';
import type { Outcome } from './outcome.js';
import { awaitPort, toPaymentError } from './run-port.js';

/** What `getCapture` / `getRefund` read: one operation of a payment of the profile. */
export interface GetOperationQuery extends OperationTarget {
  /** The capture's or refund's id; one of another kind or payment is `not_found`. */
  readonly operationId: string;
}

/** What `listCaptures` / `listRefunds` read: one page of a payment's operations, oldest first. */
export interface ListOperationsQuery extends OperationTarget {
  /** 1..100, default 20. */
  readonly limit?: number;
  /** An operation of this list (`next_cursor` of a page); anything else is `validation_failed` (`after`). */
  readonly after?: string;
}

/** A page of captures or refunds, oldest first. */
export interface OperationList {
  readonly items: readonly PublicOperation[];
  /** Pass as `after` for the next page; absent on the last page. */
  readonly next_cursor?: string;
}

const NOT_FOUND = { capture: 'Capture', cancel: 'Cancel', refund: 'Refund' } as const;

/** One capture or refund; `not_found` for another profile's payment, or another payment's operation. */
export async function getOperation(
  ctx: EngineContext,
  kind: OperationKind,
  query: GetOperationQuery,
): Outcome<PublicOperation> {
  const payment = await loadTargetPayment(ctx, query);
  if (payment.isErr()) return err(payment.error);
  if (!isOperationId(kind, query.operationId)) return err(paymentError.notFound(NOT_FOUND[kind]));
  const found = await loadOperation(ctx, query.operationId);
  if (found.isErr()) return err(found.error);
  const operation = found.value;
  return operation === null || operation.kind !== kind || operation.paymentId !== payment.value.id
    ? err(paymentError.notFound(NOT_FOUND[kind]))
    : ok(toPublicOperation(operation));
}

/** A page of a payment's captures or refunds, oldest first. */
export async function listOperations(
  ctx: EngineContext,
  kind: OperationKind,
  query: ListOperationsQuery,
): Outcome<OperationList> {
  const limit = query.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return err(paymentError.validation([{ path: 'limit', message: 'Must be an integer from 1 to 100' }]));
  }
  const payment = await loadTargetPayment(ctx, query);
  if (payment.isErr()) return err(payment.error);
  const unknownCursor = paymentError.validation([{ path: 'after', message: `Must be a ${kind} of this payment` }]);
  if (query.after !== undefined) {
    if (!isOperationId(kind, query.after)) return err(unknownCursor);
    const cursor = await loadOperation(ctx, query.after);
    if (cursor.isErr()) return err(cursor.error);
    if (cursor.value === null || cursor.value.kind !== kind || cursor.value.paymentId !== payment.value.id) {
      return err(unknownCursor);
    }
  }
  const page = await awaitPort(
    () =>
      ctx.ports.repository.listOperations({
        paymentId: payment.value.id,
        kind,
        limit,
        ...(query.after !== undefined && { after: query.after }),
      }),
    {
      timeoutMs: ctx.options.storageTimeoutMs,
      retries: ctx.options.retries,
      retryTimeouts: true,
      ...traced(ctx, 'repository.listOperations', { paymentId: payment.value.id }),
    },
  );
  if (page.isErr()) return err(toPaymentError('payment storage')(page.error));
  return ok(
    Object.freeze({
      items: Object.freeze(page.value.items.map(toPublicOperation)),
      ...(page.value.nextCursor !== null && { next_cursor: page.value.nextCursor }),
    }),
  );
}
