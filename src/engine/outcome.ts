import * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import { err, ok } from 'neverthrow';
import type { Result } from 'neverthrow';
import type { PaymentError } from '../errors/payment-error.js';

/**
 * What a step of a command gives: a value or a `PaymentError`. Commands are plain async code;
 * only what waits or repeats (port time-outs and retries, the sweeper, delivery) runs in Effect.
 */
export type Outcome<T> = Promise<Result<T, PaymentError>>;

/** The one `ok(undefined)`: results are immutable, so every step that returns nothing shares it. */
export const done: Result<void, never> = ok(undefined);

/** A command step inside an Effect program (the sweeper): its error becomes the Effect's failure. */
export function fromOutcome<T>(step: () => Outcome<T>): Effect.Effect<T, PaymentError> {
  return Effect.flatMap(Effect.promise(step), (result) =>
    result.isOk() ? Effect.succeed(result.value) : Effect.fail(result.error),
  );
}

/**
 * Runs an Effect program to a `Result`: its success is `ok`, its failure `err`, and a defect
 * rejects the promise (the command boundary turns that into `internal_error`).
 */
export function runEffect<A, E>(program: Effect.Effect<A, E>): Promise<Result<A, E>> {
  return new Promise((resolve, reject) => {
    Effect.runCallback(program, {
      onExit: (exit) => {
        if (Exit.isSuccess(exit)) return resolve(ok(exit.value));
        const failure = Cause.failureOption(exit.cause);
        if (failure._tag === 'Some') return resolve(err(failure.value));
        reject(Cause.squash(exit.cause));
      },
    });
  });
}
