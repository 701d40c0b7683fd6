/**
 * What several adapters and the `paystate` command line share and no user imports: not a package
 * entry point, bundled into the entries that use it. It holds no domain logic (that is in `src/`)
 * and imports no adapter (docs/architecture.md).
 */
export { closestName, editDistance } from './closest-name.js';
export { parseCommandLine, usageLine, type CommandLineValues } from './command-line.js';
export { atDatabase, checkDatabaseUrl } from './database-url.js';
export { readSecretFile } from './secret-file.js';
export { systemClock } from './system-clock.js';
export { clientIdForTokenDigest, newTokenId, tokenDigest } from './token-digest.js';
