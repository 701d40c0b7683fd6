import { Effect } from 'effect';
import type { PaymentRecord } from '../domain/payment-record.js';
import type { PaymentError } from '../errors/payment-error.js';
import { paymentError } from '../errors/payment-error.js';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import { callPort, toPaymentError } from './run-port.js';

const PAYMENT_ID = /^payment_[0-9a-f]{32}$/;

export function isPaymentId(id: string): boolean {
  return PAYMENT_ID.test(id);
}

/** Loads a payment, or fails with `not_found` (also for ids that cannot exist). */
export function loadPayment(ctx: EngineContext, id: string): Effect.Effect<PaymentRecord, PaymentError> {
  if (!isPaymentId(id)) return Effect.fail(paymentError.notFound('Payment'));
  return callPort(() => ctx.ports.repository.load(id), {
    ...traced(ctx, 'repository.load', { paymentId: id }),
    timeoutMs: ctx.options.storageTimeoutMs,
    retries: ctx.options.retries,
    retryTimeouts: true,
  }).pipe(
    Effect.mapError(toPaymentError('payment storage')),
    Effect.flatMap((record) =>
      record === null ? Effect.fail(paymentError.notFound('Payment')) : Effect.succeed(record),
    ),
  );
}
