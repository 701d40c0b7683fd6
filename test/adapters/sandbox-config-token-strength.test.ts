import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMemoryCredentialStore, parseSandboxConfig, type SandboxConfig } from '../../adapters/memory/index.js';
import { PUBLIC_SANDBOX_TOKENS } from '../../adapters/memory/public-sandbox-tokens.js';
import { BUNDLED_SANDBOX_CONFIG } from '../../adapters/sandbox-server/index.js';
import { expectOk } from '../contracts/payment-repository.contract.js';

/*
 * Found by a security review: a config client with the token "a" worked, and the request log's
 * tokenId (then the first 16 hex digits of the token's SHA-256) gave such a token away to anyone
 * reading the log. A configured token must now be too strong to guess.
 */

const STRONG = 'tok_shop_Gh3Jk5Lm7Np9Qr2St4';

/** A config whose second client has `token`. */
const configWith = (token: string): SandboxConfig => ({
  partners: [{ id: 'partner_1', profiles: [{ id: 'profile_1', name: 'Shop' }] }],
  clients: [
    { token: STRONG, partner_id: 'partner_1', profile_ids: ['profile_1'], pci_dss_compliant: true },
    { token, partner_id: 'partner_1', profile_ids: ['profile_1'], pci_dss_compliant: false },
  ],
});

const WEAK = [
  'a',
  'secret-token-xyz',
  'tok_alpha_compliant',
  'token-of-b-0123456789',
  `tok_${'Q'.repeat(60)}`,
  'aB3-'.repeat(16),
  'password'.repeat(8),
  `${'0'.repeat(50)}1234567`,
];

describe("a sandbox config's tokens", () => {
  it('refuses a weak token, naming the client by its place and never the token', () => {
    for (const token of WEAK) {
      const error = parseSandboxConfig(configWith(token))._unsafeUnwrapErr();
      expect(error.issues, token).toEqual([
        { path: 'clients[1].token', message: expect.stringMatching(/^is too weak/) },
      ]);
      expect(error.message).toContain('clients[1].token: is too weak: a token must be at least 128 bits strong');
      if (token.length > 1) expect(error.message).not.toContain(token);
      expect(() => createMemoryCredentialStore(configWith(token))).toThrow(/clients\[1\]\.token: is too weak/);
    }
  });

  it('accepts a strong token, and any of 32 random bytes', async () => {
    for (const token of [
      STRONG.replace('shop', 'other'),
      randomBytes(32).toString('base64url'),
      randomBytes(32).toString('hex'),
      randomBytes(32).toString('base64'),
    ]) {
      const store = createMemoryCredentialStore(configWith(token));
      expect((await expectOk(store.authenticate(token)))?.pciDssCompliant).toBe(false);
    }
  });

  it("lets the bundled config's public tokens through, and no other weak token beside them", () => {
    expect(new Set(BUNDLED_SANDBOX_CONFIG.clients.map((client) => client.token))).toEqual(PUBLIC_SANDBOX_TOKENS);
    // Copies of it (with secrets, through a file) too: the tokens are public, not the object.
    const copy = JSON.parse(JSON.stringify({ ...BUNDLED_SANDBOX_CONFIG, schedules: { sweep_interval_ms: 50 } }));
    expect(parseSandboxConfig(copy).isOk()).toBe(true);
    const withWeak = {
      ...BUNDLED_SANDBOX_CONFIG,
      clients: [...BUNDLED_SANDBOX_CONFIG.clients, { ...BUNDLED_SANDBOX_CONFIG.clients[0]!, token: 'sandbox_token_4' }],
    };
    expect(parseSandboxConfig(withWeak)._unsafeUnwrapErr().issues).toEqual([
      { path: 'clients[3].token', message: expect.stringMatching(/^is too weak/) },
    ]);
  });
});
