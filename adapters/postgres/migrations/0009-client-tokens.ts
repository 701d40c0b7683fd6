import type { Migration } from './migration.js';

/**
 * Several tokens per client, for rotation with an overlap: token digests move from
 * `paystate_clients.token_sha256` to `paystate_client_tokens`, one row per token, each with an
 * optional `expires_at` (from then on the token authenticates as no one). Every client keeps
 * its id and its token: the token's row starts at the client's `created_at`, without an expiry.
 * Deleting a client deletes its tokens. The ALTER holds an exclusive lock on `paystate_clients`
 * for the rest of the migration's transaction (authentication waits that long; the table is small).
 * An instance of a version before this migration no longer finds the column it reads: it answers
 * 503 to every authenticated request (it lets no one in) until it is upgraded.
 */
export const clientTokens: Migration = {
  version: 9,
  name: 'client_tokens',
  sql: `
CREATE TABLE paystate_client_tokens (
  token_sha256 bytea PRIMARY KEY CHECK (octet_length(token_sha256) = 32),
  client_id text COLLATE "C" NOT NULL REFERENCES paystate_clients (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz
);

CREATE INDEX paystate_client_tokens_client ON paystate_client_tokens (client_id);

INSERT INTO paystate_client_tokens (token_sha256, client_id, created_at)
SELECT token_sha256, id, created_at FROM paystate_clients;

ALTER TABLE paystate_clients DROP COLUMN token_sha256;
`,
};
