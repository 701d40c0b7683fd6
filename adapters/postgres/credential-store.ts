import { createHash, timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import type pg from 'pg';
import type { Client, CredentialStore, CredentialStoreError, Profile } from '../../src/ports/credential-store.js';
import type { PortResult } from '../../src/ports/port-result.js';
import { parseSandboxConfig, type SandboxConfig } from '../memory/sandbox-config.js';
import { asUnavailable, classifyPostgresError } from './classify-error.js';
import { resolveConnection, type PostgresConnectionOptions } from './connection.js';
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
  /** Default: derived from the token's digest, as the in-memory store does. */
  readonly id?: string;
}

/** `invalid_config`: the sandbox config failed validation (the message never repeats a token). */
export type CredentialImportError =
  CredentialStoreError | { readonly code: 'invalid_config'; readonly message: string; readonly retryable: false };

/** The Postgres `CredentialStore`, plus provisioning. */
export interface PostgresCredentialStore extends CredentialStore {
  readonly pool: pg.Pool;
  /** Adds a profile or renames it. */
  putProfile(profile: Profile): PortResult<void, CredentialStoreError>;
  /** Adds a client, or updates the one with the same token; stores only the token's SHA-256. */
  putClient(client: NewClient): PortResult<Client, CredentialStoreError>;
  /** Upserts every profile and client of a sandbox config file, in one transaction. */
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

const AUTHENTICATE: Statement = {
  name: 'paystate_client_by_token',
  text: `SELECT id, token_sha256, partner_id, profile_ids, pci_dss_compliant FROM paystate_clients WHERE token_sha256 = $1`,
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

const PUT_CLIENT: Statement = {
  name: 'paystate_client_put',
  text: `
INSERT INTO paystate_clients (id, token_sha256, partner_id, profile_ids, pci_dss_compliant)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (token_sha256) DO UPDATE
SET partner_id = EXCLUDED.partner_id, profile_ids = EXCLUDED.profile_ids, pci_dss_compliant = EXCLUDED.pci_dss_compliant
RETURNING id, token_sha256, partner_id, profile_ids, pci_dss_compliant`,
};

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
  const run = <R extends pg.QueryResultRow>(statement: Statement, values: readonly unknown[]) =>
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
      const result = await run(PUT_PROFILE, [profile.id, profile.partnerId, profile.name]);
      return result.isErr() ? err(asUnavailable(result.error)) : ok(undefined);
    },

    async putClient(client) {
      const result = await run<ClientRow>(PUT_CLIENT, clientValues(client));
      if (result.isErr()) return err(asUnavailable(result.error));
      const row = result.value.rows[0];
      return row === undefined
        ? err({ code: 'unavailable', message: 'The client was not stored', retryable: true })
        : ok(clientOf(row));
    },

    async importConfig(config) {
      const parsed = parseSandboxConfig(config);
      if (parsed.isErr()) return err({ code: 'invalid_config', message: parsed.error.message, retryable: false });
      const valid = parsed.value;
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        return err(asUnavailable(classifyPostgresError(error)));
      }
      let broken = false;
      try {
        await client.query('BEGIN');
        let profiles = 0;
        for (const partner of valid.partners) {
          for (const profile of partner.profiles) {
            await client.query({ text: PUT_PROFILE.text, values: [profile.id, partner.id, profile.name] });
            profiles += 1;
          }
        }
        for (const entry of valid.clients) {
          const values = clientValues({
            token: entry.token,
            partnerId: entry.partner_id,
            profileIds: entry.profile_ids,
            pciDssCompliant: entry.pci_dss_compliant,
          });
          await client.query({ text: PUT_CLIENT.text, values });
        }
        await client.query('COMMIT');
        return ok({ profiles, clients: valid.clients.length });
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        return err(asUnavailable(classifyPostgresError(error)));
      } finally {
        client.release(broken ? true : undefined);
      }
    },

    close: () => connection.close(),
  };
}
