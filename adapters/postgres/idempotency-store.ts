import { err, ok, type Result } from 'neverthrow';
import type {
  IdempotencyBegin,
  IdempotencyBeginRequest,
  IdempotencySettleRequest,
  IdempotencyStore,
  IdempotencyStoreError,
  StoredResponse,
} from '../../src/ports/idempotency-store.js';
import { openPoolStore, type PoolStore, type PoolStoreOptions, type Statement } from './run-statement.js';

/** Options of `createPostgresIdempotencyStore`: the connection, prepared statements, `close()`'s bound. */
export type PostgresIdempotencyStoreOptions = PoolStoreOptions;

/** The Postgres `IdempotencyStore`, with its pool and `close()`. */
export interface PostgresIdempotencyStore extends IdempotencyStore, Pick<PoolStore, 'pool' | 'close'> {}

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
 * Claims a free or expired key or takes over a stale attempt, else reads the entry (docs/postgres.md#idempotency-keys).
 * $1 client, $2 key, $3 fingerprint, $4 now, $5 expiry, $6 reserved id or null, $7 latest stale start or null.
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

/** A `begin`'s failure when an earlier run may have reached the server (and stored the entry): never `notSent`. */
function mayHaveBeenSent(failure: IdempotencyStoreError): IdempotencyStoreError {
  if (failure.notSent !== true) return failure;
  return { code: failure.code, message: failure.message, retryable: failure.retryable };
}

/** The times this store writes: years 1 to 9999, which a `Date`, a `timestamptz` and `toISOString` all hold. */
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** The latest start of a stale attempt, `now - staleAfterMs`; null (none is stale) without a limit or before year 1. */
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
 * `Idempotency-Key` storage on Postgres: `begin` is one atomic statement, so of concurrent callers one
 * gets `started`. A RangeError for a bad `closeTimeoutMs`, before any pool is made.
 */
export function createPostgresIdempotencyStore(options: PostgresIdempotencyStoreOptions): PostgresIdempotencyStore {
  const { pool, run, close } = openPoolStore(options, 'Postgres idempotency store');

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
          // Run again, it finds an entry whose answer was lost as its own, by the reserved id.
          const again = result.error.retryable && request.reservedId !== undefined && failures < LOST_ANSWER_RETRIES;
          if (!again) return err(maybeSent ? mayHaveBeenSent(result.error) : result.error);
          failures += 1;
          continue;
        }
        const row = result.value.rows[0];
        if (row !== undefined) return ok(beginOutcome(row, request.fingerprint));
      }
      return err({ code: 'unavailable', message: 'Idempotency key is changing too fast to read', retryable: true });
    },

    async complete(request) {
      const { clientId, key, response } = request;
      const { status, headers, body } = response;
      const result = await run(COMPLETE, [clientId, key, startedAt(request), status, JSON.stringify(headers), body]);
      return result.map(() => undefined);
    },

    async release(request) {
      return (await run(RELEASE, [request.clientId, request.key, startedAt(request)])).map(() => undefined);
    },

    async purgeExpired(now) {
      return (await run(PURGE, [iso(now)])).map((result) => result.rowCount ?? 0);
    },

    close,
  };
}
