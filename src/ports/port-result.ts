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

/**
 * Failure of infrastructure behind a port: `retryable` says whether the same call may succeed, and
 * `notSent` whether the call certainly never reached the service.
 */
export interface PortFailure<C extends string = 'unavailable'> {
  readonly code: C;
  readonly message: string;
  readonly retryable: boolean;
  /**
   * `true` only when the adapter is certain that the call never reached the service behind the
   * port, so nothing of it was done and nothing of it can still happen: the connection was refused,
   * no connection could be had in time (the request still unsent when the wait ended), the host
   * name did not resolve, the client was closed or ended before the request was handed to a
   * connection. Absent (or `false`), the call may have reached the service: a write may have been
   * done, or may still be, although it failed. That is the safe reading, and the default.
   *
   * Never set it for a failure after the request was handed to a connection: a reset, a lost
   * answer, a time-out waiting for the answer, an error the server answered. Whether the work was
   * done is not known then (a commit may land and its answer be lost).
   *
   * The engine reads it on a failed `PaymentRepository` `insert` or `update`: when every attempt
   * of the write failed so, nothing was stored, and the command fails with a plain `unavailable`
   * (retry) instead of `outcome: 'unknown'` (the payment may exist), without reading the payment
   * back. Elsewhere it is information only.
   */
  readonly notSent?: boolean;
}
