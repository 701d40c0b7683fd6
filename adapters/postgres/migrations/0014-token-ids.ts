import type { Migration } from './migration.js';

/**
 * Each token row gets `token_id`, 16 random hex digits (from `gen_random_uuid()`, PostgreSQL 13 on)
 * made when the row is stored and kept with it: the token's `tokenId` in listings, in
 * `paystate tokens --token-id` and on the API's log lines, which until now was the first 16 hex
 * digits of the token's SHA-256, so that a guessable token could be found from a log line. Rows
 * stored before get an id of their own here (ids listed before this migration no longer name
 * them). The column's default makes the id, so an instance of an earlier version keeps storing
 * tokens beside this one (it still shows the old ids).
 */
export const tokenIds: Migration = {
  version: 14,
  name: 'token_ids',
  sql: `
ALTER TABLE paystate_client_tokens
  ADD COLUMN token_id text COLLATE "C" NOT NULL
  DEFAULT left(encode(sha256(uuid_send(gen_random_uuid())), 'hex'), 16)
  CHECK (token_id ~ '^[0-9a-f]{16}$');
`,
};
