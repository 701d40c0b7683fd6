import { err, ok } from 'neverthrow';
import type { CardData, CardProfile, Fees } from '../domain/card.js';
import { browserDataForThreeDS } from '../domain/contact.js';
import type { AuthorizationRecord } from '../domain/payment-record.js';
import type { ThreeDSAuthentication, ThreeDSOutcome } from '../domain/three-ds.js';
import type { PaymentMachineAction } from '../machine/payment-machine.js';
import type { PaymentMachineEvent } from '../machine/payment-machine-events.js';
import type { StepResult } from '../machine/step-payment.js';
import type { AuthorizationOutcome } from '../ports/acquirer.js';
import type { AuthenticationResult, ThreeDSAuthenticationData } from '../ports/three-ds-provider.js';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import { describeDefect } from './describe-defect.js';
import { loadPayment } from './load-payment.js';
import { done } from './outcome.js';
import type { Outcome } from './outcome.js';
import { checkAuthenticationResult, checkAuthorizationOutcome, logMalformedAnswer } from './port-answers.js';
import { awaitPort } from './run-port.js';
import type { WorkingPayment } from './working-payment.js';
import { newWorkingPayment, patch, persist, send } from './working-payment.js';

/**
 * Where the card for this command comes from: in hand (just submitted, held in memory for this
 * command), in the vault (a challenge sat between 3DS and authorization: taken only after this
 * command's intent commit has won), or nowhere.
 */
export type CardSource = CardData | 'vault' | null;

/**
 * What is stored of an approval: the fields the record keeps, copied out of the acquirer's
 * answer, so that nothing an adapter still holds (or added) ends up in a stored record.
 */
export function authorizationRecordOf(outcome: {
  readonly rrn: string;
  readonly responseCode: string;
  readonly fees: Fees;
  readonly card: CardProfile;
  readonly networkTransactionId?: string;
}): AuthorizationRecord {
  const { fees, card, networkTransactionId } = outcome;
  return {
    rrn: outcome.rrn,
    responseCode: outcome.responseCode,
    fees: { interchange: fees.interchange, assesment: fees.assesment },
    card: { type: card.type, region: card.region, issuingCountry: card.issuingCountry },
    ...(networkTransactionId !== undefined && { networkTransactionId }),
  };
}

/** What of a 3DS answer goes on to the acquirer (docs/ports.md): each field given, else null. */
export function authenticationOf(data: ThreeDSAuthenticationData): ThreeDSAuthentication {
  return {
    authenticationValue: data.authenticationValue ?? null,
    dsTransactionId: data.dsTransactionId ?? null,
    protocolVersion: data.protocolVersion ?? null,
  };
}

/** ECI values that shift fraud liability to the issuer: authenticated or attempted (visa-style 05/06, mastercard 02/01). */
const LIABILITY_SHIFT_ECI = new Set(['05', '06', '02', '01']);

export function shiftsLiability(eci: string): boolean {
  return LIABILITY_SHIFT_ECI.has(eci);
}

function threeDSOutcomeOf(result: AuthenticationResult): ThreeDSOutcome {
  switch (result.kind) {
    case 'not_required':
      return { flow: 'none', transStatus: null, eci: null, liabilityShift: false, transactionId: null };
    case 'authenticated':
      return {
        flow: 'frictionless',
        transStatus: result.transStatus,
        eci: result.eci,
        liabilityShift: shiftsLiability(result.eci),
        transactionId: result.transactionId,
      };
    case 'challenge':
      return {
        flow: 'challenge',
        transStatus: 'C',
        eci: null,
        liabilityShift: false,
        transactionId: result.transactionId,
      };
    case 'rejected':
    case 'unavailable':
      return {
        flow: 'frictionless',
        transStatus: result.transStatus,
        eci: null,
        liabilityShift: false,
        transactionId: result.transactionId,
      };
  }
}

function authenticationEvent(result: AuthenticationResult): (at: number) => PaymentMachineEvent {
  switch (result.kind) {
    case 'not_required':
      return (at) => ({ type: 'authentication.not_required', at });
    case 'authenticated':
      return (at) => ({ type: 'authentication.succeeded', at });
    case 'challenge':
      return result.reason === 'data_mismatch'
        ? (at) => ({ type: 'authentication.data_mismatch', at })
        : (at) => ({ type: 'authentication.challenge_required', at });
    case 'rejected':
      return (at) => ({ type: 'authentication.rejected', at });
    case 'unavailable':
      return (at) => ({ type: 'authentication.unavailable', at });
  }
}

function authorizationEvent(outcome: AuthorizationOutcome): (at: number) => PaymentMachineEvent {
  switch (outcome.kind) {
    case 'approved':
      return (at) => ({ type: 'authorization.approved', at });
    case 'declined':
      return (at) => ({ type: 'authorization.declined', at, reason: outcome.reason });
    case 'unknown':
      return (at) => ({ type: 'authorization.unknown', at });
  }
}

