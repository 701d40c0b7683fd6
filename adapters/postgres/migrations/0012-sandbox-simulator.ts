import type { Migration } from './migration.js';

/**
 * The sandbox's simulated acquirer and issuer (`createPostgresSandboxStores`), shared by every
 * instance; card summaries only. Empty outside the sandbox.
 */
export const sandboxSimulator: Migration = {
  version: 12,
  name: 'sandbox_simulator',
  sql: `
CREATE TABLE paystate_sandbox_authorizations (
  payment_id text COLLATE "C" PRIMARY KEY,
  record json NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE paystate_sandbox_challenges (
  transaction_id text COLLATE "C" PRIMARY KEY,
  payment_id text COLLATE "C" NOT NULL,
  challenge json NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'authorised', 'refused')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX paystate_sandbox_challenges_created ON paystate_sandbox_challenges (created_at);
`,
};
