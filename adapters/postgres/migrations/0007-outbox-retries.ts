import type { Migration } from './migration.js';

/**
 * Back-off of refused events (`attempts`, `retry_at`, `waits_until`) and the partial indexes
 * `paystate_outbox_ready` and `paystate_outbox_waiting` (docs/postgres.md#schema).
 */
export const outboxRetries: Migration = {
  version: 7,
  name: 'outbox_retries',
  sql: `
ALTER TABLE paystate_outbox
  ADD COLUMN attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  ADD COLUMN retry_at timestamptz,
  ADD COLUMN waits_until timestamptz;

CREATE INDEX paystate_outbox_ready
  ON paystate_outbox (sequence)
  WHERE delivered_at IS NULL AND waits_until IS NULL;

CREATE INDEX paystate_outbox_waiting
  ON paystate_outbox (waits_until)
  WHERE delivered_at IS NULL AND waits_until IS NOT NULL;

DROP INDEX paystate_outbox_undelivered;
`,
};
