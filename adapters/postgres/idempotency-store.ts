import { err, ok, type Result } from 'neverthrow';
import type { Pool, QueryResultRow } from 'pg';
import type {
  IdempotencyBegin,
  IdempotencyBeginRequest,
  IdempotencySettleRequest,
  IdempotencyStore,
  IdempotencyStoreError,
  StoredResponse,
} from '../../src/ports/idempotency-store.js';
import { closeTimeoutMs, poolCloser, type PoolCloseOptions } from './bounded-close.js';
import { asUnavailable } from './classify-error.js';
import { resolveConnection, type PostgresConnectionOptions } from './connection.js';
import { runStatement, type Statement } from './run-statement.js';

/**
 * Options of `createPostgresIdempotencyStore`: a pool or a connection string, whether to prepare
 * statements, and how long `close()` waits for the database (`closeTimeoutMs`, `logger`).
 */
export type PostgresIdempotencyStoreOptions = PostgresConnectionOptions &
  PoolCloseOptions & {
    /** Named prepared statements; default true. */
    readonly preparedStatements?: boolean;
  };

/** The Postgres `IdempotencyStore`. */
export interface PostgresIdempotencyStore extends IdempotencyStore {
  /** The pool the store runs on (its own when it was given a connection string). */
  readonly pool: Pool;
  /**
   * Ends the pool if the store created it, waiting for the database at most `closeTimeoutMs`
   * (default 5 s): then it logs what it gave up (to `logger`) and resolves, and the connections
   * still waiting for the server are closed. Does nothing to a host's pool. Never rejects. Later
   * calls give the same promise.
   */
  close(): Promise<void>;
}

interface BeginRow {
  readonly started: boolean;
  readonly reserved_id: string | null;
  readonly takeover: boolean | null;
  readonly fingerprint: string | null;
  readonly status: 'in_progress' | 'completed' | null;
  readonly response_status: number | null;
  readonly response_headers: Record<string, string> | null;
  readonly response_body: string | null;
}

/**
 * Claims the key when it is free or its entry has expired, or takes over a stale attempt (one
 * row lock decides between concurrent callers); otherwise reads the entry. Parameters: $1 client,
 * $2 key, $3 fingerprint, $4 now, $5 expiry, $6 reserved id (or null), $7 the latest start of a
 * stale attempt: now - staleAfterMs (null: none is stale).
 *
 * A takeover needs the same fingerprint, an entry in progress with a reserved id, started by
 * $7 and before now, and whose `started_at` is not before its `created_at` (a version before
 * reservations that took an expired entry over reset `created_at` only, leaving the reserved id
 * of the entry before). It keeps `reserved_id` and `created_at` and moves `started_at` and
 * `expires_at` on: `started_at > created_at` is what tells a takeover in `RETURNING` (a new or
 * expired entry gets both set to now).
 *
 * The read never returns an expired entry: a caller that waited on the lock of another taking
 * that entry over reads the statement's older snapshot, in which the entry is still the expired
 * one, and would replay it; it reads nothing instead and `begin` runs the statement again (a new
 * snapshot: the entry in progress). A caller that waited on another's takeover of a stale
 * attempt reads that attempt, in progress, which is what the entry is again.
 *
 * The read knows this call's own entry: started by this statement's write when it ran before
 * and its answer was lost (the connection dropped after the commit). That entry is in progress
 * with this call's reserved id ($6, unique per request), fingerprint, start and creation ($4):
 * `started` again. A takeover keeps the stale attempt's reserved id, so a takeover whose answer
 * was lost is not known as this call's: it reads as in progress.
 */
