import type { Result } from 'neverthrow';
import type { PortFailure, PortResult } from '../ports/port-result.js';

/** A port call whose attempts are watched: whether any of them may have reached the service. */
export interface WatchedCall<T, E> {
  /** Makes one attempt: the wrapped call, answering what it answers. Pass it to `awaitPort`. */
  readonly call: () => PortResult<T, E>;
  /**
   * True when attempts were made and every one of them failed with `notSent: true`: none reached
   * the service, so nothing of the call was done. An attempt that succeeded, failed otherwise,
   * threw, or whose answer has not come (it ran out of time, and may still be sent) may have.
   */
  noneSent(): boolean;
}

const isPending = <T, E>(answer: PortResult<T, E>): answer is PromiseLike<Result<T, E>> & PortResult<T, E> =>
  typeof (answer as { then?: unknown }).then === 'function';

/** A `Result` that failed with `notSent: true`; anything else, a defect's answer included, is not. */
function failedUnsent(answer: unknown): boolean {
  if (typeof answer !== 'object' || answer === null) return false;
  const result = answer as { isErr?: unknown; error?: unknown };
  if (typeof result.isErr !== 'function' || result.isErr() !== true) return false;
  return typeof result.error === 'object' && result.error !== null && (result.error as PortFailure).notSent === true;
}

/**
 * Wraps a port call so that its caller can tell, after all its attempts (retries included),
 * whether any of them may have reached the service (`noneSent`). It matters for a write: one
 * attempt that may have been sent, followed by retries that were not, may still have stored it.
 * An answer given at once stays a plain `Result` (no promise, no suspension).
 */
export function watchUnsent<T, E extends PortFailure<string>>(call: () => PortResult<T, E>): WatchedCall<T, E> {
  let made = 0;
  let unsent = 0;
  const note = (answer: unknown): void => {
    if (failedUnsent(answer)) unsent += 1;
  };
  return {
    call: () => {
      made += 1;
      const answer = call();
      if (!isPending(answer)) {
        note(answer);
        return answer;
      }
      return Promise.resolve(answer).then((result) => {
        note(result);
        return result;
      });
    },
    noneSent: () => made > 0 && unsent === made,
  };
}
