import type { Migration } from './migration.js';

/**
 * How many inquiries the acquirer answered `not_found`: only these decide that it never saw a
 * payment. Existing payments start at 0.
 */
export const notFoundAnswers: Migration = {
  version: 5,
  name: 'not_found_answers',
  sql: `
ALTER TABLE paystate_payments
  ADD COLUMN not_found_answers integer NOT NULL DEFAULT 0 CHECK (not_found_answers >= 0);
`,
};
