import type { Migration } from './migration.js';

/**
 * Payments and their event outbox: card summaries only, "C" collation ids, the sweeper's lease and
 * partial indexes of what can be due (docs/postgres.md#schema).
 */
export const paymentsAndOutbox: Migration = {
  version: 1,
  name: 'payments_and_outbox',
  sql: `
CREATE TABLE paystate_payments (
  id text COLLATE "C" PRIMARY KEY,
  partner_id text NOT NULL,
  profile_id text COLLATE "C" NOT NULL,
  flow text NOT NULL CHECK (flow IN ('hosted', 'direct')),
  state text NOT NULL CHECK (state IN (
    'awaiting_card_data', 'authenticating', 'awaiting_challenge', 'authorizing', 'succeeded', 'failed', 'expired'
  )),
  version integer NOT NULL CHECK (version >= 1),
  description text,
  reference text,
  method text NOT NULL,
  currency text NOT NULL,
  amount bigint NOT NULL CHECK (amount BETWEEN 0 AND 9007199254740991),
  billing jsonb NOT NULL,
  shipping jsonb NOT NULL,
  redirect_url text NOT NULL,
  browser jsonb,
  card_scheme text,
  card_bin text CHECK (card_bin ~ '^[0-9]{6,8}$'),
  card_last4 text CHECK (card_last4 ~ '^[0-9]{4}$'),
  card_expiration text,
  card_holder_name text,
  three_ds jsonb,
  next_redirect text,
  hosted_token text,
  authorization_outcome jsonb,
  authorization_status text CHECK (authorization_status IN ('requested', 'unknown')),
  failure_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  expires_at timestamptz,
  next_inquiry_at timestamptz,
  inquiry_attempts integer NOT NULL CHECK (inquiry_attempts >= 0),
  claimed_by text,
  claimed_until timestamptz,
  CONSTRAINT paystate_payments_card_summary_whole CHECK (
    (card_scheme IS NULL) = (card_bin IS NULL)
    AND (card_scheme IS NULL) = (card_last4 IS NULL)
    AND (card_scheme IS NULL) = (card_expiration IS NULL)
    AND (card_scheme IS NULL) = (card_holder_name IS NULL)
  )
);

CREATE INDEX paystate_payments_by_profile
  ON paystate_payments (profile_id, created_at DESC, id DESC);

CREATE INDEX paystate_payments_due_expiry
  ON paystate_payments (expires_at, id)
  WHERE state IN ('awaiting_card_data', 'awaiting_challenge') AND expires_at IS NOT NULL;

CREATE INDEX paystate_payments_due_inquiry
  ON paystate_payments (next_inquiry_at, id)
  WHERE state = 'authorizing' AND next_inquiry_at IS NOT NULL;

CREATE TABLE paystate_outbox (
  sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id text NOT NULL,
  payment_id text COLLATE "C" NOT NULL,
  event_type text NOT NULL,
  event jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);

CREATE INDEX paystate_outbox_undelivered
  ON paystate_outbox (sequence)
  WHERE delivered_at IS NULL;

CREATE INDEX paystate_outbox_by_payment
  ON paystate_outbox (payment_id, sequence);

-- One row: which repository instance delivers events now, and until when.
CREATE TABLE paystate_outbox_lease (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  holder text,
  held_until timestamptz
);
INSERT INTO paystate_outbox_lease (singleton) VALUES (true);
`,
};
