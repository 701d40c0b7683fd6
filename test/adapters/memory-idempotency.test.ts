import { describe, expect, it } from 'vitest';
import { createMemoryIdempotencyStore } from '../../adapters/memory/index.js';
import { idempotencyStoreContract } from '../contracts/idempotency-store.contract.js';
import { expectOk } from '../contracts/payment-repository.contract.js';

idempotencyStoreContract('memory', async () => ({
  store: createMemoryIdempotencyStore(),
  close: async () => undefined,
}));

describe('createMemoryIdempotencyStore', () => {
  it('counts entries and drops expired ones as new keys arrive', async () => {
    const store = createMemoryIdempotencyStore();
    for (let i = 0; i < 1500; i++) {
      await expectOk(store.begin({ clientId: 'c', key: `k${i}`, fingerprint: 'f', now: i, ttlMs: 100 }));
    }
    // Purges ran on the way: far fewer than 1500 entries are held.
    const held = store.size();
    expect(held).toBeLessThan(1100);
    expect(await expectOk(store.purgeExpired(10_000))).toBe(held);
    expect(store.size()).toBe(0);
  });

  it('stores frozen copies of answers', async () => {
    const store = createMemoryIdempotencyStore();
    await expectOk(store.begin({ clientId: 'c', key: 'k', fingerprint: 'f', now: 0, ttlMs: 10 }));
    await expectOk(store.complete({ clientId: 'c', key: 'k', response: { status: 200, headers: {}, body: '' } }));
    const again = await expectOk(store.begin({ clientId: 'c', key: 'k', fingerprint: 'f', now: 1, ttlMs: 10 }));
    expect(again.kind === 'completed' && Object.isFrozen(again.response)).toBe(true);
  });
});
