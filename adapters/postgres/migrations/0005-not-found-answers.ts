import type { Migration } from './migration.js';

/**
 * How many inquiries the acquirer answered `not_found`, apart from all unknown outcomes
 * (`inquiry_attempts`, which paces the inquiries): only these decide that the acquirer never saw
 * a payment. Existing payments start at 0, so they inquire at most a few times more. Older
 * instances leave the column alone (its default), which only makes them more patient.
 */
export const notFoundAnswers: Migration = {
  version: 5,
  name: 'not_found_answers',
  sql: `
ALTER TABLE paystate_payments
  ADD COLUMN not_found_answers integer NOT NULL DEFAULT 0 CHECK (not_found_answers >= 0);
`,
};