const BEGIN: Statement = {
  name: 'paystate_idempotency_begin_v2',
  text: `
WITH claimed AS (
  INSERT INTO paystate_idempotency_keys AS k
    (client_id, key, fingerprint, status, created_at, expires_at, reserved_id, started_at)
  VALUES ($1, $2, $3, 'in_progress', $4, $5, $6, $4)
  ON CONFLICT (client_id, key) DO UPDATE
  SET fingerprint = EXCLUDED.fingerprint, status = 'in_progress', response_status = NULL,
      response_headers = NULL, response_body = NULL,
      created_at = CASE WHEN k.expires_at <= EXCLUDED.created_at THEN EXCLUDED.created_at ELSE k.created_at END,
      reserved_id = CASE WHEN k.expires_at <= EXCLUDED.created_at THEN EXCLUDED.reserved_id ELSE k.reserved_id END,
      started_at = EXCLUDED.started_at, expires_at = EXCLUDED.expires_at
  WHERE k.expires_at <= EXCLUDED.created_at
     OR (k.status = 'in_progress' AND k.fingerprint = EXCLUDED.fingerprint AND k.reserved_id IS NOT NULL
         AND k.started_at >= k.created_at AND k.started_at <= $7 AND k.started_at < EXCLUDED.started_at)
  RETURNING k.reserved_id, k.started_at > k.created_at AS takeover
)
SELECT true AS started, c.reserved_id, c.takeover, NULL::text AS fingerprint, NULL::text AS status,
       NULL::int AS response_status, NULL::jsonb AS response_headers, NULL::text AS response_body
FROM claimed c
UNION ALL
SELECT mine, CASE WHEN mine THEN k.reserved_id END, CASE WHEN mine THEN false END,
       k.fingerprint, k.status, k.response_status, k.response_headers, k.response_body
FROM paystate_idempotency_keys k
CROSS JOIN LATERAL (
  SELECT $6::text IS NOT NULL AND k.reserved_id = $6 AND k.status = 'in_progress' AND k.fingerprint = $3
         AND k.started_at = $4 AND k.created_at = $4 AS mine
) AS own
WHERE k.client_id = $1 AND k.key = $2 AND k.expires_at > $4 AND NOT EXISTS (SELECT 1 FROM claimed)`,
};

/** Settles the key only for the attempt that owns it ($3: its start), or for any when $3 is null. */
const COMPLETE: Statement = {
  name: 'paystate_idempotency_complete',
  text: `
UPDATE paystate_idempotency_keys
SET status = 'completed', response_status = $4, response_headers = $5, response_body = $6
WHERE client_id = $1 AND key = $2 AND status = 'in_progress'
  AND ($3::timestamptz IS NULL OR started_at = $3::timestamptz)`,
};

const RELEASE: Statement = {
  name: 'paystate_idempotency_release',
  text: `
DELETE FROM paystate_idempotency_keys
WHERE client_id = $1 AND key = $2 AND status = 'in_progress'
  AND ($3::timestamptz IS NULL OR started_at = $3::timestamptz)`,
};

const PURGE: Statement = {
  name: 'paystate_idempotency_purge',
  text: `DELETE FROM paystate_idempotency_keys WHERE expires_at <= $1`,
};

/** A concurrent first request can commit between the claim and the read of one statement: read again. */
const BEGIN_ATTEMPTS = 5;

/** How often `begin` runs again after a retryable failure (which may have lost a stored answer). */
const LOST_ANSWER_RETRIES = 2;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The failure of the last run of a `begin` of which an earlier run may have reached the server:
 * not `notSent` (that run may have stored the entry), whatever the last one was.
 */
function mayHaveBeenSent(failure: IdempotencyStoreError): IdempotencyStoreError {
  if (failure.notSent !== true) return failure;
  return { code: failure.code, message: failure.message, retryable: failure.retryable };
}

/**
 * The span of times this store writes: years 1 to 9999, which both a `Date` and a `timestamptz`
 * hold and which `toISOString` writes without a sign. `staleAfterMs` and `ttlMs` may be any safe
 * integer (a host may mean "never"), so `now` minus or plus them can fall outside it.
 */
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * The latest start of a stale attempt, `now - staleAfterMs`; null (none is stale) without a limit
 * or when that is before year 1: no attempt started that early.
 */
function staleCutoff(request: IdempotencyBeginRequest): string | null {
  if (request.staleAfterMs === undefined) return null;
  const cutoff = request.now - request.staleAfterMs;
  return cutoff < EARLIEST_MS ? null : iso(cutoff);
}

