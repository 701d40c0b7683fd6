import { ResultAsync, err, ok } from 'neverthrow';
import type { Result } from 'neverthrow';
import type { PaymentError } from '../errors/payment-error.js';
import { paymentError } from '../errors/payment-error.js';
import { logsAt, silentLogger, withLogFields } from '../ports/logger.js';
import { describeDefect } from './describe-defect.js';
import type { EngineContext } from './engine-context.js';
import { endCommandSpan, startCommandSpan } from './engine-telemetry.js';
import { loggableId, MAX_LOGGED_REQUEST_ID_LENGTH } from './loggable-id.js';
import type { Outcome } from './outcome.js';

/**
 * An id a client sent, as a log line may show it (`loggableId`); one that is no string (plain
 * JavaScript), by its type.
 */
const loggable = (id: unknown, maxLength?: number): string =>
  typeof id === 'string' ? loggableId(id, maxLength) : `[${typeof id}]`;

/** The ids a client sent, as a log line may show them (`loggable`). */
const loggableIds = (ids: Readonly<Record<string, unknown>>): Record<string, string> =>
  Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, loggable(id)]));

/** A command's answer as it is: how it ends without a span. */
const asIs = <R>(result: R): R => result;

/** No ids to log (the background programs). */
export const noIds = () => ({});

function defect<A>(ctx: EngineContext, command: string, error: unknown): Result<A, PaymentError> {
  ctx.logger.error({ command, cause: describeDefect(error) }, 'engine defect');
  return err(paymentError.internal());
}

/**
 * The context a command runs with: the engine's, or, when the command was given a `requestId`,
 * one whose logger puts that id (`loggableId`, up to 200 characters) on every line the command
 * writes. Not when the engine logs nothing: then it costs nothing. Reading the input is done in
 * `runCommand`'s guard (a command given without its object, from plain JavaScript, is a defect).
 */
function commandContext(ctx: EngineContext, input: unknown): EngineContext {
  if (ctx.logger === silentLogger || typeof input !== 'object' || input === null) return ctx;
  const requestId: unknown = (input as { readonly requestId?: unknown }).requestId;
  if (requestId === undefined) return ctx;
  return {
    ...ctx,
    logger: withLogFields(ctx.logger, { requestId: loggable(requestId, MAX_LOGGED_REQUEST_ID_LENGTH) }),
  };
}

/**
 * The one boundary between the engine and its public neverthrow API. Commands are plain async
 * code returning `Result`s; the background programs (sweep, delivery) are Effect programs run to
 * a `Result` (`runEffect`). Either way a failure becomes `err(PaymentError)`, and a defect (a bug,
 * an adapter that threw) becomes `internal_error` after it is logged, never a rejected promise.
 * It logs how the command ended (failures at info, successes at debug), with the ids the client
 * sent read and made `loggableId` only when a line is written (`ids` reads them: a command given
 * without its object, from plain JavaScript, is a defect answered `internal_error`, not a throw),
 * and maps its value. The step runs with `commandContext`: given the `input` object's
 * `requestId`, every line of the command carries it.
 */
export function runCommand<T, A>(
  base: EngineContext,
  command: string,
  input: unknown,
  ids: () => Readonly<Record<string, unknown>>,
  step: (ctx: EngineContext) => Outcome<T>,
  map: (value: T) => A,
): ResultAsync<A, PaymentError> {
  const started = base.ports.clock.now();
  let ctx = base;
  let pending: Outcome<T>;
  // The command's span (none without telemetry), the parent of its port calls' spans.
  const span = startCommandSpan(base, command);
  try {
    ctx = commandContext(base, input);
    if (span === undefined) pending = step(ctx);
    else {
      const spanned: EngineContext = { ...ctx, span };
      pending = span.within(() => step(spanned));
    }
  } catch (error) {
    pending = Promise.reject(error);
  }
  // What runs once the step has ended (its log line, `map`) must not throw either: a throw there
  // rejected the `ResultAsync` the caller holds. The span, if any, ends in the same callbacks (no
  // promise more); `endCommandSpan` does not throw.
  const ended =
    span === undefined
      ? asIs<Result<A, PaymentError>>
      : (result: Result<A, PaymentError>) => {
          endCommandSpan(span, result.isOk() ? 'ok' : result.error.code, ids, result.isOk() ? result.value : undefined);
          return result;
        };
  const answered: Promise<Result<A, PaymentError>> = pending
    .then((result): Result<A, PaymentError> => {
      if (result.isErr()) {
        if (logsAt(ctx.logger, 'info')) {
          const ms = ctx.ports.clock.now() - started;
          ctx.logger.info({ command, ...loggableIds(ids()), code: result.error.code, ms }, 'command failed');
        }
        return ended(err(result.error));
      }
      if (logsAt(ctx.logger, 'debug')) {
        ctx.logger.debug({ command, ...loggableIds(ids()), ms: ctx.ports.clock.now() - started }, 'command done');
      }
      return ended(ok(map(result.value)));
    })
    .catch((error: unknown) => ended(defect<A>(ctx, command, error)));
  return new ResultAsync(answered);
}
