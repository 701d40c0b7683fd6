import type { Migration } from './migration.js';

/**
 * Back-off of events the sink refused:
 * - `attempts`: how many deliveries of the event failed;
 * - `retry_at`: when a refused event is offered again;
 * - `waits_until`: the latest `retry_at` of the event and of the earlier undelivered events of
 *   its payment (null when none has one): the event waits that long, in order behind them.
 * Two partial indexes keep the outbox read independent of how many events wait:
 * - `paystate_outbox_ready`: undelivered events that do not wait, in sequence order (it replaces
 *   `paystate_outbox_undelivered`, so a write maintains as many indexes as before);
 * - `paystate_outbox_waiting`: waiting events by `waits_until`, empty while the sink accepts
 *   everything.
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