async function authenticate(ctx: EngineContext, working: WorkingPayment, card: CardSource): Promise<StepResult> {
  const { record } = working;
  if (card === null || card === 'vault' || record.browser === null) {
    return send(ctx, working, (at) => ({ type: 'authentication.error', at }));
  }
  const browser = browserDataForThreeDS(record.browser);
  const answer = await awaitPort(
    () =>
      ctx.ports.threeDS.authenticate({
        paymentId: record.id,
        profileId: record.profileId,
        amount: record.amount,
        currency: record.currency,
        card,
        browser,
      }),
    { timeoutMs: ctx.options.threeDSTimeoutMs, ...traced(ctx, 'threeDS.authenticate', { paymentId: record.id }) },
  );
  if (answer.isErr()) {
    const failure = answer.error;
    ctx.logger.warn(
      { paymentId: record.id, failure: failure.kind === 'timeout' ? 'timeout' : failure.error.code },
      '3DS authentication failed',
    );
    return send(ctx, working, (at) => ({ type: 'authentication.error', at }));
  }
  const checked = checkAuthenticationResult(answer.value, card.number);
  if (checked.isErr()) {
    logMalformedAnswer(
      ctx,
      'threeDS.authenticate',
      record.id,
      checked.error,
      '3DS provider answered a malformed authentication result; taken as a failed authentication',
    );
    return send(ctx, working, (at) => ({ type: 'authentication.error', at }));
  }
  const result = checked.value;
  working.authentication =
    result.kind === 'authenticated' || result.kind === 'unavailable' ? authenticationOf(result) : null;
  patch(working, {
    threeDS: threeDSOutcomeOf(result),
    ...(result.kind === 'challenge' ? { nextRedirect: result.challengeUrl } : {}),
  });
  return send(ctx, working, authenticationEvent(result));
}

/** A malformed answer to `authorize` is an unknown outcome, as a failure of the call is: reconciled by inquiry. */
const MALFORMED_AUTHORIZATION: AuthorizationOutcome = Object.freeze({
  kind: 'unknown',
  detail: 'malformed acquirer answer',
});

/** The acquirer's answer to `authorize` as the engine goes on with it (`checkAuthorizationOutcome`). */
function checkedAuthorization(
  ctx: EngineContext,
  paymentId: string,
  answer: AuthorizationOutcome,
  cardNumber: string,
): AuthorizationOutcome {
  const checked = checkAuthorizationOutcome(answer, cardNumber);
  if (checked.isOk()) return checked.value;
  logMalformedAnswer(
    ctx,
    'acquirer.authorize',
    paymentId,
    checked.error,
    'acquirer answered a malformed authorization outcome; taken as unknown (reconciled by inquiry)',
  );
  return MALFORMED_AUTHORIZATION;
}

/**
 * Commits the intent (the payment is `authorizing`) and only then asks the acquirer, once.
 * A concurrent writer makes the intent commit fail, so two commands never both authorize.
 * Any failure or time-out of the call, and any malformed answer, is an unknown outcome, resolved
 * later by inquiry.
 */
async function authorize(ctx: EngineContext, working: WorkingPayment, source: CardSource): Outcome<StepResult> {
  const intent = await persist(ctx, working);
  if (intent.isErr()) return err(intent.error);
  const { record } = working;
  const card = source === 'vault' ? await takeCard(ctx, record.id) : source;
  if (card === null) {
    ctx.logger.error({ paymentId: record.id }, 'no card data to authorize with (vault entry gone)');
    return ok(send(ctx, working, (at) => ({ type: 'authorization.declined', at, reason: 'processing_error' })));
  }
  const answer = await awaitPort(
    () =>
      ctx.ports.acquirer.authorize({
        paymentId: record.id,
        profileId: record.profileId,
        amount: record.amount,
        currency: record.currency,
        card,
        threeDS: record.threeDS,
        authentication: working.authentication,
        captureMethod: record.captureMethod,
      }),
    { timeoutMs: ctx.options.acquirerTimeoutMs, ...traced(ctx, 'acquirer.authorize', { paymentId: record.id }) },
  );
  const outcome: AuthorizationOutcome = answer.isOk()
    ? checkedAuthorization(ctx, record.id, answer.value, card.number)
    : { kind: 'unknown', detail: answer.error.kind === 'timeout' ? 'acquirer time-out' : answer.error.error.message };
  if (outcome.kind === 'approved') {
    patch(working, {
      authorization: authorizationRecordOf(outcome),
    });
  }
  return ok(send(ctx, working, authorizationEvent(outcome)));
}

