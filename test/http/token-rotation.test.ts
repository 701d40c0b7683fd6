import { createMemoryCredentialStore } from '../../adapters/memory/index.js';
import { tokenRotationOverHttp } from './support/token-rotation-scenario.js';

tokenRotationOverHttp('memory', async (config, clock) => ({
  credentials: createMemoryCredentialStore(config, { clock }),
  close: async () => undefined,
}));
