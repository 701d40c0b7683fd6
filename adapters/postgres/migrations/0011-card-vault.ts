import type { Migration } from './migration.js';

/**
 * The card vault (`createPostgresCardVault`): card data kept between a 3-D Secure challenge and
 * authorization, encrypted with AES-256-GCM under a key the database never holds (`key_id` names
 * it), one row per payment, deleted when taken and purged past `expires_at`.
 */
export const cardVault: Migration = {
  version: 11,
  name: 'card_vault',
  sql: `
CREATE TABLE paystate_card_vault (
  payment_id text COLLATE "C" PRIMARY KEY,
  key_id text COLLATE "C" NOT NULL,
  iv bytea NOT NULL CHECK (octet_length(iv) = 12),
  sealed bytea NOT NULL,
  tag bytea NOT NULL CHECK (octet_length(tag) = 16),
  expires_at timestamptz NOT NULL
);

CREATE INDEX paystate_card_vault_expires ON paystate_card_vault (expires_at);
`,
};
