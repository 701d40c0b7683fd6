export { createSandboxApp, type SandboxApp, type SandboxAppOptions } from './sandbox-app.js';
export { createSandboxPages } from './pages.js';
export { BUNDLED_SANDBOX_CONFIG, readSandboxConfigFile, type SandboxConfigFileError } from './sandbox-config.js';
export { startSandboxServer, type SandboxServer, type SandboxServerOptions } from './sandbox-server.js';
