import type { Migration } from './migration.js';

/**
 * Short BINs (`binOf`): a card number under 16 digits keeps its length less 10 digits (2 to 5),
 * so the BIN CHECK of `paystate_payments` takes 2 to 8 digits instead of 6 to 8. Stored rows are
 * left as they are and not scanned (`NOT VALID`): each passed the old check, which the new one
 * only widens. New and updated rows are checked.
 */
export const shortBins: Migration = {
  version: 13,
  name: 'short_bins',
  sql: `
ALTER TABLE paystate_payments DROP CONSTRAINT paystate_payments_card_bin_check;
ALTER TABLE paystate_payments
  ADD CONSTRAINT paystate_payments_card_bin_check CHECK (card_bin ~ '^[0-9]{2,8}$') NOT VALID;
`,
};