/**
 * Performs the actions a machine step asked for, feeding each port's answer back to the
 * machine, until nothing is left to do; then stores the result. `card` is the card data held
 * in memory for this command, if any.
 */
export async function drive(
  ctx: EngineContext,
  working: WorkingPayment,
  actions: readonly PaymentMachineAction[],
  card: CardSource,
): Outcome<WorkingPayment> {
  const waitedForChallenge = working.storedRecord?.state === 'awaiting_challenge';
  const queue = [...actions];
  let action: PaymentMachineAction | undefined;
  while ((action = queue.shift()) !== undefined) {
    if (action.type === 'startAuthentication') {
      queue.push(...(await authenticate(ctx, working, card)).actions);
    } else if (action.type === 'authorize') {
      const step = await authorize(ctx, working, card);
      if (step.isErr()) return err(step.error);
      queue.push(...step.value.actions);
    }
  }
  const stored = await settle(ctx, working);
  if (stored.isErr()) return err(stored.error);
  if (card !== null && card !== 'vault') await keepCardForChallenge(ctx, working, card);
  if (waitedForChallenge && working.record.state !== 'awaiting_challenge') await dropCard(ctx, working.record.id);
  return ok(working);
}

/**
 * Stores what the command changed. Once this command has committed an intent, the stored
 * record is the truth if the outcome cannot be stored (still processing); the sweeper's
 * inquiry reconciles it with the acquirer later. An outcome that loses to another writer (the
 * sweeper reconciled the intent while the acquirer's answer was late) answers the payment as that
 * writer left it.
 */
async function settle(ctx: EngineContext, working: WorkingPayment): Outcome<void> {
  if (!working.dirty) return done;
  const stored = working.storedRecord;
  const written = await persist(ctx, working);
  if (written.isOk() || stored === null || working.commits === 0) return written;
  if (written.error.code === 'conflict') {
    const current = await loadPayment(ctx, stored.id);
    if (current.isOk()) {
      ctx.logger.warn(
        { paymentId: stored.id, state: current.value.state },
        'outcome not stored: the payment was changed first (reconciled by the sweeper)',
      );
      working.record = newWorkingPayment(current.value, true).record;
      working.dirty = false;
      return done;
    }
  }
  ctx.logger.error(
    { paymentId: stored.id, code: written.error.code },
    'could not store the outcome; left for reconciliation',
  );
  working.record = stored;
  working.dirty = false;
  return done;
}

/**
 * A challenge sits between 3DS and authorization: the card waits in the vault until the deadline,
 * and `cardGraceMs` longer. A challenge completed just before the deadline takes the card only
 * once its intent commit is stored, which may end after the deadline; the vault dropped the card
 * at the deadline, and the payment failed (`processing_error`) though the cardholder was in time.
 */
async function keepCardForChallenge(ctx: EngineContext, working: WorkingPayment, card: CardData): Promise<void> {
  const { record } = working;
  if (record.state !== 'awaiting_challenge' || record.expiresAt === null) return;
  const expiresAt = record.expiresAt + ctx.options.cardGraceMs;
  const kept = await awaitPort(() => ctx.ports.cardVault.put(record.id, card, expiresAt), {
    ...traced(ctx, 'cardVault.put', { paymentId: record.id }),
    timeoutMs: ctx.options.storageTimeoutMs,
    retries: ctx.options.retries,
  });
  if (kept.isErr()) {
    ctx.logger.error(
      { paymentId: record.id },
      'card vault unavailable: the challenge cannot be followed by authorization',
    );
  }
}

/** Takes the card out of the vault (it is then gone from there); null when it is not there. */
async function takeCard(ctx: EngineContext, paymentId: string): Promise<CardData | null> {
  const taken = await awaitPort(() => ctx.ports.cardVault.take(paymentId), {
    ...traced(ctx, 'cardVault.take', { paymentId }),
    timeoutMs: ctx.options.storageTimeoutMs,
    retries: ctx.options.retries,
  });
  return taken.isOk() ? taken.value : null;
}

/**
 * Forgets the card kept for a challenge once the payment no longer waits for one (refused,
 * expired, or authorized): called only by the command whose write moved the payment on. Best
 * effort, after that write: a vault that fails or throws leaves the card to go at its deadline
 * (`CardVault`). A throw made the command that had stored a refused challenge answer
 * `internal_error`, and the sweep that had stored an expiry count an error.
 */
export async function dropCard(ctx: EngineContext, paymentId: string): Promise<void> {
  try {
    await takeCard(ctx, paymentId);
  } catch (defect) {
    ctx.logger.error(
      { paymentId, cause: describeDefect(defect) },
      'card vault threw when the card was dropped; it goes at its deadline',
    );
  }
}
