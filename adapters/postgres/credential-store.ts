import { timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import type { Pool, QueryResult, QueryResultRow } from 'pg';
import { isPartnerId, isProfileId, PARTNER_ID_RULE, PROFILE_ID_RULE } from '../../src/domain/tenancy-ids.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Client, CredentialStore, CredentialStoreError, Profile } from '../../src/ports/credential-store.js';
import type { PortResult } from '../../src/ports/port-result.js';
import {
  clientProblem,
  clockTime,
  foreignProfilesMessage,
  newTokenProblem,
  overlapExpiry,
  TOKEN_ID_PATTERN,
  tokenExpiry,
} from '../../src/ports/credential-provisioning-checks.js';
import {
  invalidInput,
  provisioningError,
  type ClientToken,
  type CredentialInputError,
  type CredentialProvisioning,
  type CredentialProvisioningError,
  type NewClient,
  type ProvisioningFailure,
  type RolledToken,
  type TokenRef,
} from '../../src/ports/credential-provisioning.js';
import { parseSandboxConfig, type SandboxConfig } from '../memory/index.js';
import { clientIdForTokenDigest, systemClock, tokenDigest } from '../shared/index.js';
import { closeTimeoutMs, poolCloser, type PoolCloseOptions } from './bounded-close.js';
import { asUnavailable, classifyPostgresError, classifyStatementFailure } from './classify-error.js';
import { checkOut, resolveConnection, type CheckedOutClient, type PostgresConnectionOptions } from './connection.js';
import { runStatement, statementQuery, type Statement } from './run-statement.js';

/**
 * Options of `createPostgresCredentialStore`: a pool or a connection string, whether to prepare
 * statements, the clock of token expiry, and how long `close()` waits for the database
 * (`closeTimeoutMs`, `logger`).
 */
export type PostgresCredentialStoreOptions = PostgresConnectionOptions &
  PoolCloseOptions & {
    /** Named prepared statements; default true. */
    readonly preparedStatements?: boolean;
    /**
     * Judges token expiry and stamps a token's `createdAt` (not the database's `now()`, as the
     * memory store does); default the system time (`Date.now()`). Instances whose clocks differ
     * judge an expiry that far apart.
     */
    readonly clock?: Clock;
  };

/**
 * `invalid_config`: the sandbox config failed validation; `retired_token`: a config token was
 * retired (revoked, rolled away from, expired, or deleted with its client or by an earlier
 * import) or is being retired (it has an expiry), which an import does not undo; the message names
 * the clients by id. Neither message repeats a token.
 */
export type CredentialImportError =
  | CredentialStoreError
  | { readonly code: 'invalid_config' | 'retired_token'; readonly message: string; readonly retryable: false };

/** The Postgres `CredentialStore`, plus provisioning of profiles, clients and their tokens. */
export interface PostgresCredentialStore extends CredentialStore, CredentialProvisioning {
  readonly pool: Pool;
  /**
   * Adds a profile, renames it or gives it to another partner. A client keeps a profile only
   * while the profile belongs to the client's partner: clients of the partner it leaves lose it.
   * Ids carry the API's prefixes (`profile_…`, `partner_…`): `invalid_profile` otherwise.
   */
  putProfile(profile: Profile): PortResult<void, CredentialStoreError | CredentialInputError>;
  /**
   * Makes the stored profiles and clients exactly those of a sandbox config, in one transaction:
   * profiles, clients and tokens that are not in it are deleted (they are retired for good, tokens
   * added or rolled to since included), the others are added or updated (a config token that works
   * now for another client, added or rolled to at run time, moves to its config client). A config
   * token that was retired (revoked, rolled away from, expired, deleted with its client or by an
   * earlier import) or is being retired (rolled with an overlap, or added with an expiry) is refused
   * (`retired_token`, naming its client), and nothing is changed: an import never brings a
   * retired token back, nor lifts an expiry. Give that client a new token in the config.
   */
  importConfig(
    config: SandboxConfig,
  ): PortResult<{ readonly profiles: number; readonly clients: number }, CredentialImportError>;
  /**
   * Ends the pool if the store created it, waiting for the database at most `closeTimeoutMs`
   * (default 5 s): then it logs what it gave up (to `logger`) and resolves, and the connections
   * still waiting for the server are closed. Does nothing to a host's pool. Never rejects. Later
   * calls give the same promise.
   */
  close(): Promise<void>;
}

interface ClientRow {
  readonly id: string;
  readonly partner_id: string;
  readonly profile_ids: string[];
  readonly pci_dss_compliant: boolean;
}

/** A token row; times as epoch ms (`int8`, which `pg` hands over as text). */
interface TokenRow {
  readonly token_sha256: Buffer;
  /** Random, made by the column's default (migration 14). */
  readonly token_id: string;
  readonly created_at: string;
  readonly expires_at: string | null;
}

/** Epoch milliseconds of a `timestamptz` column, as `int8`: no rounding, no time zone. */
const ms = (column: string) => `(extract(epoch FROM ${column}) * 1000)::int8`;

/** A token that works at `$n`: no expiry, or a later one. */
const works = (alias: string, now: string) => `(${alias}.expires_at IS NULL OR ${alias}.expires_at > ${now})`;

/**
 * The client of a token digest, with the token's expiry (judged by the caller, by its clock), and
 * only the profiles that belong to the client's partner now (a profile given to another partner
 * since the client was stored is no longer the client's), in order.
 */
const AUTHENTICATE: Statement = {
  name: 'paystate_client_by_token_v4',
  text: `
SELECT t.token_sha256, t.token_id, ${ms('t.expires_at')} AS expires_at, c.id, c.partner_id, c.pci_dss_compliant,
  ARRAY(
    SELECT u.profile_id FROM unnest(c.profile_ids) WITH ORDINALITY AS u(profile_id, position)
    JOIN paystate_profiles p ON p.id = u.profile_id AND p.partner_id = c.partner_id
    ORDER BY u.position
  ) AS profile_ids
FROM paystate_client_tokens t JOIN paystate_clients c ON c.id = t.client_id
WHERE t.token_sha256 = $1`,
};

const FIND_PROFILE: Statement = {
  name: 'paystate_profile_by_id',
  text: `SELECT id, partner_id, name FROM paystate_profiles WHERE id = $1`,
};

const PUT_PROFILE: Statement = {
  name: 'paystate_profile_put',
  text: `
INSERT INTO paystate_profiles (id, partner_id, name) VALUES ($1, $2, $3)
ON CONFLICT (id) DO UPDATE SET partner_id = EXCLUDED.partner_id, name = EXCLUDED.name`,
};

/** Whether every profile of $2 exists and belongs to partner $1. */
const PROFILES_ALLOWED: Statement = {
  name: 'paystate_client_profiles_allowed',
  text: `
SELECT NOT EXISTS (
  SELECT 1 FROM unnest($2::text[]) AS u(profile_id)
  LEFT JOIN paystate_profiles p ON p.id = u.profile_id AND p.partner_id = $1
  WHERE p.id IS NULL
) AS allowed`,
};

/**
 * Deletes the row of digest $1 if it expired at $2: it is retired for good (migration 10's trigger
 * keeps its digest). A single statement that locks that row only, so it cannot deadlock with the
 * changes that lock the client first.
 */
const PURGE_EXPIRED_DIGEST: Statement = {
  name: 'paystate_token_purge_expired_digest',
  text: `DELETE FROM paystate_client_tokens WHERE token_sha256 = $1 AND expires_at <= $2`,
};

/** Retires a client's expired tokens, and an expired row of digest $2 (whoever's; null: none). */
const PURGE_EXPIRED: Statement = {
  name: 'paystate_token_purge_expired',
  text: `DELETE FROM paystate_client_tokens WHERE (client_id = $1 OR token_sha256 = $2) AND expires_at <= $3`,
};

/**
 * The client of a digest, locked (the client's row, not the token's: every change of a client's
 * tokens locks the client first, so the token cannot be revoked or moved meanwhile, and the
 * locks are taken in the same order everywhere).
 */
const TOKEN_OWNER: Statement = {
  name: 'paystate_token_owner_v2',
  text: `
SELECT c.id AS client_id FROM paystate_client_tokens t JOIN paystate_clients c ON c.id = t.client_id
WHERE t.token_sha256 = $1 FOR UPDATE OF c`,
};

/** The client of a digest that works at $2. */
const WORKING_TOKEN_CLIENT: Statement = {
  name: 'paystate_token_client',
  text: `SELECT client_id FROM paystate_client_tokens t WHERE t.token_sha256 = $1 AND ${works('t', '$2')}`,
};

/** Locks a client: every change of its tokens takes this lock first, so they happen one after another. */
const LOCK_CLIENT: Statement = {
  name: 'paystate_client_lock',
  text: `SELECT id FROM paystate_clients WHERE id = $1 FOR UPDATE`,
};

/** A client's tokens that work at $2, locked. */
const WORKING_TOKENS: Statement = {
  name: 'paystate_client_working_tokens_v2',
  text: `
SELECT t.token_sha256, t.token_id, ${ms('t.created_at')} AS created_at, ${ms('t.expires_at')} AS expires_at
FROM paystate_client_tokens t WHERE t.client_id = $1 AND ${works('t', '$2')}
ORDER BY t.created_at, t.token_sha256 FOR UPDATE`,
};

const UPDATE_CLIENT: Statement = {
  name: 'paystate_client_update',
  text: `
UPDATE paystate_clients SET partner_id = $2, profile_ids = $3::text[], pci_dss_compliant = $4 WHERE id = $1
RETURNING id, partner_id, profile_ids, pci_dss_compliant`,
};

const INSERT_CLIENT: Statement = {
  name: 'paystate_client_insert',
  text: `
INSERT INTO paystate_clients (id, partner_id, profile_ids, pci_dss_compliant) VALUES ($1, $2, $3::text[], $4)
ON CONFLICT (id) DO NOTHING
RETURNING id, partner_id, profile_ids, pci_dss_compliant`,
};

/**
 * Returns no row when the digest is taken (after waiting for a writer of the same digest); fails
 * with `RETIRED_TOKEN_SQLSTATE` when the digest is retired (migration 10's trigger).
 */
const INSERT_TOKEN: Statement = {
  name: 'paystate_token_insert_v2',
  text: `
INSERT INTO paystate_client_tokens (token_sha256, client_id, created_at, expires_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (token_sha256) DO NOTHING
RETURNING token_sha256, token_id, ${ms('created_at')} AS created_at, ${ms('expires_at')} AS expires_at`,
};

/** Gives tokens $1 the expiry $2, unless they expire sooner already. */
const RETIRE_TOKENS: Statement = {
  name: 'paystate_tokens_retire',
  text: `UPDATE paystate_client_tokens SET expires_at = LEAST(expires_at, $2) WHERE token_sha256 = ANY($1::bytea[])`,
};

const DELETE_TOKENS: Statement = {
  name: 'paystate_tokens_delete',
  text: `DELETE FROM paystate_client_tokens WHERE token_sha256 = ANY($1::bytea[])`,
};

const DELETE_CLIENT: Statement = {
  name: 'paystate_client_delete',
  text: `DELETE FROM paystate_clients WHERE id = $1`,
};

/** Deletes the client of a token that works at $2, with all its tokens (the foreign key cascades). */
const REMOVE_CLIENT: Statement = {
  name: 'paystate_client_remove_v2',
  text: `
DELETE FROM paystate_clients c USING paystate_client_tokens t
WHERE t.client_id = c.id AND t.token_sha256 = $1 AND ${works('t', '$2')}`,
};

/** One row per token of the client that works at $2 (one row with null token columns: none); no row: no client. */
const LIST_TOKENS: Statement = {
  name: 'paystate_client_tokens_list_v2',
  text: `
SELECT t.token_sha256, t.token_id, ${ms('t.created_at')} AS created_at, ${ms('t.expires_at')} AS expires_at
FROM paystate_clients c LEFT JOIN paystate_client_tokens t ON t.client_id = c.id AND ${works('t', '$2')}
WHERE c.id = $1
ORDER BY t.created_at, t.token_sha256`,
};

/** `importConfig`: a config client, added or updated by id, unless its profiles are not its partner's. */
const IMPORT_CLIENT: Statement = {
  name: 'paystate_client_import',
  text: `
INSERT INTO paystate_clients (id, partner_id, profile_ids, pci_dss_compliant)
SELECT $1, $2, $3::text[], $4
WHERE NOT EXISTS (
  SELECT 1 FROM unnest($3::text[]) AS u(profile_id)
  LEFT JOIN paystate_profiles p ON p.id = u.profile_id AND p.partner_id = $2
  WHERE p.id IS NULL
)
ON CONFLICT (id) DO UPDATE
SET partner_id = EXCLUDED.partner_id, profile_ids = EXCLUDED.profile_ids, pci_dss_compliant = EXCLUDED.pci_dss_compliant`,
};

/** `importConfig`: a config token, given to its client without an expiry (kept `created_at` if it was the client's). */
const IMPORT_TOKEN: Statement = {
  name: 'paystate_token_import',
  text: `
INSERT INTO paystate_client_tokens AS t (token_sha256, client_id, created_at) VALUES ($1, $2, $3)
ON CONFLICT (token_sha256) DO UPDATE
SET client_id = EXCLUDED.client_id, expires_at = NULL,
  created_at = CASE WHEN t.client_id = EXCLUDED.client_id THEN t.created_at ELSE EXCLUDED.created_at END`,
};

/**
 * `importConfig`: the config digests of $1 that are retired, or that have a row with an expiry
 * (epoch ms; expired or not), with the client each gives.
 */
const RETIRED_CONFIG_TOKENS: Statement = {
  name: 'paystate_config_tokens_retired',
  text: `
SELECT d.token_sha256, (r.token_sha256 IS NOT NULL) AS retired, ${ms('t.expires_at')} AS expires_at
FROM unnest($1::bytea[]) AS d(token_sha256)
LEFT JOIN paystate_retired_tokens r ON r.token_sha256 = d.token_sha256
LEFT JOIN paystate_client_tokens t ON t.token_sha256 = d.token_sha256
WHERE r.token_sha256 IS NOT NULL OR t.expires_at IS NOT NULL`,
};

/** What migration 10's trigger raises for a retired digest stored again. */
const RETIRED_TOKEN_SQLSTATE = 'PSRT1';

/**
 * `importConfig`: locks every client first, in one order, as every other change of a client's
 * tokens does before it touches a token row (taken the other way round, a roll or revoke meanwhile
 * deadlocks with the import).
 */
const LOCK_ALL_CLIENTS: Statement = {
  name: 'paystate_clients_lock_all',
  text: `SELECT id FROM paystate_clients ORDER BY id FOR UPDATE`,
};
/** `importConfig`: keeps the clients whose ids are in $1 (their tokens go with the others). */
const KEEP_CLIENTS: Statement = {
  name: 'paystate_clients_keep',
  text: `DELETE FROM paystate_clients WHERE NOT (id = ANY($1::text[]))`,
};
/** `importConfig`: keeps the tokens whose digests are in $1. */
const KEEP_TOKENS: Statement = {
  name: 'paystate_tokens_keep',
  text: `DELETE FROM paystate_client_tokens WHERE NOT (token_sha256 = ANY($1::bytea[]))`,
};
/** `importConfig`: keeps the profiles whose ids are in $1. */
const KEEP_PROFILES: Statement = {
  name: 'paystate_profiles_keep',
  text: `DELETE FROM paystate_profiles WHERE NOT (id = ANY($1::text[]))`,
};

/** The client of a row; `tokenId` when a token authenticated it. */
const clientOf = (row: ClientRow, tokenId?: string): Client =>
  Object.freeze({
    id: row.id,
    partnerId: row.partner_id,
    profileIds: Object.freeze([...row.profile_ids]),
    pciDssCompliant: row.pci_dss_compliant,
    ...(tokenId !== undefined && { tokenId }),
  });

const timeOf = (value: string | null): number | null => (value === null ? null : Number(value));

const listed = (row: TokenRow): ClientToken =>
  Object.freeze({
    tokenId: row.token_id,
    createdAt: Number(row.created_at),
    expiresAt: timeOf(row.expires_at),
  });

const iso = (time: number): string => new Date(time).toISOString();

/** Whether a stored token is the one `ref` names (`ref` by token: its digest is `digest`). */
const named = (row: TokenRow, ref: TokenRef, digest: Buffer | null): boolean =>
  digest !== null
    ? row.token_sha256.length === digest.length && timingSafeEqual(row.token_sha256, digest)
    : !('token' in ref) && row.token_id === ref.tokenId;

/** Runs one statement of a transaction; throws what `pg` throws. */
type Run = <R extends QueryResultRow>(statement: Statement, values: readonly unknown[]) => Promise<QueryResult<R>>;

/**
 * Stores a token row (`INSERT_TOKEN`): `token_in_use` when the digest is another row's,
 * `token_retired` when it was retired (the transaction is then aborted: answer the error).
 */
async function insertToken(
  query: Run,
  values: readonly unknown[],
): Promise<Result<TokenRow, CredentialProvisioningError>> {
  try {
    const row = (await query<TokenRow>(INSERT_TOKEN, values)).rows[0];
    return row === undefined ? err(provisioningError('token_in_use')) : ok(row);
  } catch (error) {
    const code = typeof error === 'object' && error !== null ? (error as { readonly code?: unknown }).code : undefined;
    if (code === RETIRED_TOKEN_SQLSTATE) return err(provisioningError('token_retired'));
    throw error;
  }
}

/** Why an import refuses config tokens that are retired or being retired, naming their clients; null: none. */
function retiredConfigMessage(
  rows: readonly { readonly token_sha256: Buffer; readonly retired: boolean; readonly expires_at: string | null }[],
  now: number,
): string | null {
  if (rows.length === 0) return null;
  const clients = rows.map((row) => {
    const id = clientIdForTokenDigest(row.token_sha256);
    const expiresAt = timeOf(row.expires_at);
    return row.retired || (expiresAt !== null && expiresAt <= now)
      ? `${id} (retired)`
      : `${id} (being retired: it stops working at ${iso(expiresAt ?? now)})`;
  });
  return (
    `The config's tokens of these clients were revoked, rolled away from, expired or deleted, or are ` +
    `being rolled away from, and an import never brings a retired token back nor lifts an expiry: ` +
    `${clients.join(', ')}. Give each of them a new token in the config`
  );
}

/**
 * API clients, their tokens and profiles on Postgres (schema: `migrate`). Tokens are kept only as
 * SHA-256 digests (`paystate_client_tokens`, several per client, each with an optional expiry
 * judged by `options.clock`, and a random id the database made, the same for every instance): a presented token is hashed, its row found by the digest (an index
 * lookup, which can only leak timing about a digest, not about a token) and confirmed with
 * `timingSafeEqual`. A deleted token row is retired for good (migration 10 keeps its digest, and
 * refuses it from then on: `token_retired`); an expired token is deleted when it is presented or
 * its client changed. Every change of a client's tokens locks the client's row first, so changes
 * of one client happen one after another, across instances too. `close()` waits for the database
 * at most `closeTimeoutMs`, then gives up and logs it.
 *
 * @throws RangeError when `closeTimeoutMs` is not a number of ms from 0 (before any pool is made).
 */
export function createPostgresCredentialStore(options: PostgresCredentialStoreOptions): PostgresCredentialStore {
  const closeWithinMs = closeTimeoutMs(options.closeTimeoutMs);
  const connection = resolveConnection(options);
  const { pool } = connection;
  const prepared = options.preparedStatements ?? true;
  const clock = options.clock ?? systemClock;
  const run = <R extends QueryResultRow>(statement: Statement, values: readonly unknown[]) =>
    runStatement<R>(pool, statement, values, prepared);

  /**
   * Runs `work` in one transaction on one connection: committed when it answers ok, rolled back
   * when it answers an error or anything throws (then `unavailable`, classified; `notSent` when no
   * connection could be had, so nothing of it was stored).
   */
  const transaction = async <T, E>(
    work: (run: Run) => Promise<Result<T, E>>,
  ): Promise<Result<T, E | CredentialStoreError>> => {
    let checkedOut: CheckedOutClient;
    try {
      checkedOut = await checkOut(pool);
    } catch (error) {
      // No connection: nothing of the transaction was sent.
      return err(asUnavailable(classifyStatementFailure(error, 'connect')));
    }
    const { client } = checkedOut;
    let broken = false;
    const query: Run = (statement, values) => client.query(statementQuery(statement, values, prepared));
    try {
      await client.query('BEGIN');
      const result = await work(query);
      await client.query(result.isOk() ? 'COMMIT' : 'ROLLBACK');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      return err(asUnavailable(classifyPostgresError(error)));
    } finally {
      checkedOut.release(broken);
    }
  };

  /** One attempt of `putClient`, in a transaction. */
  const putClientOnce = (client: NewClient, digest: Buffer, now: number) =>
    transaction(async (query): Promise<Result<Client, ProvisioningFailure>> => {
      await query(PURGE_EXPIRED_DIGEST, [digest, iso(now)]);
      const owner = (await query<{ client_id: string }>(TOKEN_OWNER, [digest])).rows[0]?.client_id;
      if (owner !== undefined && client.id !== undefined && owner !== client.id) {
        return err(provisioningError('token_in_use'));
      }
      const allowed = await query<{ allowed: boolean }>(PROFILES_ALLOWED, [client.partnerId, [...client.profileIds]]);
      if (allowed.rows[0]?.allowed !== true) {
        return err(invalidInput('invalid_client', foreignProfilesMessage(client.partnerId)));
      }
      const attributes = [client.partnerId, [...client.profileIds], client.pciDssCompliant];
      if (owner !== undefined) {
        // The owner's row is locked, so the client cannot be deleted, nor its tokens changed, meanwhile.
        const updated = await query<ClientRow>(UPDATE_CLIENT, [owner, ...attributes]);
        return ok(clientOf(updated.rows[0] as ClientRow));
      }
      const id = client.id ?? clientIdForTokenDigest(digest);
      const inserted = (await query<ClientRow>(INSERT_CLIENT, [id, ...attributes])).rows[0];
      if (inserted === undefined) return err(provisioningError('client_exists'));
      const token = await insertToken(query, [digest, id, iso(now), null]);
      return token.isOk() ? ok(clientOf(inserted)) : err(token.error);
    });

  /** Finds the tokens `ref` names that work at `now`, with their client locked; null client: none such. */
  const lockNamed = async (
    query: Run,
    ref: TokenRef,
    now: number,
  ): Promise<{ readonly clientId: string | null; readonly named: TokenRow[]; readonly others: TokenRow[] }> => {
    const digest = 'token' in ref ? tokenDigest(ref.token) : null;
    let clientId: string | undefined;
    if (digest !== null) {
      // A token presented and found expired is retired for good. Before the client's lock, but
      // safe: it locks that one row or none, and once it deleted the row it takes no other lock.
      await query(PURGE_EXPIRED_DIGEST, [digest, iso(now)]);
      clientId = (await query<{ client_id: string }>(WORKING_TOKEN_CLIENT, [digest, iso(now)])).rows[0]?.client_id;
    } else if (!('token' in ref)) {
      clientId = ref.clientId;
    }
    if (clientId === undefined) return { clientId: null, named: [], others: [] };
    if ((await query(LOCK_CLIENT, [clientId])).rowCount !== 1) return { clientId: null, named: [], others: [] };
    await query(PURGE_EXPIRED, [clientId, null, iso(now)]);
    const rows = (await query<TokenRow>(WORKING_TOKENS, [clientId, iso(now)])).rows;
    const wanted = digest !== null || ('tokenId' in ref && TOKEN_ID_PATTERN.test(ref.tokenId));
    return {
      clientId,
      named: wanted ? rows.filter((row) => named(row, ref, digest)) : [],
      others: rows.filter((row) => !wanted || !named(row, ref, digest)),
    };
  };

  const provisioning: CredentialProvisioning = {
    async putClient(client) {
      const problem = clientProblem(client);
      if (problem !== null) return err(invalidInput('invalid_client', problem));
      const digest = tokenDigest(client.token);
      const first = await putClientOnce(client, digest, clockTime(clock));
      // A `client_exists` or `token_in_use` may come from a writer of the same token or id that
      // committed while this attempt ran (its snapshot did not show it): the second attempt sees it.
      if (first.isOk() || (first.error.code !== 'client_exists' && first.error.code !== 'token_in_use')) return first;
      return putClientOnce(client, digest, clockTime(clock));
    },

    async removeClient(token) {
      const digest = tokenDigest(token);
      const now = iso(clockTime(clock));
      // A token presented and found expired is retired for good.
      const purged = await run(PURGE_EXPIRED_DIGEST, [digest, now]);
      if (purged.isErr()) return err(asUnavailable(purged.error));
      const result = await run(REMOVE_CLIENT, [digest, now]);
      return result.isErr() ? err(asUnavailable(result.error)) : ok((result.value.rowCount ?? 0) > 0);
    },

    async addToken(request) {
      const problem = newTokenProblem(request.token);
      if (problem !== null) return err(problem);
      const now = clockTime(clock);
      const expiry = tokenExpiry(now, request.expiresAt);
      if (expiry.isErr()) return err(expiry.error);
      const digest = tokenDigest(request.token);
      return transaction(async (query): Promise<Result<ClientToken, ProvisioningFailure>> => {
        if ((await query(LOCK_CLIENT, [request.clientId])).rowCount !== 1) {
          return err(provisioningError('unknown_client'));
        }
        await query(PURGE_EXPIRED, [request.clientId, digest, iso(now)]);
        const expiresAt = expiry.value === null ? null : iso(expiry.value);
        const added = await insertToken(query, [digest, request.clientId, iso(now), expiresAt]);
        return added.isOk() ? ok(listed(added.value)) : err(added.error);
      });
    },

    async rollToken(roll) {
      const problem = newTokenProblem(roll.token);
      if (problem !== null) return err(problem);
      const now = clockTime(clock);
      const until = overlapExpiry(now, roll.overlapMs);
      if (until.isErr()) return err(until.error);
      const digest = tokenDigest(roll.token);
      return transaction(async (query): Promise<Result<RolledToken, ProvisioningFailure>> => {
        const { clientId, named: old } = await lockNamed(query, roll.old, now);
        if (clientId === null) return err(provisioningError('token' in roll.old ? 'unknown_token' : 'unknown_client'));
        if (old.length === 0) return err(provisioningError('unknown_token'));
        await query(PURGE_EXPIRED, [clientId, digest, iso(now)]);
        const inserted = await insertToken(query, [digest, clientId, iso(now), null]);
        if (inserted.isErr()) return err(inserted.error);
        const added = inserted.value;
        const digests = old.map((row) => row.token_sha256);
        if (until.value <= now) await query(DELETE_TOKENS, [digests]);
        else await query(RETIRE_TOKENS, [digests, iso(until.value)]);
        const retired = old[0] as TokenRow;
        const before = timeOf(retired.expires_at);
        const expiresAt = before === null ? until.value : Math.min(before, until.value);
        return ok({ added: listed(added), retired: { ...listed(retired), expiresAt } });
      });
    },

    async revokeToken(ref) {
      const now = clockTime(clock);
      return transaction(async (query): Promise<Result<boolean, CredentialStoreError>> => {
        const { clientId, named: revoked, others } = await lockNamed(query, ref, now);
        if (clientId === null || revoked.length === 0) return ok(false);
        if (others.length === 0) await query(DELETE_CLIENT, [clientId]);
        else await query(DELETE_TOKENS, [revoked.map((row) => row.token_sha256)]);
        return ok(true);
      });
    },

    async listTokens(clientId) {
      const result = await run<TokenRow>(LIST_TOKENS, [clientId, iso(clockTime(clock))]);
      if (result.isErr()) return err(asUnavailable(result.error));
      const rows = result.value.rows;
      if (rows.length === 0) return ok(null);
      return ok(rows.filter((row) => row.token_sha256 !== null).map(listed));
    },
  };

  return {
    pool,
    ...provisioning,

    async authenticate(token): Promise<Result<Client | null, CredentialStoreError>> {
      const digest = tokenDigest(token);
      const result = await run<ClientRow & { token_sha256: Buffer; token_id: string; expires_at: string | null }>(
        AUTHENTICATE,
        [digest],
      );
      if (result.isErr()) return err(asUnavailable(result.error));
      const row = result.value.rows[0];
      if (row === undefined || row.token_sha256.length !== digest.length) return ok(null);
      if (!timingSafeEqual(row.token_sha256, digest)) return ok(null);
      const expiresAt = timeOf(row.expires_at);
      const now = clockTime(clock);
      if (expiresAt === null || now < expiresAt) return ok(clientOf(row, row.token_id));
      // Seen expired: retired for good, so a clock that goes back does not let it in again. The
      // answer is no one either way; a failure to record it only leaves it to the next look.
      await run(PURGE_EXPIRED_DIGEST, [digest, iso(now)]);
      return ok(null);
    },

    async findProfile(profileId) {
      const result = await run<{ id: string; partner_id: string; name: string }>(FIND_PROFILE, [profileId]);
      if (result.isErr()) return err(asUnavailable(result.error));
      const row = result.value.rows[0];
      return ok(row === undefined ? null : Object.freeze({ id: row.id, partnerId: row.partner_id, name: row.name }));
    },

    async putProfile(profile) {
      if (!isProfileId(profile.id)) {
        return err(invalidInput('invalid_profile', `The profile id must be ${PROFILE_ID_RULE}`));
      }
      if (!isPartnerId(profile.partnerId)) {
        return err(invalidInput('invalid_profile', `The partner id must be ${PARTNER_ID_RULE}`));
      }
      if (profile.name.length === 0) return err(invalidInput('invalid_profile', 'The profile name must not be empty'));
      const result = await run(PUT_PROFILE, [profile.id, profile.partnerId, profile.name]);
      return result.isErr() ? err(asUnavailable(result.error)) : ok(undefined);
    },

    async importConfig(config) {
      const parsed = parseSandboxConfig(config);
      if (parsed.isErr()) return err({ code: 'invalid_config', message: parsed.error.message, retryable: false });
      const valid = parsed.value;
      const time = clockTime(clock);
      const now = iso(time);
      const clients = valid.clients.map((entry) => {
        const digest = tokenDigest(entry.token);
        return {
          id: clientIdForTokenDigest(digest),
          digest,
          values: [entry.partner_id, [...entry.profile_ids], entry.pci_dss_compliant],
        };
      });
      return transaction(async (query) => {
        await query(LOCK_ALL_CLIENTS, []);
        const retired = await query<{ token_sha256: Buffer; retired: boolean; expires_at: string | null }>(
          RETIRED_CONFIG_TOKENS,
          [clients.map((client) => client.digest)],
        );
        const refusal = retiredConfigMessage(retired.rows, time);
        if (refusal !== null)
          return err({ code: 'retired_token' as const, message: refusal, retryable: false as const });
        const profileIds = valid.partners.flatMap((partner) => partner.profiles.map((profile) => profile.id));
        for (const partner of valid.partners) {
          for (const profile of partner.profiles) await query(PUT_PROFILE, [profile.id, partner.id, profile.name]);
        }
        // The config's tokens go to their clients before anything is deleted: a config token that
        // works now for a client the config leaves out (added to it, or rolled to, at run time) is
        // moved, not deleted with that client, which would retire it for good.
        for (const client of clients) {
          const stored = await query(IMPORT_CLIENT, [client.id, ...client.values]);
          if (stored.rowCount !== 1) throw new Error('a validated client was not stored');
          await query(IMPORT_TOKEN, [client.digest, client.id, now]);
        }
        await query(KEEP_TOKENS, [clients.map((client) => client.digest)]);
        await query(KEEP_CLIENTS, [clients.map((client) => client.id)]);
        await query(KEEP_PROFILES, [profileIds]);
        return ok({ profiles: profileIds.length, clients: clients.length });
      });
    },

    close: poolCloser(connection, {
      what: 'Postgres credential store',
      withinMs: closeWithinMs,
      logger: options.logger,
    }),
  };
}
