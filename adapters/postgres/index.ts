export {
  asUnavailable,
  classifyPostgresError,
  classifyStatementFailure,
  isConnectionError,
  isNotSentError,
  type PostgresFailure,
} from './classify-error.js';
export { createPostgresCardVault, type PostgresCardVault, type PostgresCardVaultOptions } from './card-vault.js';
export type { CardVaultKey } from './card-vault-cipher.js';
export { createPostgresPool, type PostgresConnectionOptions, type PostgresPoolOptions } from './connection.js';
export {
  createPostgresCredentialStore,
  type CredentialImportError,
  type PostgresCredentialStore,
  type PostgresCredentialStoreOptions,
} from './credential-store.js';
export {
  DEFAULT_TOKEN_OVERLAP_MS,
  type ClientToken,
  type CredentialInputError,
  type CredentialProvisioning,
  type CredentialProvisioningError,
  type NewClient,
  type NewToken,
  type ProvisioningFailure,
  type RolledToken,
  type TokenRef,
  type TokenRoll,
} from '../../src/ports/credential-provisioning.js';
export { clientIdForTokenDigest } from '../shared/index.js';
export {
  createPostgresIdempotencyStore,
  type PostgresIdempotencyStore,
  type PostgresIdempotencyStoreOptions,
} from './idempotency-store.js';
export { migrate, type MigrateOptions, type MigrationError, type MigrationReport } from './migrate.js';
export { runMigrateCli, type MigrateCliIo } from './migrate-cli.js';
export { runTokensCli } from './tokens-cli.js';
export { MIGRATIONS, type Migration } from './migrations/index.js';
export {
  createPostgresPaymentRepository,
  type PostgresPaymentRepository,
  type PostgresPaymentRepositoryOptions,
  type PostgresPaymentRepositoryTuning,
} from './payment-repository.js';
export {
  createPostgresAdapters,
  DEFAULT_KEEP_DELIVERED_EVENTS_MS,
  PostgresMigrationFailed,
  type HousekeepingOptions,
  type HousekeepingReport,
  type PostgresAdapters,
  type PostgresAdaptersOptions,
} from './postgres-adapters.js';
export { createPostgresSandboxStores, type PostgresSandboxStores } from './sandbox-stores.js';
