import type { Migration } from './migration.js';

/**
 * Several tokens per client (`paystate_client_tokens`), each with an optional expiry; every client
 * keeps its token. Older instances answer 503 until upgraded (docs/postgres.md#schema).
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
