import {
  createMemorySandboxAuthorizationStore,
  createMemorySandboxChallengeStore,
  createMemorySandboxOperationStore,
} from '../../adapters/sandbox/index.js';
import { sandboxOperationStoreContract, sandboxStoresContract } from '../contracts/sandbox-stores.contract.js';

sandboxStoresContract('memory', () => {
  const authorizations = createMemorySandboxAuthorizationStore();
  const challenges = createMemorySandboxChallengeStore();
  return Promise.resolve({ authorizations, challenges, other: { authorizations, challenges } });
});

sandboxOperationStoreContract('memory', () => {
  const operations = createMemorySandboxOperationStore();
  return Promise.resolve({ operations, other: operations });
});