/** When the entry expires, `now + ttlMs`; past the year 9999 it is kept until then (for ever, in effect). */
const expiry = (request: IdempotencyBeginRequest): string => iso(Math.min(request.now + request.ttlMs, LATEST_MS));

const startedAt = (request: IdempotencySettleRequest): string | null =>
  request.startedAt === undefined ? null : iso(request.startedAt);

function beginOutcome(row: BeginRow, fingerprint: string): IdempotencyBegin {
  if (row.started) return { kind: 'started', reservedId: row.reserved_id, takeover: row.takeover === true };
  if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
  if (row.status === 'completed' && row.response_status !== null) {
    const response: StoredResponse = {
      status: row.response_status,
      headers: row.response_headers ?? {},
      body: row.response_body ?? '',
    };
    return { kind: 'completed', response };
  }
  return { kind: 'in_progress' };
}

/**
 * `Idempotency-Key` storage on Postgres (schema: `migrate`, through migration 8). `begin` is one
 * atomic statement: of concurrent callers with the same client and key, exactly one inserts (or
 * takes over an expired entry, or a stale attempt's) and gets `started`. A key used with another
 * fingerprint is a `mismatch` whatever its state. Stored answers are replayed byte for byte
 * (`text` body). `close()` waits for the database at most `closeTimeoutMs`, then gives up and logs it.
 *
 * @throws RangeError when `closeTimeoutMs` is not a number of ms from 0 (before any pool is made).
 */
export function createPostgresIdempotencyStore(options: PostgresIdempotencyStoreOptions): PostgresIdempotencyStore {
  const closeWithinMs = closeTimeoutMs(options.closeTimeoutMs);
  const connection = resolveConnection(options);
  const { pool } = connection;
  const prepared = options.preparedStatements ?? true;
  const run = <R extends QueryResultRow>(statement: Statement, values: readonly unknown[]) =>
    runStatement<R>(pool, statement, values, prepared);

  return {
    pool,

    async begin(request): Promise<Result<IdempotencyBegin, IdempotencyStoreError>> {
      const values = [
        request.clientId,
        request.key,
        request.fingerprint,
        iso(request.now),
        expiry(request),
        request.reservedId ?? null,
        staleCutoff(request),
      ];
      let failures = 0;
      // Whether a failed run may have reached the server (and stored the entry, its answer lost).
      let maybeSent = false;
      for (let attempt = 0; attempt < BEGIN_ATTEMPTS; attempt++) {
        const result = await run<BeginRow>(BEGIN, values);
        if (result.isErr()) {
          maybeSent ||= result.error.notSent !== true;
          // A lost connection may have lost the answer of a write that was stored: the statement
          // run again finds that entry as this call's own (its reserved id), and answers started.
          // Without a reserved id it could not tell that entry from another request's. The
          // failure is `notSent` only when no run may have reached the server.
          const again = result.error.retryable && request.reservedId !== undefined && failures < LOST_ANSWER_RETRIES;
          if (!again)
            return err(maybeSent ? mayHaveBeenSent(asUnavailable(result.error)) : asUnavailable(result.error));
          failures += 1;
          continue;
        }
        const row = result.value.rows[0];
        if (row !== undefined) return ok(beginOutcome(row, request.fingerprint));
      }
      return err({ code: 'unavailable', message: 'Idempotency key is changing too fast to read', retryable: true });
    },

    async complete(request) {
      const { response } = request;
      const result = await run(COMPLETE, [
        request.clientId,
        request.key,
        startedAt(request),
        response.status,
        JSON.stringify(response.headers),
        response.body,
      ]);
      return result.isErr() ? err(asUnavailable(result.error)) : ok(undefined);
    },

    async release(request) {
      const result = await run(RELEASE, [request.clientId, request.key, startedAt(request)]);
      return result.isErr() ? err(asUnavailable(result.error)) : ok(undefined);
    },

    async purgeExpired(now) {
      const result = await run(PURGE, [iso(now)]);
      return result.isErr() ? err(asUnavailable(result.error)) : ok(result.value.rowCount ?? 0);
    },

    close: poolCloser(connection, {
      what: 'Postgres idempotency store',
      withinMs: closeWithinMs,
      logger: options.logger,
    }),
  };
}
