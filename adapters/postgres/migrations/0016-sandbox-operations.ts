import type { Migration } from './migration.js';

/**
 * The sandbox's simulated captures, cancels and refunds (`createPostgresSandboxStores().operations`),
 * one row per operation id, `sequence` ordering a payment's history. Empty outside the sandbox.
 */
export const sandboxOperations: Migration = {
  version: 16,
  name: 'sandbox_operations',
  sql: `
CREATE TABLE paystate_sandbox_operations (
  operation_id text COLLATE "C" PRIMARY KEY,
  payment_id text COLLATE "C" NOT NULL,
  sequence bigint GENERATED ALWAYS AS IDENTITY,
  record json NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX paystate_sandbox_operations_by_payment ON paystate_sandbox_operations (payment_id, sequence);
`,
};
