import { err, ok } from 'neverthrow';
import { amountRefundable } from '../domain/money-counters.js';
import type { Refund } from '../domain/money-operation.js';
import { paymentError } from '../errors/payment-error.js';
import { parseOperationRequest, refundRequestSchema } from '../schemas/operation-requests.js';
import type { EngineContext } from './engine-context.js';
import { toPublicOperation } from './operation-lifecycle.js';
import {
  checkOperationId,
  existingOperation,
  loadTargetPayment,
  runNewOperation,
  type OperationTarget,
} from './operation-command.js';
import type { Outcome } from './outcome.js';

/** Refunds (part of) what a succeeded payment captured (docs/http-api.md, Captures). */
export interface RefundPaymentCommand extends OperationTarget {
  /** The refund's id (`refund_` + 32 hex), reserved by the caller so a retry answers the same refund; default a new one. */
  readonly refundId?: string;
  /** `{ amount?, reference?, description? }`: `amount` defaults to all that is refundable. */
  readonly body?: unknown;
}

/**
 * Stores the refund `processing` with its reservation (refunds not failed never above
 * `amount_captured`, held by the repository's versioned write), then asks the acquirer once.
 */
export async function refundPayment(ctx: EngineContext, command: RefundPaymentCommand): Outcome<Refund> {
  const badId = checkOperationId('refund', 'refundId', command.refundId);
  if (badId !== null) return err(badId);
  const body = parseOperationRequest(refundRequestSchema, command.body);
  if (body.isErr()) return err(paymentError.validation(body.error));
  const loaded = await loadTargetPayment(ctx, command);
  if (loaded.isErr()) return err(loaded.error);
  const id = command.refundId ?? `refund_${ctx.ports.ids.hex128()}`;
  if (command.refundId !== undefined) {
    const found = await existingOperation(ctx, 'refund', id, loaded.value.id);
    if (found.isErr()) return err(found.error);
    if (found.value !== null) return ok(toPublicOperation(found.value));
  }
  const { amount, reference, description } = body.value;
  const done = await runNewOperation(ctx, 'refund', id, loaded.value, (payment) => {
    const refundable = amountRefundable(payment);
    if (refundable === 0) {
      return err(paymentError.refused('payment_not_refundable', 'The payment has no captured amount left to refund'));
    }
    if (amount !== undefined && amount > refundable) {
      return err(paymentError.refused('amount_exceeds_refundable', `At most ${refundable} can be refunded`));
    }
    return ok({
      amount: amount ?? refundable,
      final: true,
      reference: reference ?? null,
      description: description ?? null,
    });
  });
  return done.isErr() ? err(done.error) : ok(toPublicOperation(done.value));
}
