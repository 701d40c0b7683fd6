import { Effect } from 'effect';
import { summarizeCard } from '../domain/card.js';
import type { PaymentError } from '../errors/payment-error.js';
import { paymentError } from '../errors/payment-error.js';
import { parseCardSubmission } from '../schemas/index.js';
import { constantTimeEqual } from './constant-time-equal.js';
import { drive } from './drive-payment.js';
import type { EngineContext } from './engine-context.js';
import { loadPayment } from './load-payment.js';
import type { WorkingPayment } from './working-payment.js';
import { newWorkingPayment, patch, persist, send } from './working-payment.js';

export interface SubmitCardCommand {
  readonly paymentId: string;
  /** The secret token of the hosted page URL. */
  readonly token: string;
  /** `{ creditcard: {...}, user: {...} }` as the hosted page posts it; validated here. */
  readonly body: unknown;
}

/**
 * The cardholder submitted card data on the hosted page: run 3DS and, when no challenge is
 * needed, the authorization. A second submit finds the payment no longer awaiting card data.
 */
export function submitCard(
  ctx: EngineContext,
  command: SubmitCardCommand,
): Effect.Effect<WorkingPayment, PaymentError> {
  return Effect.gen(function* () {
    const record = yield* loadPayment(ctx, command.paymentId);
    if (record.hostedToken === null || !constantTimeEqual(record.hostedToken, command.token)) {
      return yield* Effect.fail(paymentError.notFound('Payment'));
    }
    if (record.state !== 'awaiting_card_data') {
      return yield* Effect.fail(paymentError.invalidState(record.state, 'submit card data'));
    }
    const parsed = parseCardSubmission(command.body, { now: ctx.ports.clock.now() });
    if (parsed.isErr()) return yield* Effect.fail(paymentError.validation(parsed.error));
    const { card, browser } = parsed.value;

    const working = newWorkingPayment(record, true);
    const step = send(ctx, working, (at) => ({ type: 'card.submitted', at }));
    if (working.record.state === 'expired') {
      yield* persist(ctx, working);
      return working;
    }
    patch(working, { card: summarizeCard(card), browser });
    return yield* drive(ctx, working, step.actions, card);
  });
}
