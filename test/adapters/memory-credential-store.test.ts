import { describe, expect, it } from 'vitest';
import {
  createMemoryCredentialStore,
  createTestClock,
  tokenIdOf,
  type SandboxConfig,
} from '../../adapters/memory/index.js';
import { credentialStoreContract } from '../contracts/credential-store.contract.js';
import { T0 } from '../contracts/fixtures.js';
import { expectOk } from '../contracts/payment-repository.contract.js';

credentialStoreContract('memory', async (config) => {
  const clock = createTestClock(T0);
  const store = createMemoryCredentialStore(config, { clock });
  return { store, clock, stored: async () => JSON.stringify(store.dumpState()), close: async () => undefined };
});

const config: SandboxConfig = {
  partners: [{ id: 'partner_1', profiles: [{ id: 'profile_1', name: 'Shop' }] }],
  clients: [
    {
      token: 'token-one-0123456789-AbCd',
      partner_id: 'partner_1',
      profile_ids: ['profile_1'],
      pci_dss_compliant: false,
    },
  ],
};

describe('createMemoryCredentialStore, with rotation', () => {
  it('takes the system time when given no clock', async () => {
    const store = createMemoryCredentialStore(config);
    const client = await expectOk(store.authenticate('token-one-0123456789-AbCd'));
    const before = Date.now();
    const added = await expectOk(
      store.addToken({ clientId: client!.id, token: 'token-two-0123456789-EfGh', expiresAt: before + 60_000 }),
    );
    expect(added.createdAt).toBeGreaterThanOrEqual(before);
    expect(added.createdAt).toBeLessThanOrEqual(Date.now());
    expect(await expectOk(store.authenticate('token-two-0123456789-EfGh'))).toStrictEqual({
      ...client,
      tokenId: tokenIdOf('token-two-0123456789-EfGh'),
    });
  });

  it('dumps one entry per token, with its expiry, and no token', async () => {
    const clock = createTestClock(T0);
    const store = createMemoryCredentialStore(config, { clock });
    const { tokenId, ...client } = (await expectOk(store.authenticate('token-one-0123456789-AbCd')))!;
    expect(tokenId).toBe(tokenIdOf('token-one-0123456789-AbCd'));
    await expectOk(
      store.rollToken({ old: { token: 'token-one-0123456789-AbCd' }, token: 'token-two-0123456789-EfGh' }),
    );
    const state = store.dumpState();
    expect(state.clients).toStrictEqual([
      { tokenSha256: expect.stringMatching(/^[0-9a-f]{64}$/), client, createdAt: T0, expiresAt: T0 + 86_400_000 },
      { tokenSha256: expect.stringMatching(/^[0-9a-f]{64}$/), client, createdAt: T0, expiresAt: null },
    ]);
    expect(state.clients.map((entry) => entry.tokenSha256.slice(0, 16))).toEqual([
      tokenIdOf('token-one-0123456789-AbCd'),
      tokenIdOf('token-two-0123456789-EfGh'),
    ]);
    expect(JSON.stringify(state)).not.toContain('token-one');
    expect(JSON.stringify(state)).not.toContain('token-two');
  });
});
