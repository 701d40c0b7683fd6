import { err } from 'neverthrow';
import { paymentError } from '../errors/payment-error.js';
import type { ChallengeResult } from '../ports/three-ds-provider.js';
import { authenticationOf, drive, shiftsLiability } from './drive-payment.js';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import { loadPayment } from './load-payment.js';
import { checkChallengeResult, logMalformedAnswer } from './port-answers.js';
import type { Outcome } from './outcome.js';
import { awaitPort } from './run-port.js';
import type { WorkingPayment } from './working-payment.js';
import { newWorkingPayment, patch, send } from './working-payment.js';

/** What `completeChallenge` needs: the payment, its 3DS transaction and the issuer's signed result. */
export interface CompleteChallengeCommand {
  /** The payment awaiting the challenge. */
  readonly paymentId: string;
  /** The 3DS transaction the challenge belongs to. */
  readonly transactionId: string;
  /** The ACS's challenge result, verified by the 3DS provider. */
  readonly cres: string;
  /**
   * The id of the request this command serves (the HTTP API's `Request-Id`): put on every log line
   * this command writes, as `requestId`, and nowhere else (not in the record, its events or the
   * answer). Shown as it is when it is at most 200 characters and holds no card number, else as
   * `[redacted]` (`loggableId`). Default: none, and the lines are as without it.
   */
  readonly requestId?: string;
}

/**
 * The issuer's challenge page answered. The 3DS provider verifies the result belongs to this
 * payment and transaction; an accepted challenge goes on to authorization with the card kept
 * in the vault, a refused one fails the payment, a late one finds it expired. A malformed answer
 * of the provider is as its failure: `unavailable`, and the payment still awaits the challenge.
 */
export async function completeChallenge(
  ctx: EngineContext,
  command: CompleteChallengeCommand,
): Outcome<WorkingPayment> {
  const loaded = await loadPayment(ctx, command.paymentId);
  if (loaded.isErr()) return err(loaded.error);
  const record = loaded.value;
  if (record.threeDS?.transactionId !== command.transactionId) {
    return err(paymentError.notFound('Challenge'));
  }
  if (record.state !== 'awaiting_challenge') {
    return err(paymentError.invalidState(record.state, 'complete the challenge'));
  }
  const answer = await awaitPort(
    () =>
      ctx.ports.threeDS.resolveChallenge({
        paymentId: record.id,
        transactionId: command.transactionId,
        cres: command.cres,
      }),
    { timeoutMs: ctx.options.threeDSTimeoutMs, ...traced(ctx, 'threeDS.resolveChallenge', { paymentId: record.id }) },
  );
  if (answer.isErr()) {
    const failure = answer.error;
    return err(
      failure.kind === 'port' && failure.error.code === 'invalid_challenge'
        ? paymentError.validation([{ path: 'cres', message: 'The challenge result does not belong to this payment' }])
        : paymentError.unavailable('3DS provider did not answer'),
    );
  }
  const checked = checkChallengeResult(answer.value);
  if (checked.isErr()) {
    logMalformedAnswer(
      ctx,
      'threeDS.resolveChallenge',
      record.id,
      checked.error,
      '3DS provider answered a malformed challenge result; taken as a failure of the call',
    );
    return err(paymentError.unavailable('3DS provider did not answer'));
  }
  const result = checked.value;

  const working = newWorkingPayment(record, true);
  working.authentication = result.kind === 'accepted' ? authenticationOf(result) : null;
  patch(working, { threeDS: outcomeAfterChallenge(record.threeDS, result) });
  const step = send(ctx, working, (at) =>
    result.kind === 'accepted' ? { type: 'challenge.accepted', at } : { type: 'challenge.refused', at },
  );
  // The card stays in the vault until this command's write has won: authorization takes it
  // after the intent commit, and a refused or expired challenge drops it after its commit.
  return drive(ctx, working, step.actions, 'vault');
}

function outcomeAfterChallenge(
  before: WorkingPayment['record']['threeDS'],
  result: ChallengeResult,
): WorkingPayment['record']['threeDS'] {
  const eci = result.kind === 'accepted' ? result.eci : null;
  return {
    flow: 'challenge',
    transStatus: result.transStatus,
    eci,
    liabilityShift: eci !== null && shiftsLiability(eci),
    transactionId: before?.transactionId ?? null,
  };
}
