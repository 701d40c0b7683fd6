import { createHash, randomBytes } from 'node:crypto';
import type { SandboxConfig } from '../../../adapters/memory/index.js';
import { clientIdForTokenDigest } from '../../../adapters/postgres/index.js';

/** A new random bearer token (192 bits: strong enough whatever characters it drew), labelled for the reader. */
export const token = (label: string): string => `tok_${label}_${randomBytes(24).toString('base64url')}`;

/** The client id a token's digest gives when none is chosen. */
export const clientIdOf = (value: string): string =>
  clientIdForTokenDigest(createHash('sha256').update(value).digest());

/** One partner with one profile, and a client of it per token. */
export const configWith = (...tokens: string[]): SandboxConfig => ({
  partners: [{ id: 'partner_a', profiles: [{ id: 'profile_a1', name: 'Shop A1' }] }],
  clients: tokens.map((value) => ({
    token: value,
    partner_id: 'partner_a',
    profile_ids: ['profile_a1'],
    pci_dss_compliant: false,
  })),
});
