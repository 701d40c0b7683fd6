import type { Migration } from './migration.js';

/**
 * Profiles and API clients. A client's bearer token is kept only as its SHA-256 digest
 * (docs/http-api.md, Authentication and tenancy); the digest is unique, so a token finds at most one client.
 */
export const credentials: Migration = {
  version: 3,
  name: 'credentials',
  sql: `
CREATE TABLE paystate_profiles (
  id text COLLATE "C" PRIMARY KEY,
  partner_id text NOT NULL,
  name text NOT NULL
);

CREATE TABLE paystate_clients (
  id text COLLATE "C" PRIMARY KEY,
  token_sha256 bytea NOT NULL UNIQUE CHECK (octet_length(token_sha256) = 32),
  partner_id text NOT NULL,
  profile_ids text[] NOT NULL,
  pci_dss_compliant boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
`,
};
