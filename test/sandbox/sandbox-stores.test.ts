import {
  createMemorySandboxAuthorizationStore,
  createMemorySandboxChallengeStore,
} from '../../adapters/sandbox/index.js';
import { sandboxStoresContract } from '../contracts/sandbox-stores.contract.js';

sandboxStoresContract('memory', () => {
  const authorizations = createMemorySandboxAuthorizationStore();
  const challenges = createMemorySandboxChallengeStore();
  return Promise.resolve({ authorizations, challenges, other: { authorizations, challenges } });
});
