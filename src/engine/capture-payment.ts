import { err, ok } from 'neverthrow';
import { amountCapturable } from '../domain/money-counters.js';
import type { Capture } from '../domain/money-operation.js';
import { paymentError } from '../errors/payment-error.js';
import { captureRequestSchema, parseOperationRequest } from '../schemas/operation-requests.js';
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

/** Captures (part of) a succeeded manual payment (docs/http-api.md, Captures). */
export interface CapturePaymentCommand extends OperationTarget {
  /**
   * The capture's id (`capture_` + 32 hex), reserved by the caller (`newOperationId('capture')`) so
   * that a retry answers the same capture; default a new one. The acquirer hears of it once.
   */
  readonly captureId?: string;
  /** `{ amount?, final? }`: `amount` defaults to all that is capturable, `final` to true. */
  readonly body?: unknown;
}

/**
 * Stores the capture `processing` with the reservation, then asks the acquirer; answers the
 * capture as it then stands (`processing` when the outcome is unknown: the sweeper inquires).
 */
export async function capturePayment(ctx: EngineContext, command: CapturePaymentCommand): Outcome<Capture> {
  const badId = checkOperationId('capture', 'captureId', command.captureId);
  if (badId !== null) return err(badId);
  const body = parseOperationRequest(captureRequestSchema, command.body);
  if (body.isErr()) return err(paymentError.validation(body.error));
  const loaded = await loadTargetPayment(ctx, command);
  if (loaded.isErr()) return err(loaded.error);
  const id = command.captureId ?? `capture_${ctx.ports.ids.hex128()}`;
  if (command.captureId !== undefined) {
    const found = await existingOperation(ctx, 'capture', id, loaded.value.id);
    if (found.isErr()) return err(found.error);
    if (found.value !== null) return ok(toPublicOperation(found.value));
  }
  const { amount, final = true } = body.value;
  const done = await runNewOperation(ctx, 'capture', id, loaded.value, (payment) => {
    const capturable = amountCapturable(payment);
    if (capturable === 0) {
      return err(
        paymentError.refused(
          'payment_not_capturable',
          'Only a succeeded manual payment with an amount left to capture can be captured',
        ),
      );
    }
    if (amount !== undefined && amount > capturable) {
      return err(paymentError.refused('amount_exceeds_capturable', `At most ${capturable} can be captured`));
    }
    return ok({ amount: amount ?? capturable, final, reference: null, description: null });
  });
  return done.isErr() ? err(done.error) : ok(toPublicOperation(done.value));
}
