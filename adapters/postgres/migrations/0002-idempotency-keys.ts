import type { Migration } from './migration.js';

/**
 * `Idempotency-Key` storage (docs/http-api.md, Idempotency): one row per (client, key), claimed
 * atomically by the first request, then holding the answer to replay until `expires_at`.
 */
export const idempotencyKeys: Migration = {
  version: 2,
  name: 'idempotency_keys',
  sql: `
CREATE TABLE paystate_idempotency_keys (
  client_id text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  fingerprint text NOT NULL,
  status text NOT NULL CHECK (status IN ('in_progress', 'completed')),
  response_status integer,
  response_headers jsonb,
  response_body text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (client_id, key),
  CONSTRAINT paystate_idempotency_keys_response_whole CHECK (
    (status = 'completed') = (response_status IS NOT NULL)
    AND (response_status IS NULL) = (response_headers IS NULL)
    AND (response_status IS NULL) = (response_body IS NULL)
  )
);

CREATE INDEX paystate_idempotency_keys_expiry ON paystate_idempotency_keys (expires_at);
`,
};
