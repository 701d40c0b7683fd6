import type { Statement } from './run-statement.js';

/*
 * The SQL of the credential store. Every change of a client's tokens locks the client's row first,
 * so changes of one client happen one after another (docs/postgres.md#credentials).
 */

/** Epoch milliseconds of a `timestamptz` column, as `int8`: no rounding, no time zone. */
const ms = (column: string) => `(extract(epoch FROM ${column}) * 1000)::int8`;

/** A token that works at `now`: no expiry, or a later one. */
const works = (alias: string, now: string) => `(${alias}.expires_at IS NULL OR ${alias}.expires_at > ${now})`;

/** The token columns a `TokenRow` holds, of alias `t` (none: the bare columns). */
const tokenColumns = (t: string) =>
  `${t}token_sha256, ${t}token_id, ${ms(`${t}created_at`)} AS created_at, ${ms(`${t}expires_at`)} AS expires_at`;

/** Whether every profile of `profiles` exists and belongs to `partner`. */
const profilesOf = (partner: string, profiles: string) => `NOT EXISTS (
  SELECT 1 FROM unnest(${profiles}::text[]) AS u(profile_id)
  LEFT JOIN paystate_profiles p ON p.id = u.profile_id AND p.partner_id = ${partner}
  WHERE p.id IS NULL
)`;

/** What migration 10's trigger raises for a retired digest stored again. */
export const RETIRED_TOKEN_SQLSTATE = 'PSRT1';

