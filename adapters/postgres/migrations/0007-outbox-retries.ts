import type { Migration } from './migration.js';

/**
 * Back-off of events the sink refused: how many deliveries failed (`attempts`) and until when an
 * event waits (`retry_at`: a refused event's next attempt, also set on the later events of its
 * payment, which wait as long). Two partial indexes keep the outbox read independent of how
 * many events wait:
 * - `paystate_outbox_ready`: undelivered events that do not wait, in sequence order (it replaces
 *   `paystate_outbox_undelivered`, so a write maintains as many indexes as before);
 * - `paystate_outbox_deferred_due`: waiting events by `retry_at`, empty while the sink accepts
 *   everything.
 * The order check finds a payment's earlier events through `paystate_outbox_by_payment`.
 */
export const outboxRetries: Migration = {
  version: 7,
  name: 'outbox_retries',
  sql: `
ALTER TABLE paystate_outbox
  ADD COLUMN attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  ADD COLUMN retry_at timestamptz;

CREATE INDEX paystate_outbox_ready
  ON paystate_outbox (sequence)
  WHERE delivered_at IS NULL AND retry_at IS NULL;

CREATE INDEX paystate_outbox_deferred_due
  ON paystate_outbox (retry_at)
  WHERE delivered_at IS NULL AND retry_at IS NOT NULL;

DROP INDEX paystate_outbox_undelivered;
`,
};
