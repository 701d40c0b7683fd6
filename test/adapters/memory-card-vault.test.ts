import { createMemoryCardVault, createTestClock } from '../../adapters/memory/index.js';
import { cardVaultContract } from '../contracts/card-vault.contract.js';

cardVaultContract('memory (one instance)', () => {
  const clock = createTestClock();
  const vault = createMemoryCardVault(clock);
  return Promise.resolve({ vault, other: vault, clock });
});
