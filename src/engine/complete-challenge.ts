import { Effect } from 'effect';
import type { CardData } from '../domain/card.js';
import type { PaymentError } from '../errors/payment-error.js';
import { paymentError } from '../errors/payment-error.js';
import type { ChallengeResult } from '../ports/three-ds-provider.js';
import { drive } from './drive-payment.js';
import type { EngineContext } from './engine-context.js';
import { loadPayment } from './load-payment.js';
import { callPort } from './run-port.js';
import type { WorkingPayment } from './working-payment.js';
import { newWorkingPayment, patch, persist, send } from './working-payment.js';

export interface CompleteChallengeCommand {
  readonly paymentId: string;
  /** The 3DS transaction the challenge belongs to. */
  readonly transactionId: string;
  /** The ACS's challenge result, verified by the 3DS provider. */
  readonly cres: string;
}

/**
 * The issuer's challenge page answered. The 3DS provider verifies the result belongs to this
 * payment and transaction; an accepted challenge goes on to authorization with the card kept
 * in the vault, a refused one fails the payment, a late one finds it expired.
 */
export function completeChallenge(
  ctx: EngineContext,
  command: CompleteChallengeCommand,
): Effect.Effect<WorkingPayment, PaymentError> {
  return Effect.gen(function* () {
    const record = yield* loadPayment(ctx, command.paymentId);
    if (record.threeDS?.transactionId !== command.transactionId) {
      return yield* Effect.fail(paymentError.notFound('Challenge'));
    }
    if (record.state !== 'awaiting_challenge') {
      return yield* Effect.fail(paymentError.invalidState(record.state, 'complete the challenge'));
    }
    const result = yield* callPort(
      () =>
        ctx.ports.threeDS.resolveChallenge({
          paymentId: record.id,
          transactionId: command.transactionId,
          cres: command.cres,
        }),
      { timeoutMs: ctx.options.threeDSTimeoutMs },
    ).pipe(
      Effect.mapError((failure) =>
        failure.kind === 'port' && failure.error.code === 'invalid_challenge'
          ? paymentError.validation([{ path: 'cres', message: 'The challenge result does not belong to this payment' }])
          : paymentError.unavailable('3DS provider did not answer'),
      ),
    );

    // Whatever the answer, the card leaves the vault now: it is used for this one
    // authorization or not at all (PCI DSS 3.3.1.2).
    const card: CardData | null = yield* callPort(() => ctx.ports.cardVault.take(record.id), {
      timeoutMs: ctx.options.storageTimeoutMs,
    }).pipe(Effect.catchAll(() => Effect.succeed(null)));
    const working = newWorkingPayment(record, true);
    patch(working, { threeDS: outcomeAfterChallenge(record.threeDS, result) });
    if (result.kind === 'refused') {
      send(ctx, working, (at) => ({ type: 'challenge.refused', at }));
      yield* persist(ctx, working);
      return working;
    }
    const step = send(ctx, working, (at) =>
      card === null ? { type: 'challenge.error', at } : { type: 'challenge.accepted', at },
    );
    if (card === null) ctx.logger.error({ paymentId: record.id }, 'card data gone from the vault after the challenge');
    return yield* drive(ctx, working, step.actions, card);
  });
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
    liabilityShift: result.kind === 'accepted',
    transactionId: before?.transactionId ?? null,
  };
}
