import { err, ok } from 'neverthrow';
import type { PaymentRecord } from '../domain/payment-record.js';
import { paymentError } from '../errors/payment-error.js';
import { startPayment } from '../machine/step-payment.js';
import { clientMayActOn, type Client } from '../ports/credential-store.js';
import { parseCreatePaymentRequest } from '../schemas/index.js';
import { summarizeCard } from '../domain/card.js';
import { drive } from './drive-payment.js';
import type { EngineContext } from './engine-context.js';
import { HEALTH_PROBE_PAYMENT_ID } from './health.js';
import { isPaymentId } from './load-payment.js';
import type { Outcome } from './outcome.js';
import type { WorkingPayment } from './working-payment.js';
import { applyStep, inspectWhenStored, newWorkingPayment, persist } from './working-payment.js';

/** What `createPayment` needs: the authenticated client, the profile to create under and the request body. */
export interface CreatePaymentCommand {
  /** The authenticated client (from the credential store). */
  readonly client: Client;
  /** The profile to create the payment under; the client must hold it (`forbidden_profile`). */
  readonly profileId: string;
  /** The request body as received (parsed JSON); validated here. */
  readonly body: unknown;
  /**
   * The id to create the payment under (`payment_` and 32 lowercase hex digits, not the health
   * probe's all zeros, `HEALTH_PROBE_PAYMENT_ID`), reserved beforehand, e.g. with an
   * `Idempotency-Key` (`engine.newPaymentId()`); default a new one.
   * When a payment with this id exists already, nothing is created or authorized and the
   * command fails with `conflict`.
   */
  readonly paymentId?: string;
  /**
   * The id of the request this command serves (the HTTP API's `Request-Id`): put on every log line
   * this command writes, as `requestId`, and nowhere else (not in the record, its events or the
   * answer). Shown as it is when it is at most 200 characters and holds no card number, else as
   * `[redacted]` (`loggableId`). Default: none, and the lines are as without it.
   */
  readonly requestId?: string;
}

/**
 * A new payment id from the id port: `payment_` and 128 random bits in hex. Never the health
 * probe's id (`HEALTH_PROBE_PAYMENT_ID`, all zeros): drawn again in that (2^-128) case.
 */
export function newPaymentId(ctx: EngineContext): string {
  const id = `payment_${ctx.ports.ids.hex128()}`;
  return id === HEALTH_PROBE_PAYMENT_ID ? `payment_${ctx.ports.ids.hex128()}` : id;
}

function carriesCardData(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'creditcard' in body;
}

export async function createPayment(ctx: EngineContext, command: CreatePaymentCommand): Outcome<WorkingPayment> {
  const { client, profileId } = command;
  if (!clientMayActOn(client, profileId)) return err(paymentError.forbiddenProfile(profileId));
  // Decided before validation so that a non-compliant client's card data is not even parsed.
  if (carriesCardData(command.body) && !client.pciDssCompliant) {
    return err(paymentError.directFlowNotPermitted());
  }
  if (command.paymentId !== undefined && !isPaymentId(command.paymentId)) {
    return err(
      paymentError.validation([
        { path: 'paymentId', message: 'Must be payment_ followed by 32 lowercase hexadecimal digits' },
      ]),
    );
  }
  if (command.paymentId === HEALTH_PROBE_PAYMENT_ID) {
    return err(paymentError.validation([{ path: 'paymentId', message: "Is reserved for the engine's storage probe" }]));
  }
  const now = ctx.ports.clock.now();
  const parsed = parseCreatePaymentRequest(command.body, { now });
  if (parsed.isErr()) return err(paymentError.validation(parsed.error));
  const input = parsed.value;
  const card = input.creditcard ?? null;
  const flow = card === null ? 'hosted' : 'direct';
  const id = command.paymentId ?? newPaymentId(ctx);
  // With `pageTokens` nothing of the link is stored: it is made from the key when shown.
  const hostedToken = flow === 'hosted' && ctx.ports.pageTokens === undefined ? ctx.ports.ids.secret() : null;
  const step = startPayment(ctx.machine, { flow, at: now });

  const record: PaymentRecord = {
    id,
    partnerId: client.partnerId,
    profileId,
    flow,
    state: step.state,
    version: 1,
    description: input.description ?? null,
    reference: input.reference ?? null,
    method: input.method,
    currency: input.currency,
    amount: input.amount,
    billing: input.billing,
    shipping: input.shipping,
    redirectUrl: input.session.redirect_url,
    browser: input.user ?? null,
    card: card === null ? null : summarizeCard(card),
    threeDS: null,
    nextRedirect: hostedToken === null ? null : ctx.options.hostedPageUrl({ id, token: hostedToken }),
    hostedToken,
    authorization: null,
    authorizationStatus: null,
    failureReason: null,
    createdAt: now,
    updatedAt: now,
    expiresAt: null,
    nextInquiryAt: null,
    inquiryAttempts: 0,
    notFoundAnswers: 0,
    writeId: null,
    captureMethod: input.capture_method ?? 'automatic',
    captureReserved: 0,
    amountCaptured: 0,
    refundReserved: 0,
    amountRefunded: 0,
    captureClosedBy: null,
    authorizationExpiresAt: null,
  };
  const working = newWorkingPayment(record, false);
  applyStep(ctx, working, step, now);
  inspectWhenStored(ctx, working, { type: 'xstate.init', input: { flow, at: now } }, step, true);
  if (flow === 'hosted') {
    const stored = await persist(ctx, working);
    return stored.isOk() ? ok(working) : err(stored.error);
  }
  return drive(ctx, working, step.actions, card);
}