/** The client of a token digest, with the token's expiry, and only the profiles its partner holds now, in order. */
export const AUTHENTICATE: Statement = {
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

export const FIND_PROFILE: Statement = {
  name: 'paystate_profile_by_id',
  text: `SELECT id, partner_id, name FROM paystate_profiles WHERE id = $1`,
};

export const PUT_PROFILE: Statement = {
  name: 'paystate_profile_put',
  text: `
INSERT INTO paystate_profiles (id, partner_id, name) VALUES ($1, $2, $3)
ON CONFLICT (id) DO UPDATE SET partner_id = EXCLUDED.partner_id, name = EXCLUDED.name`,
};

export const PROFILES_ALLOWED: Statement = {
  name: 'paystate_client_profiles_allowed',
  text: `SELECT ${profilesOf('$1', '$2')} AS allowed`,
};

/** Retires digest $1 if it expired at $2; locks that row only, so it cannot deadlock with a client's lock. */
export const PURGE_EXPIRED_DIGEST: Statement = {
  name: 'paystate_token_purge_expired_digest',
  text: `DELETE FROM paystate_client_tokens WHERE token_sha256 = $1 AND expires_at <= $2`,
};

/** Retires a client's expired tokens, and an expired row of digest $2 (whoever's; null: none). */
export const PURGE_EXPIRED: Statement = {
  name: 'paystate_token_purge_expired',
  text: `DELETE FROM paystate_client_tokens WHERE (client_id = $1 OR token_sha256 = $2) AND expires_at <= $3`,
};

/** The client of a digest, its row locked (the client's, not the token's: the lock order everywhere). */
export const TOKEN_OWNER: Statement = {
  name: 'paystate_token_owner_v2',
  text: `
SELECT c.id AS client_id FROM paystate_client_tokens t JOIN paystate_clients c ON c.id = t.client_id
WHERE t.token_sha256 = $1 FOR UPDATE OF c`,
};

/** The client of a digest that works at $2. */
export const WORKING_TOKEN_CLIENT: Statement = {
  name: 'paystate_token_client',
  text: `SELECT client_id FROM paystate_client_tokens t WHERE t.token_sha256 = $1 AND ${works('t', '$2')}`,
};

/** Locks a client: every change of its tokens takes this lock first. */
export const LOCK_CLIENT: Statement = {
  name: 'paystate_client_lock',
  text: `SELECT id FROM paystate_clients WHERE id = $1 FOR UPDATE`,
};

/** A client's tokens that work at $2, locked. */
export const WORKING_TOKENS: Statement = {
  name: 'paystate_client_working_tokens_v2',
  text: `
SELECT ${tokenColumns('t.')}
FROM paystate_client_tokens t WHERE t.client_id = $1 AND ${works('t', '$2')}
ORDER BY t.created_at, t.token_sha256 FOR UPDATE`,
};

const CLIENT_COLUMNS = 'id, partner_id, profile_ids, pci_dss_compliant';

export const UPDATE_CLIENT: Statement = {
  name: 'paystate_client_update',
  text: `
UPDATE paystate_clients SET partner_id = $2, profile_ids = $3::text[], pci_dss_compliant = $4 WHERE id = $1
RETURNING ${CLIENT_COLUMNS}`,
};

export const INSERT_CLIENT: Statement = {
  name: 'paystate_client_insert',
  text: `
INSERT INTO paystate_clients (${CLIENT_COLUMNS}) VALUES ($1, $2, $3::text[], $4)
ON CONFLICT (id) DO NOTHING
RETURNING ${CLIENT_COLUMNS}`,
};

/** No row when the digest is taken; fails with `RETIRED_TOKEN_SQLSTATE` when it is retired. */
export const INSERT_TOKEN: Statement = {
  name: 'paystate_token_insert_v2',
  text: `
INSERT INTO paystate_client_tokens (token_sha256, client_id, created_at, expires_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (token_sha256) DO NOTHING
RETURNING ${tokenColumns('')}`,
};

/** Gives tokens $1 the expiry $2, unless they expire sooner already. */
export const RETIRE_TOKENS: Statement = {
  name: 'paystate_tokens_retire',
  text: `UPDATE paystate_client_tokens SET expires_at = LEAST(expires_at, $2) WHERE token_sha256 = ANY($1::bytea[])`,
};

export const DELETE_TOKENS: Statement = {
  name: 'paystate_tokens_delete',
  text: `DELETE FROM paystate_client_tokens WHERE token_sha256 = ANY($1::bytea[])`,
};

export const DELETE_CLIENT: Statement = {
  name: 'paystate_client_delete',
  text: `DELETE FROM paystate_clients WHERE id = $1`,
};

/** Deletes the client of a token that works at $2, with all its tokens (the foreign key cascades). */
export const REMOVE_CLIENT: Statement = {
  name: 'paystate_client_remove_v2',
  text: `
DELETE FROM paystate_clients c USING paystate_client_tokens t
WHERE t.client_id = c.id AND t.token_sha256 = $1 AND ${works('t', '$2')}`,
};

/** A row per token of the client that works at $2 (one with null token columns: none); no row: no client. */
export const LIST_TOKENS: Statement = {
  name: 'paystate_client_tokens_list_v2',
  text: `
SELECT ${tokenColumns('t.')}
FROM paystate_clients c LEFT JOIN paystate_client_tokens t ON t.client_id = c.id AND ${works('t', '$2')}
WHERE c.id = $1
ORDER BY t.created_at, t.token_sha256`,
};

/** `importConfig`: a config client, added or updated by id, unless its profiles are not its partner's. */
export const IMPORT_CLIENT: Statement = {
  name: 'paystate_client_import',
  text: `
INSERT INTO paystate_clients (${CLIENT_COLUMNS})
SELECT $1, $2, $3::text[], $4
WHERE ${profilesOf('$2', '$3')}
ON CONFLICT (id) DO UPDATE
SET partner_id = EXCLUDED.partner_id, profile_ids = EXCLUDED.profile_ids, pci_dss_compliant = EXCLUDED.pci_dss_compliant`,
};

/** `importConfig`: a config token, given to its client without an expiry (kept `created_at` if it was the client's). */
export const IMPORT_TOKEN: Statement = {
  name: 'paystate_token_import',
  text: `
INSERT INTO paystate_client_tokens AS t (token_sha256, client_id, created_at) VALUES ($1, $2, $3)
ON CONFLICT (token_sha256) DO UPDATE
SET client_id = EXCLUDED.client_id, expires_at = NULL,
  created_at = CASE WHEN t.client_id = EXCLUDED.client_id THEN t.created_at ELSE EXCLUDED.created_at END`,
};

/** `importConfig`: the config digests of $1 that are retired or have an expiry, with the client each gives. */
export const RETIRED_CONFIG_TOKENS: Statement = {
  name: 'paystate_config_tokens_retired',
  text: `
SELECT d.token_sha256, (r.token_sha256 IS NOT NULL) AS retired, ${ms('t.expires_at')} AS expires_at
FROM unnest($1::bytea[]) AS d(token_sha256)
LEFT JOIN paystate_retired_tokens r ON r.token_sha256 = d.token_sha256
LEFT JOIN paystate_client_tokens t ON t.token_sha256 = d.token_sha256
WHERE r.token_sha256 IS NOT NULL OR t.expires_at IS NOT NULL`,
};

/** `importConfig`: locks every client first, in one order, as every change of a client's tokens does. */
export const LOCK_ALL_CLIENTS: Statement = {
  name: 'paystate_clients_lock_all',
  text: `SELECT id FROM paystate_clients ORDER BY id FOR UPDATE`,
};

/** `importConfig`: keeps the clients, tokens and profiles named in $1, deleting the others. */
const keep = (name: string, table: string, column: string, type: string): Statement => ({
  name,
  text: `DELETE FROM ${table} WHERE NOT (${column} = ANY($1::${type}[]))`,
});
export const KEEP_CLIENTS = keep('paystate_clients_keep', 'paystate_clients', 'id', 'text');
export const KEEP_TOKENS = keep('paystate_tokens_keep', 'paystate_client_tokens', 'token_sha256', 'bytea');
export const KEEP_PROFILES = keep('paystate_profiles_keep', 'paystate_profiles', 'id', 'text');
