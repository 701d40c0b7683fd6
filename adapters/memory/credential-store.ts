import { timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import type { Clock } from '../../src/ports/clock.js';
import {
  clientProblem,
  clockTime,
  foreignProfilesMessage,
  newTokenProblem,
  overlapExpiry,
  TOKEN_ID_PATTERN,
  tokenExpiry,
} from '../../src/ports/credential-provisioning-checks.js';
import {
  invalidInput,
  provisioningError,
  type ClientToken,
  type CredentialProvisioning,
  type NewClient,
  type ProvisioningFailure,
  type RolledToken,
  type TokenRef,
} from '../../src/ports/credential-provisioning.js';
import type { Client, CredentialStore, Profile } from '../../src/ports/credential-store.js';
import { clientIdForTokenDigest, newTokenId, systemClock, tokenDigest } from '../shared/index.js';
import { parseSandboxConfig, type SandboxConfig } from './sandbox-config.js';

/** What a `MemoryCredentialStore` holds, as plain data: token hashes, never tokens. */
export interface CredentialStoreState {
  /** One entry per stored token (a client with several tokens has one for each), in the order they were added. */
  readonly clients: readonly {
    readonly tokenSha256: string;
    /** The token's random id (`ClientToken.tokenId`). */
    readonly tokenId: string;
    readonly client: Client;
    readonly createdAt: number;
    readonly expiresAt: number | null;
  }[];
  readonly profiles: readonly Profile[];
  /** The SHA-256 digests (hex) of the retired tokens, which never work again. */
  readonly retiredTokenSha256: readonly string[];
}

/** Options of `createMemoryCredentialStore`. */
export interface MemoryCredentialStoreOptions {
  /** Judges token expiry and stamps `createdAt`; default the system time (`Date.now()`). */
  readonly clock?: Clock;
}

/** The in-memory `CredentialStore`, with provisioning and a view of its state for tests. */
export interface MemoryCredentialStore extends CredentialStore, CredentialProvisioning {
  /** Everything the store keeps, for tests and debugging. Contains no token. */
  dumpState(): CredentialStoreState;
}

interface TokenEntry {
  readonly digest: Buffer;
  readonly tokenId: string;
  readonly clientId: string;
  readonly createdAt: number;
  readonly expiresAt: number | null;
}

const worksAt = (entry: TokenEntry, now: number): boolean => entry.expiresAt === null || now < entry.expiresAt;

const listed = (entry: TokenEntry): ClientToken =>
  Object.freeze({ tokenId: entry.tokenId, createdAt: entry.createdAt, expiresAt: entry.expiresAt });

const byAge = (a: TokenEntry, b: TokenEntry): number => a.createdAt - b.createdAt || Buffer.compare(a.digest, b.digest);

const frozenClient = (id: string, client: Omit<NewClient, 'token' | 'id'>): Client =>
  Object.freeze({
    id,
    partnerId: client.partnerId,
    profileIds: Object.freeze([...client.profileIds]),
    pciDssCompliant: client.pciDssCompliant,
  });

/**
 * Bearer tokens of a sandbox config, and provisioning, in memory: SHA-256 digests only, client ids
 * from the first token's digest, retired digests kept until a restart (docs/ports.md). An Error for
 * a config that fails `sandboxConfigSchema` (`parseSandboxConfig` gives the issues as a value).
 */
export function createMemoryCredentialStore(
  config: SandboxConfig,
  options: MemoryCredentialStoreOptions = {},
): MemoryCredentialStore {
  const parsed = parseSandboxConfig(config);
  if (parsed.isErr()) throw new Error(parsed.error.message);
  const valid = parsed.value;
  const clock = options.clock ?? systemClock;

  const profiles = new Map<string, Profile>();
  for (const partner of valid.partners) {
    for (const profile of partner.profiles) {
      profiles.set(profile.id, Object.freeze({ id: profile.id, partnerId: partner.id, name: profile.name }));
    }
  }

  /** By client id. */
  const clients = new Map<string, Client>();
  /** By the token digest in hex. */
  const tokens = new Map<string, TokenEntry>();
  /** The digests (hex) of retired tokens: never stored again. */
  const retired = new Set<string>();
  const started = clockTime(clock);
  for (const client of valid.clients) {
    const digest = tokenDigest(client.token);
    const id = clientIdForTokenDigest(digest);
    clients.set(
      id,
      frozenClient(id, {
        partnerId: client.partner_id,
        profileIds: client.profile_ids,
        pciDssCompliant: client.pci_dss_compliant,
      }),
    );
    tokens.set(digest.toString('hex'), {
      digest,
      tokenId: newTokenId(),
      clientId: id,
      createdAt: started,
      expiresAt: null,
    });
  }

  const tokensOf = (clientId: string): [string, TokenEntry][] =>
    [...tokens].filter(([, entry]) => entry.clientId === clientId);

  /** Deletes a token for good: its digest is never stored again. */
  const retire = (key: string): void => {
    tokens.delete(key);
    retired.add(key);
  };

  /** The entry of a token that still works, found by the token's digest; one found expired is retired. */
  const working = (token: string, now: number): [string, TokenEntry] | undefined => {
    const digest = tokenDigest(token);
    const key = digest.toString('hex');
    const entry = tokens.get(key);
    if (entry === undefined || !timingSafeEqual(entry.digest, digest)) return undefined;
    if (worksAt(entry, now)) return [key, entry];
    retire(key);
    return undefined;
  };

  /** Retires the expired tokens of a client, and an expired entry of `digestHex` (whoever's). */
  const purgeExpired = (clientId: string, digestHex: string | null, now: number): void => {
    for (const [key, entry] of tokens) {
      if ((entry.clientId === clientId || key === digestHex) && !worksAt(entry, now)) retire(key);
    }
  };

  /** The entries `ref` names that still work, with their client's id (undefined: no such client). */
  const resolve = (
    ref: TokenRef,
    now: number,
  ): { readonly clientId: string | undefined; readonly found: [string, TokenEntry][] } => {
    if ('token' in ref) {
      const found = working(ref.token, now);
      if (found !== undefined) purgeExpired(found[1].clientId, null, now);
      return { clientId: found?.[1].clientId, found: found === undefined ? [] : [found] };
    }
    if (!clients.has(ref.clientId)) return { clientId: undefined, found: [] };
    purgeExpired(ref.clientId, null, now);
    const found = TOKEN_ID_PATTERN.test(ref.tokenId)
      ? tokensOf(ref.clientId).filter(([, entry]) => worksAt(entry, now) && entry.tokenId === ref.tokenId)
      : [];
    return { clientId: ref.clientId, found };
  };

  /** Stores a new token of `clientId`, unless its digest is another token's or retired. */
  const storeToken = (
    clientId: string,
    digest: Buffer,
    now: number,
    expiresAt: number | null,
  ): Result<TokenEntry, ProvisioningFailure> => {
    const key = digest.toString('hex');
    purgeExpired(clientId, key, now);
    if (tokens.has(key)) return err(provisioningError('token_in_use'));
    if (retired.has(key)) return err(provisioningError('token_retired'));
    const entry: TokenEntry = { digest, tokenId: newTokenId(), clientId, createdAt: now, expiresAt };
    tokens.set(key, entry);
    return ok(entry);
  };

  const deleteClient = (clientId: string): void => {
    clients.delete(clientId);
    for (const [key] of tokensOf(clientId)) retire(key);
  };

  const profilesAllowed = (client: NewClient): boolean =>
    client.profileIds.every((profileId) => profiles.get(profileId)?.partnerId === client.partnerId);

  return {
    authenticate(token) {
      const found = working(token, clockTime(clock));
      const client = found === undefined ? undefined : clients.get(found[1].clientId);
      return ok(
        found === undefined || client === undefined ? null : Object.freeze({ ...client, tokenId: found[1].tokenId }),
      );
    },

    findProfile: (profileId) => ok(profiles.get(profileId) ?? null),

    putClient(client): Result<Client, ProvisioningFailure> {
      const problem = clientProblem(client);
      if (problem !== null) return err(invalidInput('invalid_client', problem));
      const now = clockTime(clock);
      const digest = tokenDigest(client.token);
      const key = digest.toString('hex');
      const existing = tokens.get(key);
      if (existing !== undefined && !worksAt(existing, now)) retire(key);
      const owner = tokens.get(key)?.clientId;
      if (owner !== undefined && client.id !== undefined && owner !== client.id) {
        return err(provisioningError('token_in_use'));
      }
      if (!profilesAllowed(client))
        return err(invalidInput('invalid_client', foreignProfilesMessage(client.partnerId)));
      const id = owner ?? client.id ?? clientIdForTokenDigest(digest);
      if (owner === undefined && clients.has(id)) return err(provisioningError('client_exists'));
      const token = owner === undefined ? storeToken(id, digest, now, null) : ok(undefined);
      if (token.isErr()) return err(token.error);
      const stored = frozenClient(id, client);
      clients.set(id, stored);
      return ok(stored);
    },

    removeClient(token) {
      const found = working(token, clockTime(clock));
      if (found === undefined) return ok(false);
      deleteClient(found[1].clientId);
      return ok(true);
    },

    addToken(request): Result<ClientToken, ProvisioningFailure> {
      const problem = newTokenProblem(request.token);
      if (problem !== null) return err(problem);
      const now = clockTime(clock);
      const expiry = tokenExpiry(now, request.expiresAt);
      if (expiry.isErr()) return err(expiry.error);
      if (!clients.has(request.clientId)) return err(provisioningError('unknown_client'));
      return storeToken(request.clientId, tokenDigest(request.token), now, expiry.value).map(listed);
    },

    rollToken(roll): Result<RolledToken, ProvisioningFailure> {
      const problem = newTokenProblem(roll.token);
      if (problem !== null) return err(problem);
      const now = clockTime(clock);
      const until = overlapExpiry(now, roll.overlapMs);
      if (until.isErr()) return err(until.error);
      const { clientId, found } = resolve(roll.old, now);
      if (clientId === undefined) {
        return err(provisioningError('token' in roll.old ? 'unknown_token' : 'unknown_client'));
      }
      if (found.length === 0) return err(provisioningError('unknown_token'));
      const added = storeToken(clientId, tokenDigest(roll.token), now, null);
      if (added.isErr()) return err(added.error);
      const ended = found.map(([oldKey, entry]) => {
        const expiresAt = entry.expiresAt === null ? until.value : Math.min(entry.expiresAt, until.value);
        const next: TokenEntry = { ...entry, expiresAt };
        if (expiresAt <= now) retire(oldKey);
        else tokens.set(oldKey, next);
        return next;
      });
      return ok({ added: listed(added.value), retired: listed(ended[0] as TokenEntry) });
    },

    revokeToken(ref) {
      const now = clockTime(clock);
      const { clientId, found } = resolve(ref, now);
      if (clientId === undefined || found.length === 0) return ok(false);
      for (const [key] of found) retire(key);
      if (!tokensOf(clientId).some(([, entry]) => worksAt(entry, now))) deleteClient(clientId);
      return ok(true);
    },

    listTokens(clientId) {
      if (!clients.has(clientId)) return ok(null);
      const now = clockTime(clock);
      return ok(
        tokensOf(clientId)
          .map(([, entry]) => entry)
          .filter((entry) => worksAt(entry, now))
          .sort(byAge)
          .map(listed),
      );
    },

    dumpState: () => ({
      clients: [...tokens.values()].flatMap(({ digest, tokenId, clientId, createdAt, expiresAt }) => {
        const client = clients.get(clientId);
        return client === undefined
          ? []
          : [{ tokenSha256: digest.toString('hex'), tokenId, client, createdAt, expiresAt }];
      }),
      profiles: [...profiles.values()],
      retiredTokenSha256: [...retired],
    }),
  };
}
