export { createMemoryCardVault, type MemoryCardVault } from './card-vault.js';
export {
  createMemoryCredentialStore,
  type CredentialStoreState,
  type MemoryCredentialStore,
} from './credential-store.js';
export { createMemoryEventSink, type MemoryEventSink, type MemoryEventSinkOptions } from './event-sink.js';
export {
  createMemoryPaymentRepository,
  injectedUnavailable,
  type MemoryPaymentRepository,
  type MemoryPaymentRepositoryOptions,
  type RepositoryMethod,
} from './payment-repository.js';
export {
  parseSandboxConfig,
  sandboxConfigSchema,
  type SandboxConfig,
  type SandboxConfigError,
  type SandboxConfigIssue,
} from './sandbox-config.js';
export { createSequentialIdGenerator } from './sequential-id-generator.js';
export { createTestClock, DEFAULT_TEST_CLOCK_START, type TestClock } from './test-clock.js';
export { createMemoryIdempotencyStore, type MemoryIdempotencyStore } from './idempotency-store.js';
