import { Effect } from 'effect';
import type { Payment } from '../domain/payment.js';
import type { PaymentError } from '../errors/payment-error.js';
import { paymentError } from '../errors/payment-error.js';
import type { EngineContext } from './engine-context.js';
import { isPaymentId, loadPayment } from './load-payment.js';
import { callPort, toPaymentError } from './run-port.js';
import { toPublicPayment } from './to-public-payment.js';

export interface GetPaymentQuery {
  readonly paymentId: string;
  readonly profileId: string;
  /** When given (the `_links.self` path), the payment must also belong to this partner. */
  readonly partnerId?: string;
}

export interface ListPaymentsQuery {
  readonly profileId: string;
  /** 1..100, default 20. */
  readonly limit?: number;
  /** A payment id: returns the payments created before it. */
  readonly after?: string;
}

export interface PaymentList {
  readonly items: readonly Payment[];
  /** Pass as `after` for the next page; absent on the last page. */
  readonly next_cursor?: string;
}

/** A payment of another profile or partner is `not_found`: its existence is never revealed. */
export function getPayment(ctx: EngineContext, query: GetPaymentQuery): Effect.Effect<Payment, PaymentError> {
  return loadPayment(ctx, query.paymentId).pipe(
    Effect.flatMap((record) =>
      record.profileId !== query.profileId || (query.partnerId !== undefined && record.partnerId !== query.partnerId)
        ? Effect.fail(paymentError.notFound('Payment'))
        : Effect.succeed(toPublicPayment(record)),
    ),
  );
}

export function listPayments(ctx: EngineContext, query: ListPaymentsQuery): Effect.Effect<PaymentList, PaymentError> {
  const limit = query.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return Effect.fail(paymentError.validation([{ path: 'limit', message: 'Must be an integer from 1 to 100' }]));
  }
  if (query.after !== undefined && !isPaymentId(query.after)) {
    return Effect.fail(paymentError.validation([{ path: 'after', message: 'Must be a payment id' }]));
  }
  return callPort(
    () =>
      ctx.ports.repository.list({
        profileId: query.profileId,
        limit,
        ...(query.after !== undefined ? { after: query.after } : {}),
      }),
    { timeoutMs: ctx.options.storageTimeoutMs, retries: ctx.options.retries, retryTimeouts: true },
  ).pipe(
    Effect.mapError(toPaymentError('payment storage')),
    Effect.map((page) => ({
      items: page.items.map(toPublicPayment),
      ...(page.nextCursor !== null ? { next_cursor: page.nextCursor } : {}),
    })),
  );
}
