import { err, ok, type Result } from 'neverthrow';
import { isPartnerId, isProfileId, PARTNER_ID_RULE, PROFILE_ID_RULE } from '../../src/domain/tenancy-ids.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Client, CredentialStore, CredentialStoreError, Profile } from '../../src/ports/credential-store.js';
import type { PortResult } from '../../src/ports/port-result.js';
import { clockTime } from '../../src/ports/credential-provisioning-checks.js';
import {
  invalidInput,
  type CredentialInputError,
  type CredentialProvisioning,
} from '../../src/ports/credential-provisioning.js';
import type { SandboxConfig } from '../memory/index.js';
import { systemClock, tokenDigest } from '../shared/index.js';
import { importConfig, type CredentialImportError, type ImportCounts } from './credential-import.js';
import { createCredentialProvisioning } from './credential-provisioning.js';
import { clientOf, iso, sameDigest, timeOf, type ClientRow } from './credential-rows.js';
import { AUTHENTICATE, FIND_PROFILE, PURGE_EXPIRED_DIGEST, PUT_PROFILE } from './credential-statements.js';
import { inTransaction, openPoolStore, type PoolStore, type PoolStoreOptions } from './run-statement.js';

export type { CredentialImportError } from './credential-import.js';

/** Options of `createPostgresCredentialStore`: the pool's, and the clock of token expiry (default the system's). */
export type PostgresCredentialStoreOptions = PoolStoreOptions & { readonly clock?: Clock };

/** The Postgres `CredentialStore`, plus provisioning of profiles, clients and their tokens. */
export interface PostgresCredentialStore
  extends CredentialStore, CredentialProvisioning, Pick<PoolStore, 'pool' | 'close'> {
  /** Adds, renames or moves a profile (clients of the partner it leaves lose it); `invalid_profile` for a bad id. */
  putProfile(profile: Profile): PortResult<void, CredentialStoreError | CredentialInputError>;
  /** Makes the stored profiles and clients exactly those of a sandbox config, never bringing a retired token back. */
  importConfig(config: SandboxConfig): PortResult<ImportCounts, CredentialImportError>;
}

/**
 * API clients, their tokens (SHA-256 digests only) and profiles on Postgres (schema: `migrate`);
 * docs/postgres.md#credentials. A RangeError for a bad `closeTimeoutMs`, before any pool is made.
 */
export function createPostgresCredentialStore(options: PostgresCredentialStoreOptions): PostgresCredentialStore {
  const { pool, prepared, run, close } = openPoolStore(options, 'Postgres credential store');
  const clock = options.clock ?? systemClock;
  const transaction = <T, E>(work: Parameters<typeof inTransaction<T, E>>[2]) => inTransaction(pool, prepared, work);

  return {
    pool,
    ...createCredentialProvisioning({ run, transaction, clock }),

    async authenticate(token): Promise<Result<Client | null, CredentialStoreError>> {
      const digest = tokenDigest(token);
      type Row = ClientRow & { token_sha256: Buffer; token_id: string; expires_at: string | null };
      const result = await run<Row>(AUTHENTICATE, [digest]);
      if (result.isErr()) return err(result.error);
      const row = result.value.rows[0];
      if (row === undefined || !sameDigest(row.token_sha256, digest)) return ok(null);
      const expiresAt = timeOf(row.expires_at);
      const now = clockTime(clock);
      if (expiresAt === null || now < expiresAt) return ok(clientOf(row, row.token_id));
      // Seen expired: retired for good; a failure to record it leaves it to the next look.
      await run(PURGE_EXPIRED_DIGEST, [digest, iso(now)]);
      return ok(null);
    },

    async findProfile(profileId) {
      const result = await run<{ id: string; partner_id: string; name: string }>(FIND_PROFILE, [profileId]);
      return result.map(({ rows: [row] }) =>
        row === undefined ? null : Object.freeze({ id: row.id, partnerId: row.partner_id, name: row.name }),
      );
    },

    async putProfile(profile) {
      if (!isProfileId(profile.id)) {
        return err(invalidInput('invalid_profile', `The profile id must be ${PROFILE_ID_RULE}`));
      }
      if (!isPartnerId(profile.partnerId)) {
        return err(invalidInput('invalid_profile', `The partner id must be ${PARTNER_ID_RULE}`));
      }
      if (profile.name.length === 0) return err(invalidInput('invalid_profile', 'The profile name must not be empty'));
      return (await run(PUT_PROFILE, [profile.id, profile.partnerId, profile.name])).map(() => undefined);
    },

    importConfig: (config) => importConfig(config, clock, transaction),
    close,
  };
}
