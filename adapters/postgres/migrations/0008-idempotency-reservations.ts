import type { Migration } from './migration.js';

/**
 * Takeover of `Idempotency-Key` entries whose request crashed (decisions.md section 6):
 * - `reserved_id`: the id (a payment id) that the attempt owning the entry reserved for what it
 *   creates, written by the `begin` that started the entry;
 * - `started_at`: when that attempt began (the `begin` that started the entry or last took it
 *   over): the entry is stale once it is old enough, and `complete`/`release` name their attempt
 *   by it.
 * `created_at` stays the start of the entry: a takeover moves `started_at` past it, which is how
 * `begin` tells a takeover. Both columns are null in rows written before: such an entry is never
 * taken over. So is one whose `started_at` is before its `created_at`: a version before this one
 * took the expired entry over and left the columns of the entry before it.
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
