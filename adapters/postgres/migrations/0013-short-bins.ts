import type { Migration } from './migration.js';

/**
 * Short BINs (`binOf`): the BIN CHECK takes 2 to 8 digits instead of 6 to 8; stored rows are not
 * scanned (`NOT VALID`: the new check only widens the old).
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
