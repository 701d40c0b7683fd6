import type { Migration } from './migration.js';

/**
 * Which write stored a payment's current version, so that an engine whose write ended in a
 * time-out or a lost connection can tell whether it landed. Null for rows written before.
 */
export const writeId: Migration = {
  version: 6,
  name: 'write_id',
  sql: `
ALTER TABLE paystate_payments ADD COLUMN write_id text;
`,
};
