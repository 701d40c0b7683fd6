import type { Migration } from './migration.js';

/**
 * Outbox events as `json`, not `jsonb`: kept as the engine wrote them, keys in its order
 * (docs/postgres.md#schema). Rewrites the table.
 */
export const outboxEventsAsJson: Migration = {
  version: 4,
  name: 'outbox_events_as_json',
  sql: `
ALTER TABLE paystate_outbox ALTER COLUMN event TYPE json USING event::json;
`,
};
