export {
  createSandboxApp,
  type MemorySandboxStorage,
  type SandboxApp,
  type SandboxAppOptions,
  type SandboxStorage,
} from './sandbox-app.js';
// The sandbox's pages live in the HTTP family (paystate/http); re-exported as before.
export { createIssuerPageHandler, createSandboxPages, type IssuerPageOptions } from '../http/index.js';
export { BUNDLED_SANDBOX_CONFIG, readSandboxConfigFile, type SandboxConfigFileError } from './sandbox-config.js';
export { DEFAULT_SANDBOX_RATE_LIMIT, sandboxRateLimiter } from './sandbox-rate-limit.js';
export { startSandboxServer, type SandboxServer, type SandboxServerOptions } from './sandbox-server.js';
export {
  generateSandboxSecrets,
  processSandboxSecrets,
  sharedSandboxSecrets,
  type CompleteSandboxSecrets,
  type SandboxSecrets,
  type SandboxVaultKey,
  type SharedSandboxSecrets,
} from './sandbox-secrets.js';
export { scheduleEngineOptions } from './sandbox-schedules.js';
