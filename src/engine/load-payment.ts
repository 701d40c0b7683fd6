import { err, ok } from 'neverthrow';
import type { PaymentRecord } from '../domain/payment-record.js';
import { paymentError } from '../errors/payment-error.js';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import type { Outcome } from './outcome.js';
import { awaitPort, toPaymentError } from './run-port.js';

const PAYMENT_ID = /^payment_[0-9a-f]{32}$/;

export function isPaymentId(id: string): boolean {
  return PAYMENT_ID.test(id);
}

/** Loads a payment, or fails with `not_found` (also for ids that cannot exist). */
export async function loadPayment(ctx: EngineContext, id: string): Outcome<PaymentRecord> {
  if (!isPaymentId(id)) return err(paymentError.notFound('Payment'));
  const loaded = await awaitPort(() => ctx.ports.repository.load(id), {
    ...traced(ctx, 'repository.load', { paymentId: id }),
    timeoutMs: ctx.options.storageTimeoutMs,
    retries: ctx.options.retries,
    retryTimeouts: true,
  });
  if (loaded.isErr()) return err(toPaymentError('payment storage')(loaded.error));
  return loaded.value === null ? err(paymentError.notFound('Payment')) : ok(loaded.value);
}
