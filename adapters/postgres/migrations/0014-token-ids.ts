import type { Migration } from './migration.js';

/**
 * Each token row gets `token_id`, 16 random hex digits made by the column's default, instead of
 * 16 hex digits of its SHA-256 (docs/postgres.md#schema).
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
