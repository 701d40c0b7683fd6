import type { Migration } from './migration.js';

/**
 * Captures, cancels and refunds: the payment's capture method and money counters with CHECKs of
 * their invariants, and `paystate_operations` (docs/postgres.md#schema).
 */
export const moneyOperations: Migration = {
  version: 15,
  name: 'money_operations',
  sql: `
ALTER TABLE paystate_payments
  ADD COLUMN capture_method text NOT NULL DEFAULT 'automatic' CHECK (capture_method IN ('automatic', 'manual')),
  ADD COLUMN capture_reserved bigint NOT NULL DEFAULT 0,
  ADD COLUMN amount_captured bigint NOT NULL DEFAULT 0,
  ADD COLUMN refund_reserved bigint NOT NULL DEFAULT 0,
  ADD COLUMN amount_refunded bigint NOT NULL DEFAULT 0,
  ADD COLUMN capture_closed_by text,
  ADD COLUMN authorization_expires_at timestamptz;

UPDATE paystate_payments SET capture_reserved = amount, amount_captured = amount WHERE state = 'succeeded';

ALTER TABLE paystate_payments
  ADD CONSTRAINT paystate_payments_money_non_negative
    CHECK (capture_reserved >= 0 AND amount_captured >= 0 AND refund_reserved >= 0 AND amount_refunded >= 0),
  ADD CONSTRAINT paystate_payments_money_captures
    CHECK (amount_captured <= capture_reserved AND capture_reserved <= amount),
  ADD CONSTRAINT paystate_payments_money_refunds
    CHECK (amount_refunded <= refund_reserved AND refund_reserved <= amount_captured);

CREATE INDEX paystate_payments_due_authorization
  ON paystate_payments (authorization_expires_at, id)
  WHERE state = 'succeeded' AND capture_method = 'manual' AND capture_closed_by IS NULL
    AND authorization_expires_at IS NOT NULL;

CREATE TABLE paystate_operations (
  id text COLLATE "C" PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('capture', 'cancel', 'refund')),
  payment_id text COLLATE "C" NOT NULL REFERENCES paystate_payments (id),
  partner_id text NOT NULL,
  profile_id text COLLATE "C" NOT NULL,
  amount bigint NOT NULL CHECK (amount BETWEEN 0 AND 9007199254740991),
  currency text NOT NULL,
  final boolean NOT NULL,
  state text NOT NULL CHECK (state IN ('processing', 'succeeded', 'failed')),
  failure_reason text,
  reference text,
  description text,
  acquirer_reference text,
  status text CHECK (status IN ('requested', 'unknown')),
  next_inquiry_at timestamptz,
  inquiry_attempts integer NOT NULL CHECK (inquiry_attempts >= 0),
  not_found_answers integer NOT NULL CHECK (not_found_answers >= 0),
  version integer NOT NULL CHECK (version >= 1),
  write_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  claimed_by text,
  claimed_until timestamptz
);

CREATE INDEX paystate_operations_by_payment ON paystate_operations (payment_id, created_at, id);

CREATE INDEX paystate_operations_due_inquiry
  ON paystate_operations (next_inquiry_at, id)
  WHERE state = 'processing' AND next_inquiry_at IS NOT NULL;
`,
};
