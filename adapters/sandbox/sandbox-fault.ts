import { err, type Result } from 'neverthrow';
import type { AcquirerError } from '../../src/ports/acquirer.js';
import { afterLatency, chain, type Eventually } from './chain.js';

/**
 * A fault for the next call: `unavailable` never reaches the acquirer (nothing recorded, the call
 * fails); `answer_lost` is decided and recorded but fails; `hang` is decided and recorded, never settling.
 */
export type SandboxFault = 'unavailable' | 'answer_lost' | 'hang';

/** A retryable `unavailable` of the simulated acquirer. */
export const unavailable = (message: string): AcquirerError => ({ code: 'unavailable', message, retryable: true });

/** What `decide` answers, as `fault` and the latency make it (decided first: concurrent calls see each other). */
export function answerWith<T>(
  fault: SandboxFault | undefined,
  latencyMs: number,
  decide: () => Eventually<Result<T, AcquirerError>>,
): Eventually<Result<T, AcquirerError>> {
  if (fault === 'unavailable') return afterLatency(latencyMs, err(unavailable('The acquirer could not be reached')));
  return chain(decide(), (answer) => {
    if (fault === 'hang') return new Promise<never>(() => {});
    const lost = fault === 'answer_lost' && answer.isOk();
    return afterLatency(latencyMs, lost ? err(unavailable('The connection to the acquirer was lost')) : answer);
  });
}
