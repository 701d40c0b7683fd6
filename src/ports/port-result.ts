import type { Result, ResultAsync } from 'neverthrow';

/**
 * What every port method returns: a neverthrow `ResultAsync`, or a `Promise` of a `Result`,
 * whichever suits the adapter author. A port rejects or throws only for a bug; expected
 * failures are `err(…)` values.
 */
export type PortResult<T, E> = ResultAsync<T, E> | Promise<Result<T, E>>;

/** Failure of infrastructure behind a port: `retryable` says whether the same call may succeed. */
export interface PortFailure<C extends string = 'unavailable'> {
  readonly code: C;
  readonly message: string;
  readonly retryable: boolean;
}
