import { createHash, timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import type { Pool, QueryResultRow } from 'pg';
import {
  API_TOKEN_RULE,
  isApiToken,
  isPartnerId,
  isProfileId,
  isTenancyId,
  PARTNER_ID_RULE,
  PROFILE_ID_RULE,
  TENANCY_ID_RULE,
} from '../../src/domain/tenancy-ids.js';
import type { Client, CredentialStore, CredentialStoreError, Profile } from '../../src/ports/credential-store.js';
import type { PortResult } from '../../src/ports/port-result.js';
import { parseSandboxConfig, type SandboxConfig } from '../memory/sandbox-config.js';
import { asUnavailable, classifyPostgresError } from './classify-error.js';
import { checkOut, resolveConnection, type CheckedOutClient, type PostgresConnectionOptions } from './connection.js';
import { runStatement, type Statement } from './run-statement.js';

export type PostgresCredentialStoreOptions = PostgresConnectionOptions & {
  /** Named prepared statements; default true. */
  readonly preparedStatements?: boolean;
};

/** A client to register: the token is hashed before it leaves this process. */
export interface NewClient {
  readonly token: string;
  readonly partnerId: string;
  readonly profileIds: readonly string[];
  readonly pciDssCompliant: boolean;
  /**
   * Default: derived from the token's digest, as the in-memory store does. An id of your own must
   * not be given to another client later, of any partner: `Idempotency-Key`s are scoped by the
   * client's id, so a new client under an old id would meet the old one's keys (a `422` telling
   * that a key was used, or its answer replayed).
   */
  readonly id?: string;
}

/** `invalid_config`: the sandbox config failed validation (the message never repeats a token). */
export type CredentialImportError =
  CredentialStoreError | { readonly code: 'invalid_config'; readonly message: string; readonly retryable: false };

/**
 * A client or profile refused before anything was stored: an id or token of the wrong form, or a
 * client given a profile that does not exist or belongs to another partner. Never repeats a token.
 */
export type CredentialInputError = {
  readonly code: 'invalid_client' | 'invalid_profile';
  readonly message: string;
  readonly retryable: false;
};

/** The Postgres `CredentialStore`, plus provisioning. */
export interface PostgresCredentialStore extends CredentialStore {
  readonly pool: Pool;
  /**
   * Adds a profile, renames it or gives it to another partner. A client keeps a profile only
   * while the profile belongs to the client's partner: clients of the partner it leaves lose it.
   * Ids carry the API's prefixes (`profile_…`, `partner_…`): `invalid_profile` otherwise.
   */
  putProfile(profile: Profile): PortResult<void, CredentialStoreError | CredentialInputError>;
  /**
   * Adds a client, or updates the one with the same token; stores only the token's SHA-256.
   * Every profile must exist and belong to the client's partner (`invalid_client` otherwise).
   */
  putClient(client: NewClient): PortResult<Client, CredentialStoreError | CredentialInputError>;
  /** Revokes a token at once: its client is deleted. True when there was one. */
  removeClient(token: string): PortResult<boolean, CredentialStoreError>;
  /**
   * Makes the stored profiles and clients exactly those of a sandbox config, in one transaction:
   * profiles and clients that are not in it are deleted (their tokens stop working), the others
   * are added or updated.
   */
  importConfig(
    config: SandboxConfig,
  ): PortResult<{ readonly profiles: number; readonly clients: number }, CredentialImportError>;
  /** Ends the pool if the store created it. */
  close(): Promise<void>;
}

interface ClientRow {
  readonly id: string;
  readonly token_sha256: Buffer;
  readonly partner_id: string;
  readonly profile_ids: string[];
  readonly pci_dss_compliant: boolean;
}

/**
 * The client of a token digest, with only the profiles that belong to its partner now (a profile
 * given to another partner since the client was stored is no longer the client's), in order.
 */
const AUTHENTICATE: Statement = {
  name: 'paystate_client_by_token_v2',
  text: `
SELECT c.id, c.token_sha256, c.partner_id, c.pci_dss_compliant,
  ARRAY(
    SELECT u.profile_id FROM unnest(c.profile_ids) WITH ORDINALITY AS u(profile_id, position)
    JOIN paystate_profiles p ON p.id = u.profile_id AND p.partner_id = c.partner_id
    ORDER BY u.position
  ) AS profile_ids
FROM paystate_clients c WHERE c.token_sha256 = $1`,
};

const FIND_PROFILE: Statement = {
  name: 'paystate_profile_by_id',
  text: `SELECT id, partner_id, name FROM paystate_profiles WHERE id = $1`,
};

const PUT_PROFILE: Statement = {
  name: 'paystate_profile_put',
  text: `
INSERT INTO paystate_profiles (id, partner_id, name) VALUES ($1, $2, $3)
ON CONFLICT (id) DO UPDATE SET partner_id = EXCLUDED.partner_id, name = EXCLUDED.name`,
};

/** Stores nothing (and returns no row) when a profile is unknown or belongs to another partner. */
const PUT_CLIENT: Statement = {
  name: 'paystate_client_put_v2',
  text: `
INSERT INTO paystate_clients (id, token_sha256, partner_id, profile_ids, pci_dss_compliant)
SELECT $1, $2, $3, $4::text[], $5
WHERE NOT EXISTS (
  SELECT 1 FROM unnest($4::text[]) AS u(profile_id)
  LEFT JOIN paystate_profiles p ON p.id = u.profile_id AND p.partner_id = $3
  WHERE p.id IS NULL
)
ON CONFLICT (token_sha256) DO UPDATE
SET partner_id = EXCLUDED.partner_id, profile_ids = EXCLUDED.profile_ids, pci_dss_compliant = EXCLUDED.pci_dss_compliant
RETURNING id, token_sha256, partner_id, profile_ids, pci_dss_compliant`,
};

const REMOVE_CLIENT: Statement = {
  name: 'paystate_client_remove',
  text: `DELETE FROM paystate_clients WHERE token_sha256 = $1`,
};

/** Keeps the clients whose digests are in $1 and the profiles whose ids are in $2. */
const KEEP_CLIENTS = `DELETE FROM paystate_clients WHERE NOT (token_sha256 = ANY($1::bytea[]))`;
const KEEP_PROFILES = `DELETE FROM paystate_profiles WHERE NOT (id = ANY($1::text[]))`;

const invalid = (code: CredentialInputError['code'], message: string): CredentialInputError => ({
  code,
  message,
  retryable: false,
});

/** Why a client cannot be stored as given, or null. Never repeats the token. */
function clientProblem(client: NewClient): string | null {
  if (!isApiToken(client.token)) return `The token must be ${API_TOKEN_RULE}`;
  if (!isPartnerId(client.partnerId)) return `The partner id must be ${PARTNER_ID_RULE}`;
  if (!client.profileIds.every(isProfileId)) return `Every profile id must be ${PROFILE_ID_RULE}`;
  if (client.id !== undefined && !isTenancyId(client.id)) return `The client id must be ${TENANCY_ID_RULE}`;
  return null;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Same derivation as the in-memory store: stable across restarts and adapters, reveals nothing usable. */
export function clientIdForTokenDigest(digest: Buffer): string {
  return `client_${sha256(`paystate-client-id:${digest.toString('hex')}`)
    .toString('hex')
    .slice(0, 16)}`;
}

const clientOf = (row: ClientRow): Client =>
  Object.freeze({
    id: row.id,
    partnerId: row.partner_id,
    profileIds: Object.freeze([...row.profile_ids]),
    pciDssCompliant: row.pci_dss_compliant,
  });

/**
 * API clients and profiles on Postgres (schema: `migrate`). Tokens are kept only as SHA-256
 * digests: a presented token is hashed, its row found by the digest (an index lookup, which
 * can only leak timing about a digest, not about a token) and confirmed with `timingSafeEqual`.
 */
export function createPostgresCredentialStore(options: PostgresCredentialStoreOptions): PostgresCredentialStore {
  const connection = resolveConnection(options);
  const { pool } = connection;
  const prepared = options.preparedStatements ?? true;
  const run = <R extends QueryResultRow>(statement: Statement, values: readonly unknown[]) =>
    runStatement<R>(pool, statement, values, prepared);

  const clientValues = (client: NewClient): unknown[] => {
    const digest = sha256(client.token);
    return [
      client.id ?? clientIdForTokenDigest(digest),
      digest,
      client.partnerId,
      [...client.profileIds],
      client.pciDssCompliant,
    ];
  };

  return {
    pool,

    async authenticate(token): Promise<Result<Client | null, CredentialStoreError>> {
      const digest = sha256(token);
      const result = await run<ClientRow>(AUTHENTICATE, [digest]);
      if (result.isErr()) return err(asUnavailable(result.error));
      const row = result.value.rows[0];
      if (row === undefined || row.token_sha256.length !== digest.length) return ok(null);
      return ok(timingSafeEqual(row.token_sha256, digest) ? clientOf(row) : null);
    },

    async findProfile(profileId) {
      const result = await run<{ id: string; partner_id: string; name: string }>(FIND_PROFILE, [profileId]);
      if (result.isErr()) return err(asUnavailable(result.error));
      const row = result.value.rows[0];
      return ok(row === undefined ? null : Object.freeze({ id: row.id, partnerId: row.partner_id, name: row.name }));
    },

    async putProfile(profile) {
      if (!isProfileId(profile.id)) return err(invalid('invalid_profile', `The profile id must be ${PROFILE_ID_RULE}`));
      if (!isPartnerId(profile.partnerId)) {
        return err(invalid('invalid_profile', `The partner id must be ${PARTNER_ID_RULE}`));
      }
      if (profile.name.length === 0) return err(invalid('invalid_profile', 'The profile name must not be empty'));
      const result = await run(PUT_PROFILE, [profile.id, profile.partnerId, profile.name]);
      return result.isErr() ? err(asUnavailable(result.error)) : ok(undefined);
    },

    async putClient(client) {
      const problem = clientProblem(client);
      if (problem !== null) return err(invalid('invalid_client', problem));
      const result = await run<ClientRow>(PUT_CLIENT, clientValues(client));
      if (result.isErr()) return err(asUnavailable(result.error));
      const row = result.value.rows[0];
      return row === undefined
        ? err(invalid('invalid_client', `Every profile must exist and belong to partner ${client.partnerId}`))
        : ok(clientOf(row));
    },

    async removeClient(token) {
      const result = await run(REMOVE_CLIENT, [sha256(token)]);
      return result.isErr() ? err(asUnavailable(result.error)) : ok((result.value.rowCount ?? 0) > 0);
    },

    async importConfig(config) {
      const parsed = parseSandboxConfig(config);
      if (parsed.isErr()) return err({ code: 'invalid_config', message: parsed.error.message, retryable: false });
      const valid = parsed.value;
      let checkedOut: CheckedOutClient;
      try {
        checkedOut = await checkOut(pool);
      } catch (error) {
        return err(asUnavailable(classifyPostgresError(error)));
      }
      const { client } = checkedOut;
      let broken = false;
      try {
        await client.query('BEGIN');
        const profileIds = valid.partners.flatMap((partner) => partner.profiles.map((profile) => profile.id));
        const clientRows = valid.clients.map((entry) =>
          clientValues({
            token: entry.token,
            partnerId: entry.partner_id,
            profileIds: entry.profile_ids,
            pciDssCompliant: entry.pci_dss_compliant,
          }),
        );
        await client.query({ text: KEEP_CLIENTS, values: [clientRows.map((values) => values[1])] });
        await client.query({ text: KEEP_PROFILES, values: [profileIds] });
        let profiles = 0;
        for (const partner of valid.partners) {
          for (const profile of partner.profiles) {
            await client.query({ text: PUT_PROFILE.text, values: [profile.id, partner.id, profile.name] });
            profiles += 1;
          }
        }
        for (const values of clientRows) {
          const stored = await client.query({ text: PUT_CLIENT.text, values });
          if (stored.rowCount !== 1) throw new Error('a validated client was not stored');
        }
        await client.query('COMMIT');
        return ok({ profiles, clients: valid.clients.length });
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        return err(asUnavailable(classifyPostgresError(error)));
      } finally {
        checkedOut.release(broken);
      }
    },

    close: () => connection.close(),
  };
}
