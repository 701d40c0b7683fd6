import type { Migration } from './migration.js';

/**
 * Outbox events as `json`, not `jsonb`: an event is written once and read once, whole, and `json`
 * keeps it as the engine wrote it, keys in its order, so a consumer gets the same bytes from
 * Postgres as from the in-memory adapter (jsonb orders keys by length). It also spares the
 * server a conversion per event. The change rewrites the table: outboxes are small once
 * delivered events are purged. Older instances still write (jsonb converts to json on assignment).
 */
export const outboxEventsAsJson: Migration = {
  version: 4,
  name: 'outbox_events_as_json',
  sql: `
ALTER TABLE paystate_outbox ALTER COLUMN event TYPE json USING event::json;
`,
};
