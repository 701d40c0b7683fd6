import { err, ok } from 'neverthrow';
import { summarizeCard } from '../domain/card.js';
import { paymentError } from '../errors/payment-error.js';
import { parseCardSubmission } from '../schemas/index.js';
import { drive } from './drive-payment.js';
import type { EngineContext } from './engine-context.js';
import type { Outcome } from './outcome.js';
import { loadHostedPage } from './page-link.js';
import type { WorkingPayment } from './working-payment.js';
import { newWorkingPayment, patch, persist, send } from './working-payment.js';

/** What `submitCard` needs: the payment, the hosted page's token and the posted form. */
export interface SubmitCardCommand {
  /** The payment awaiting card data. */
  readonly paymentId: string;
  /**
   * The token of the hosted page URL. A wrong one is `not_found`, as is a payment final for
   * longer than `hostedPageLinkGraceMs` (its link has lapsed).
   */
  readonly token: string;
  /** `{ creditcard: {...}, user: {...} }` as the hosted page posts it; validated here. */
  readonly body: unknown;
  /**
   * The id of the request this command serves (the HTTP API's `Request-Id`): put on every log line
   * this command writes, as `requestId`, and nowhere else (not in the record, its events or the
   * answer). Shown as it is when it is at most 200 characters and holds no card number, else as
   * `[redacted]` (`loggableId`). Default: none, and the lines are as without it.
   */
  readonly requestId?: string;
}

/**
 * The cardholder submitted card data on the hosted page: run 3DS and, when no challenge is
 * needed, the authorization. A second submit finds the payment no longer awaiting card data.
 */
export async function submitCard(ctx: EngineContext, command: SubmitCardCommand): Outcome<WorkingPayment> {
  const loaded = await loadHostedPage(ctx, command);
  if (loaded.isErr()) return err(loaded.error);
  const record = loaded.value;
  if (record.state !== 'awaiting_card_data') {
    return err(paymentError.invalidState(record.state, 'submit card data'));
  }
  const parsed = parseCardSubmission(command.body, { now: ctx.ports.clock.now() });
  if (parsed.isErr()) return err(paymentError.validation(parsed.error));
  const { card, browser } = parsed.value;

  const working = newWorkingPayment(record, true);
  const step = send(ctx, working, (at) => ({ type: 'card.submitted', at }));
  if (working.record.state === 'expired') {
    const stored = await persist(ctx, working);
    return stored.isOk() ? ok(working) : err(stored.error);
  }
  patch(working, { card: summarizeCard(card), browser });
  return drive(ctx, working, step.actions, card);
}
