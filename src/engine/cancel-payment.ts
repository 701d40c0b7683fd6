import { err, ok } from 'neverthrow';
import { amountCapturable } from '../domain/money-counters.js';
import type { Payment } from '../domain/payment.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import { paymentError } from '../errors/payment-error.js';
import { cardholderMustAct } from '../machine/public-state.js';
import { dropCard } from './drive-payment.js';
import type { EngineContext } from './engine-context.js';
import {
  checkOperationId,
  existingOperation,
  loadTargetPayment,
  runNewOperation,
  type OperationTarget,
} from './operation-command.js';
import { loadPaymentRecord } from './operation-writes.js';
import type { Outcome } from './outcome.js';
import { hostedPageLinkOf } from './page-link.js';
import { toPublicPayment } from './to-public-payment.js';
import { newWorkingPayment, persist, send } from './working-payment.js';

/** Cancels a payment (docs/http-api.md, Captures). */
export interface CancelPaymentCommand extends OperationTarget {
  /**
   * The cancel's id (`cancel_` + 32 hex), reserved by the caller so that a retry answers the
   * same cancel; default a new one. The acquirer hears of it once.
   */
  readonly cancelId?: string;
}

const NOT_CANCELABLE =
  'Only a manual payment with an amount left to capture, or one waiting for the cardholder, can be canceled';
const MAX_ATTEMPTS = 8;

function shown(ctx: EngineContext, record: PaymentRecord): Payment {
  const hostedPageLink = hostedPageLinkOf(ctx);
  return toPublicPayment(record, hostedPageLink === undefined ? {} : { hostedPageLink });
}

/**
 * A payment still waiting for the cardholder becomes `failed` / `canceled` (no acquirer is
 * involved); a manual payment with an amount left to capture has it voided by the acquirer (a
 * cancel operation, stored `processing` first). Answers the payment as it then stands.
 */
export async function cancelPayment(ctx: EngineContext, command: CancelPaymentCommand): Outcome<Payment> {
  const badId = checkOperationId('cancel', 'cancelId', command.cancelId);
  if (badId !== null) return err(badId);
  const loaded = await loadTargetPayment(ctx, command);
  if (loaded.isErr()) return err(loaded.error);
  let payment = loaded.value;
  const id = command.cancelId ?? `cancel_${ctx.ports.ids.hex128()}`;
  if (command.cancelId !== undefined) {
    const found = await existingOperation(ctx, 'cancel', id, payment.id);
    if (found.isErr()) return err(found.error);
    if (found.value !== null) return ok(shown(ctx, payment));
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    if (cardholderMustAct(payment.state)) {
      const working = newWorkingPayment(payment, true);
      const step = send(ctx, working, (at) => ({ type: 'cancel.requested', at }));
      if (!step.changed) return err(paymentError.refused('payment_not_cancelable', NOT_CANCELABLE));
      const stored = await persist(ctx, working);
      if (stored.isOk()) {
        // A challenge held the card in the vault for the authorization that now never comes.
        if (payment.state === 'awaiting_challenge') await dropCard(ctx, payment.id);
        return ok(shown(ctx, working.record));
      }
      if (stored.error.code !== 'conflict') return err(stored.error);
    } else {
      if (amountCapturable(payment) === 0) return err(paymentError.refused('payment_not_cancelable', NOT_CANCELABLE));
      const done = await runNewOperation(ctx, 'cancel', id, payment, (current) => {
        const left = amountCapturable(current);
        return left === 0
          ? err(paymentError.refused('payment_not_cancelable', NOT_CANCELABLE))
          : ok({ amount: left, final: true, reference: null, description: null });
      });
      if (done.isErr()) return err(done.error);
      const after = await loadPaymentRecord(ctx, payment.id);
      if (after.isErr()) return err(after.error);
      return after.value === null ? err(paymentError.notFound('Payment')) : ok(shown(ctx, after.value));
    }
    const reloaded = await loadPaymentRecord(ctx, payment.id);
    if (reloaded.isErr()) return err(reloaded.error);
    if (reloaded.value === null) return err(paymentError.notFound('Payment'));
    payment = reloaded.value;
  }
  return err(paymentError.conflict());
}
