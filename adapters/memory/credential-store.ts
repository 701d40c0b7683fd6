import { createHash, timingSafeEqual } from 'node:crypto';
import { ok } from 'neverthrow';
import type { Client, CredentialStore, Profile } from '../../src/ports/credential-store.js';
import { parseSandboxConfig, type SandboxConfig } from './sandbox-config.js';

/** What a `MemoryCredentialStore` holds, as plain data: token hashes, never tokens. */
export interface CredentialStoreState {
  readonly clients: readonly { readonly tokenSha256: string; readonly client: Client }[];
  readonly profiles: readonly Profile[];
}

/** The in-memory `CredentialStore`, plus a view of its state for tests. */
export interface MemoryCredentialStore extends CredentialStore {
  /** Everything the store keeps, for tests and debugging. Contains no token. */
  dumpState(): CredentialStoreState;
}

interface ClientEntry {
  readonly digest: Buffer;
  readonly client: Client;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Resolves bearer tokens against a sandbox config (decisions.md section 7). Only SHA-256
 * digests of the tokens are kept; a presented token is hashed, looked up by its digest and
 * confirmed with `timingSafeEqual`. Client ids are derived from the digest
 * (`client_` + 16 hex), so they are stable across restarts and reveal nothing usable.
 *
 * @throws Error when `config` does not pass `sandboxConfigSchema` (validate files with
 * `parseSandboxConfig` first to get the issues as a value).
 */
export function createMemoryCredentialStore(config: SandboxConfig): MemoryCredentialStore {
  const parsed = parseSandboxConfig(config);
  if (parsed.isErr()) throw new Error(parsed.error.message);
  const valid = parsed.value;

  const profiles = new Map<string, Profile>();
  for (const partner of valid.partners) {
    for (const profile of partner.profiles) {
      profiles.set(profile.id, Object.freeze({ id: profile.id, partnerId: partner.id, name: profile.name }));
    }
  }

  const clients = new Map<string, ClientEntry>();
  for (const client of valid.clients) {
    const digest = sha256(client.token);
    const digestHex = digest.toString('hex');
    const id = `client_${sha256(`paystate-client-id:${digestHex}`).toString('hex').slice(0, 16)}`;
    clients.set(digestHex, {
      digest,
      client: Object.freeze({
        id,
        partnerId: client.partner_id,
        profileIds: Object.freeze([...client.profile_ids]),
        pciDssCompliant: client.pci_dss_compliant,
      }),
    });
  }

  return {
    authenticate(token) {
      const digest = sha256(token);
      const entry = clients.get(digest.toString('hex'));
      return ok(entry !== undefined && timingSafeEqual(entry.digest, digest) ? entry.client : null);
    },
    findProfile: (profileId) => ok(profiles.get(profileId) ?? null),
    dumpState: () => ({
      clients: [...clients].map(([tokenSha256, entry]) => ({ tokenSha256, client: entry.client })),
      profiles: [...profiles.values()],
    }),
  };
}
