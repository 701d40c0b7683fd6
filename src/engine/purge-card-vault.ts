import * as Effect from 'effect/Effect';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import { describeDefect } from './describe-defect.js';
import { callPort } from './run-port.js';

/**
 * Deletes the cards past their deadline from a vault that can (`CardVault.purgeExpired`): cards of
 * challenges nobody completed on any instance. Best effort, once per sweep: a failure or a
 * defect is logged and the sweep goes on; what is left goes at the next one.
 */
export function purgeCardVault(ctx: EngineContext): Effect.Effect<void> {
  const vault = ctx.ports.cardVault;
  const purge = vault.purgeExpired;
  if (purge === undefined) return Effect.void;
  const now = ctx.ports.clock.now();
  return callPort(() => purge.call(vault, now), {
    ...traced(ctx, 'cardVault.purgeExpired', {}),
    ...(ctx.abandon !== undefined ? { abandon: ctx.abandon } : {}),
    timeoutMs: ctx.options.storageTimeoutMs,
  }).pipe(
    Effect.tap((purged) =>
      purged > 0 ? Effect.sync(() => ctx.logger.info({ purged }, 'card vault: expired cards deleted')) : Effect.void,
    ),
    Effect.catchAll(() => Effect.sync(() => ctx.logger.warn({}, 'card vault: expired cards not deleted this time'))),
    Effect.catchAllDefect((defect) =>
      Effect.sync(() => ctx.logger.error({ cause: describeDefect(defect) }, 'card vault threw when purging')),
    ),
    Effect.asVoid,
  );
}
