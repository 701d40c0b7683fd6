import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMemoryCredentialStore, createTestClock, type SandboxConfig } from '../../adapters/memory/index.js';
import { credentialStoreContract } from '../contracts/credential-store.contract.js';
import { T0 } from '../contracts/fixtures.js';
import { expectOk } from '../contracts/payment-repository.contract.js';

credentialStoreContract('memory', async (config) => {
  const clock = createTestClock(T0);
  const store = createMemoryCredentialStore(config, { clock });
  return { store, clock, stored: async () => JSON.stringify(store.dumpState()), close: async () => undefined };
});

const ONE = 'token-one-0123456789-AbCd';
const TWO = 'token-two-0123456789-EfGh';

const config: SandboxConfig = {
  partners: [{ id: 'partner_1', profiles: [{ id: 'profile_1', name: 'Shop' }] }],
  clients: [{ token: ONE, partner_id: 'partner_1', profile_ids: ['profile_1'], pci_dss_compliant: false }],
};

const sha256Hex = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

describe('createMemoryCredentialStore, with rotation', () => {
  it('takes the system time when given no clock', async () => {
    const store = createMemoryCredentialStore(config);
    const client = await expectOk(store.authenticate(ONE));
    const before = Date.now();
    const added = await expectOk(store.addToken({ clientId: client!.id, token: TWO, expiresAt: before + 60_000 }));
    expect(added.createdAt).toBeGreaterThanOrEqual(before);
    expect(added.createdAt).toBeLessThanOrEqual(Date.now());
    expect(await expectOk(store.authenticate(TWO))).toStrictEqual({ ...client, tokenId: added.tokenId });
  });

  it('dumps one entry per token, with its random id and expiry, and no token', async () => {
    const clock = createTestClock(T0);
    const store = createMemoryCredentialStore(config, { clock });
    const { tokenId, ...client } = (await expectOk(store.authenticate(ONE)))!;
    const rolled = await expectOk(store.rollToken({ old: { token: ONE }, token: TWO }));
    const state = store.dumpState();
    expect(state.clients).toStrictEqual([
      { tokenSha256: sha256Hex(ONE), tokenId, client, createdAt: T0, expiresAt: T0 + 86_400_000 },
      { tokenSha256: sha256Hex(TWO), tokenId: rolled.added.tokenId, client, createdAt: T0, expiresAt: null },
    ]);
    expect(JSON.stringify(state)).not.toContain('token-one');
    expect(JSON.stringify(state)).not.toContain('token-two');
  });

  // Found by a security review: the id was the first 16 hex digits of the token's SHA-256, so a
  // weak token was one lookup away from anyone reading the request log.
  it('gives each token a random id: not from its digest, another in another store, kept across calls', async () => {
    const first = createMemoryCredentialStore(config);
    const second = createMemoryCredentialStore(config);
    const id = (await expectOk(first.authenticate(ONE)))?.tokenId;
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(sha256Hex(ONE)).not.toContain(id);
    expect((await expectOk(first.authenticate(ONE)))?.tokenId).toBe(id);
    expect((await expectOk(second.authenticate(ONE)))?.tokenId).not.toBe(id);
    expect(first.dumpState().clients[0]?.tokenId).toBe(id);
  });
});
