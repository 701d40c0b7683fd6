export { createMemoryCardVault, type MemoryCardVault } from './card-vault.js';
export {
  createMemoryCredentialStore,
  type CredentialStoreState,
  type MemoryCredentialStore,
  type MemoryCredentialStoreOptions,
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
export { createMemoryEventSink, type MemoryEventSink, type MemoryEventSinkOptions } from './event-sink.js';
export {
  createMemoryPaymentRepository,
  injectedUnavailable,
  type MemoryPaymentRepository,
  type MemoryPaymentRepositoryOptions,
  type RepositoryMethod,
} from './payment-repository.js';
export {
  createMemoryRateLimiter,
  DEFAULT_RATE_LIMITER_MAX_CLIENTS,
  type MemoryRateLimiter,
  type MemoryRateLimiterOptions,
} from './rate-limiter.js';
export {
  parseSandboxConfig,
  parseSandboxSecrets,
  sandboxConfigSchema,
  sandboxRateLimitSchema,
  sandboxSchedulesSchema,
  sandboxSecretsSchema,
  type SandboxConfig,
  type SandboxConfigError,
  type SandboxConfigIssue,
  type SandboxRateLimit,
  type SandboxSchedules,
  type SandboxSecretsConfig,
} from './sandbox-config.js';
export { createSequentialIdGenerator } from './sequential-id-generator.js';
export { createTestClock, DEFAULT_TEST_CLOCK_START, type TestClock } from './test-clock.js';
export { createMemoryIdempotencyStore, type MemoryIdempotencyStore } from './idempotency-store.js';
