import type { Result, ResultAsync } from 'neverthrow';

/**
 * What every port method returns: a neverthrow `Result` (an adapter that answers at once, such as
 * the in-memory ones), a `ResultAsync`, or a `Promise` of a `Result`, whichever suits the adapter
 * author. A port rejects or throws only for a bug; expected failures are `err(…)` values.
 * Callers `await` it: awaiting a plain `Result` gives the `Result` itself. An answer that is no
 * `Result` (a promise of `undefined`), or an `err` of something that is no object, is a bug of
 * the adapter too: the engine treats it as one (a command answers `internal_error`).
 */
export type PortResult<T, E> = Result<T, E> | ResultAsync<T, E> | Promise<Result<T, E>>;

/** Failure of infrastructure behind a port: `retryable` says whether the same call may succeed. */
export interface PortFailure<C extends string = 'unavailable'> {
  readonly code: C;
  readonly message: string;
  readonly retryable: boolean;
}
