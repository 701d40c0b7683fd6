import type { RepositoryError } from '../../src/index.js';

/*
 * Failures of a repository's write, as adapters report them, for the tests of how the engine tells
 * a write that never reached storage from one that may have (test/engine/unsent-attempts.test.ts,
 * test/engine/unsent-writes.test.ts).
 */

/** A write that certainly never reached storage: the connection was refused (`notSent`). */
export const NOT_SENT: RepositoryError = {
  code: 'unavailable',
  message: 'Postgres connection lost or refused (ECONNREFUSED)',
  retryable: true,
  notSent: true,
};

/** A write that may have reached storage: the connection was lost while it was under way. */
export const MAYBE_SENT: RepositoryError = { code: 'unavailable', message: 'Connection terminated', retryable: true };
