import type { Migration } from './migration.js';

/**
 * Back-off of events the sink refused: how many deliveries failed and when to offer the event
 * again. The partial index holds only deferred, undelivered events, so checking whether a
 * payment has an earlier one waiting costs next to nothing while the sink accepts everything.
 * Older instances ignore the columns: they offer deferred events at once, as they always did.
 */
export const outboxRetries: Migration = {
  version: 7,
  name: 'outbox_retries',
  sql: `
ALTER TABLE paystate_outbox
  ADD COLUMN attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  ADD COLUMN retry_at timestamptz;

CREATE INDEX paystate_outbox_deferred
  ON paystate_outbox (payment_id, sequence)
  WHERE delivered_at IS NULL AND retry_at IS NOT NULL;
`,
};
