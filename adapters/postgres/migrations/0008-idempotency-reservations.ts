import type { Migration } from './migration.js';

/**
 * Takeover of `Idempotency-Key` entries whose request crashed: `reserved_id` and `started_at`; rows
 * written before have neither and are never taken over (docs/postgres.md#idempotency-keys).
 */
export const idempotencyReservations: Migration = {
  version: 8,
  name: 'idempotency_reservations',
  sql: `
ALTER TABLE paystate_idempotency_keys
  ADD COLUMN reserved_id text,
  ADD COLUMN started_at timestamptz;
`,
};
