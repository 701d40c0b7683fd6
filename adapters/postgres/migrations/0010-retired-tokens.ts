import type { Migration } from './migration.js';

/**
 * A retired token never works again: triggers keep every deleted digest (`paystate_retired_tokens`),
 * refuse it again (`PSRT1`) and refuse a later expiry (`PSRT2`) (docs/postgres.md#schema).
 */
export const retiredTokens: Migration = {
  version: 10,
  name: 'retired_tokens',
  sql: `
CREATE TABLE paystate_retired_tokens (
  token_sha256 bytea PRIMARY KEY CHECK (octet_length(token_sha256) = 32),
  retired_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION paystate_retire_client_token() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO paystate_retired_tokens (token_sha256) VALUES (OLD.token_sha256) ON CONFLICT DO NOTHING;
  RETURN OLD;
END
$$;

CREATE TRIGGER paystate_client_tokens_retire AFTER DELETE ON paystate_client_tokens
FOR EACH ROW EXECUTE FUNCTION paystate_retire_client_token();

CREATE FUNCTION paystate_check_client_token() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.token_sha256 <> OLD.token_sha256 THEN
    -- Waits for a transaction that holds the digest's row (deleting it, so retiring it): the next
    -- statement's snapshot then sees the retirement it committed.
    PERFORM 1 FROM paystate_client_tokens t WHERE t.token_sha256 = NEW.token_sha256 FOR UPDATE;
  END IF;
  IF (TG_OP = 'INSERT' OR NEW.token_sha256 <> OLD.token_sha256)
    AND EXISTS (SELECT 1 FROM paystate_retired_tokens r WHERE r.token_sha256 = NEW.token_sha256) THEN
    RAISE EXCEPTION 'a retired token cannot be stored again' USING ERRCODE = 'PSRT1';
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.expires_at IS NOT NULL
    AND (NEW.expires_at IS NULL OR NEW.expires_at > OLD.expires_at) THEN
    RAISE EXCEPTION 'a token''s expiry cannot be lifted or made later' USING ERRCODE = 'PSRT2';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER paystate_client_tokens_check BEFORE INSERT OR UPDATE ON paystate_client_tokens
FOR EACH ROW EXECUTE FUNCTION paystate_check_client_token();
`,
};
