import { randomBytes } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import type { SandboxSecretsConfig } from '../memory/index.js';

/**
 * The keys the sandbox's pages use: the hosted page's CSRF key, the simulated issuer's signing key
 * and the key of the hosted page links (`createHmacPageTokens`).
 */
export interface SandboxSecrets {
  readonly csrf: string;
  readonly challenge: string;
  readonly pageLink: string;
}

/** A card vault key of a key ring: its id and 32 bytes. */
export interface SandboxVaultKey {
  readonly id: string;
  readonly key: Uint8Array;
}

/** Everything instances on one database must share: the page keys and the card vault's key ring (newest last). */
export interface SharedSandboxSecrets extends SandboxSecrets {
  readonly cardVaultKeys: readonly SandboxVaultKey[];
}

/** A config's `secrets` with every field given. */
export type CompleteSandboxSecrets = {
  readonly [K in keyof SandboxSecretsConfig]-?: NonNullable<SandboxSecretsConfig[K]>;
};

/** The config fields `sharedSandboxSecrets` needs, in the order it names them when missing. */
const SHARED_FIELDS = ['csrf_secret', 'challenge_secret', 'page_link_secret', 'card_vault_keys'] as const;

/**
 * A new `secrets` object, for a secrets file or a config (`paystate secrets`): 32 random bytes each,
 * and one card vault key whose id is the day it was made.
 */
export function generateSandboxSecrets(now: Date): CompleteSandboxSecrets {
  return {
    csrf_secret: randomBytes(32).toString('base64url'),
    challenge_secret: randomBytes(32).toString('base64url'),
    page_link_secret: randomBytes(32).toString('base64url'),
    card_vault_keys: [{ id: `key-${now.toISOString().slice(0, 10)}`, key: randomBytes(32).toString('base64') }],
  };
}

/** The page keys given, each one missing made at random for this process alone. */
export function processSandboxSecrets(secrets: SandboxSecretsConfig | undefined): SandboxSecrets {
  return {
    csrf: secrets?.csrf_secret ?? randomBytes(32).toString('base64url'),
    challenge: secrets?.challenge_secret ?? randomBytes(32).toString('base64url'),
    pageLink: secrets?.page_link_secret ?? randomBytes(32).toString('base64url'),
  };
}

/** The secrets of a sandbox that shares a database with other instances, or the names of those missing. */
export function sharedSandboxSecrets(
  secrets: SandboxSecretsConfig | undefined,
): Result<SharedSandboxSecrets, readonly string[]> {
  const {
    csrf_secret: csrf,
    challenge_secret: challenge,
    page_link_secret: pageLink,
    card_vault_keys: keys,
  } = secrets ?? {};
  if (csrf === undefined || challenge === undefined || pageLink === undefined || keys === undefined) {
    return err(SHARED_FIELDS.filter((field) => secrets?.[field] === undefined));
  }
  const cardVaultKeys = keys.map(({ id, key }) => ({ id, key: new Uint8Array(Buffer.from(key, 'base64')) }));
  return ok({ csrf, challenge, pageLink, cardVaultKeys });
}
