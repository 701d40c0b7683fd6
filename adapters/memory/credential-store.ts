import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import {
  API_TOKEN_RULE,
  isApiToken,
  isPartnerId,
  isProfileId,
  isTenancyId,
  PARTNER_ID_RULE,
  PROFILE_ID_RULE,
  TENANCY_ID_RULE,
} from '../../src/domain/tenancy-ids.js';
import { API_TOKEN_STRENGTH_RULE, isStrongApiToken } from '../../src/domain/token-strength.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Client, CredentialStore, CredentialStoreError, Profile } from '../../src/ports/credential-store.js';
import type { PortResult } from '../../src/ports/port-result.js';
import { parseSandboxConfig, type SandboxConfig } from './sandbox-config.js';

/** A client to register: the token is hashed before the store keeps anything of it. */
export interface NewClient {
  /** A bearer token (`API_TOKEN_RULE`) too strong to guess (`API_TOKEN_STRENGTH_RULE`). */
  readonly token: string;
  readonly partnerId: string;
  readonly profileIds: readonly string[];
  readonly pciDssCompliant: boolean;
  /**
   * Default: the client that holds `token` already, else one derived from the token's digest
   * (`clientIdForTokenDigest`). An id of your own must not be given to another client later, of
   * any partner: `Idempotency-Key`s are scoped by the client's id, so a new client under an old id
   * would meet the old one's keys (a `422` telling that a key was used, or its answer replayed).
   */
  readonly id?: string;
}

/**
 * A client, profile or token refused before anything was stored: an id or token of the wrong form,
 * a client given a profile that does not exist or belongs to another partner, or an expiry that
 * is not a time to come. Never repeats a token.
 */
export type CredentialInputError = {
  readonly code: 'invalid_client' | 'invalid_profile' | 'invalid_token';
  readonly message: string;
  readonly retryable: false;
};

/**
 * A provisioning call refused for what is stored: `client_exists` (`putClient` with an id that
 * another token's client has), `token_in_use` (a token that still works for a client already),
 * `token_retired` (a token that was retired: revoked, rolled away from, expired, or deleted with
 * its client; it never works again, for any client), `unknown_client`, `unknown_token` (no such
 * token that still works). Never repeats a token or an id given.
 */
export type CredentialProvisioningError = {
  readonly code: 'client_exists' | 'token_in_use' | 'token_retired' | 'unknown_client' | 'unknown_token';
  readonly message: string;
  readonly retryable: false;
};

/** What a provisioning call may answer besides its value. */
export type ProvisioningFailure = CredentialStoreError | CredentialInputError | CredentialProvisioningError;

/**
 * One token of a client, as a listing shows it: never the token, nor its whole digest.
 * Times are epoch milliseconds of the store's clock.
 */
export interface ClientToken {
  /**
   * 16 random hex digits the store gave the token when it stored it (`newTokenId`), kept with it
   * and never derived from it: names the token in `rollToken` and `revokeToken`, and on the API's
   * log lines (`Client.tokenId`), without revealing anything of it.
   */
  readonly tokenId: string;
  readonly createdAt: number;
  /** From this instant on the token authenticates as no one; null: until revoked. */
  readonly expiresAt: number | null;
}

/** A token to give an existing client beside the ones it has. */
export interface NewToken {
  readonly clientId: string;
  /** A bearer token (`API_TOKEN_RULE`) too strong to guess (`API_TOKEN_STRENGTH_RULE`). */
  readonly token: string;
  /** When it stops working (epoch ms, later than now); default never (until revoked). */
  readonly expiresAt?: number;
}

/** Which token: the token itself, or its id (`ClientToken.tokenId`) among a client's tokens. */
export type TokenRef = { readonly token: string } | { readonly clientId: string; readonly tokenId: string };

/** A roll: `token` is added to the client of `old`, and `old` keeps working for `overlapMs` more. */
export interface TokenRoll {
  /** The token to retire; it must still work. */
  readonly old: TokenRef;
  /** The client's new token: a bearer token too strong to guess (`API_TOKEN_STRENGTH_RULE`). */
  readonly token: string;
  /**
   * How long the old token keeps working, in ms (a whole number, 0 or more): 0 revokes it at once.
   * Default `DEFAULT_TOKEN_OVERLAP_MS` (24 h). An earlier expiry the old token had stays.
   */
  readonly overlapMs?: number;
}

/** What a roll did. */
export interface RolledToken {
  /** The new token. */
  readonly added: ClientToken;
  /** The old token, with the expiry it now has (now, when it was revoked at once). */
  readonly retired: ClientToken;
}

/**
 * Provisioning of API clients and their tokens, the same on the memory and the Postgres store (a
 * shared contract suite checks both). A client may hold several tokens, each kept only as its
 * SHA-256 digest, each with an optional expiry judged by the store's clock. A token that has
 * expired is as good as revoked: it authenticates as no one, is not listed and does not count
 * as the client's.
 *
 * A token is retired for good when it is revoked, rolled away from with an overlap of 0, deleted
 * with its client (`removeClient`, revoking a client's last token, a re-import that leaves it out),
 * or seen expired: presented to `authenticate`, `removeClient`, `rollToken` or `revokeToken`, or
 * a token of a client that `addToken`, `rollToken` or `revokeToken` changes. The store keeps its
 * digest and refuses it for good (`token_retired` from `putClient`, `addToken`, `rollToken`), so
 * a leaked token, once retired, never works again; and an expired token once seen so stays
 * expired even if the clock goes back. (One that nobody presented since it expired is judged by
 * the clock alone: a clock set back before its expiry lets it in again until then.)
 */
export interface CredentialProvisioning {
  /**
   * Adds a client with `token`, or updates the client that holds `token` (its partner, profiles
   * and PCI DSS status; its id and tokens stay). Every profile must exist and belong to the
   * client's partner, and the token be too strong to guess (`API_TOKEN_STRENGTH_RULE`):
   * `invalid_client` otherwise. `token_in_use` when `token` is another
   * client's than the `id` given; `client_exists` when the id (given, or derived from a token
   * that no longer works) belongs to a client that does not hold `token`.
   */
  putClient(client: NewClient): PortResult<Client, ProvisioningFailure>;
  /**
   * Deletes the client that holds `token`, with all its tokens (to revoke one token only:
   * `revokeToken`). True when there was one.
   */
  removeClient(token: string): PortResult<boolean, CredentialStoreError>;
  /**
   * Gives an existing client one more token (`unknown_client`, `token_in_use`, `invalid_token`: one
   * that is no bearer token, or weaker than `API_TOKEN_STRENGTH_RULE`).
   */
  addToken(token: NewToken): PortResult<ClientToken, ProvisioningFailure>;
  /**
   * Rolls a token: adds the new one to the same client (which keeps its id, so its
   * `Idempotency-Key`s keep working) and gives the old one an expiry `overlapMs` from now (0:
   * revoked at once), in one step. `unknown_token` when the old token does not work (unknown,
   * revoked, expired), `unknown_client` for a `clientId` that is no client's, `token_in_use`,
   * `invalid_token`.
   */
  rollToken(roll: TokenRoll): PortResult<RolledToken, ProvisioningFailure>;
  /**
   * Revokes one token at once. The client keeps its other tokens; revoking its last one that
   * still works deletes the client, as `removeClient` does. True when a token that still
   * worked was revoked.
   */
  revokeToken(ref: TokenRef): PortResult<boolean, CredentialStoreError>;
  /** A client's tokens that still work, oldest first; null when there is no such client. */
  listTokens(clientId: string): PortResult<readonly ClientToken[] | null, CredentialStoreError>;
}

/** How long a rolled token keeps working by default: 24 hours. */
export const DEFAULT_TOKEN_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A `ClientToken.tokenId`: 16 lower-case hex digits. */
export const TOKEN_ID_PATTERN = /^[0-9a-f]{16}$/;

/** A new `ClientToken.tokenId`: 64 random bits, nothing of the token. */
export const newTokenId = (): string => randomBytes(8).toString('hex');

/** The latest instant a `Date` holds: expiries beyond it are refused. */
const LATEST_TIME = 8.64e15;

/** The SHA-256 digest of a token, as both stores keep it. */
export const tokenDigest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * The client id a token's digest gives when none is chosen: `client_` + 16 hex of a SHA-256 of the
 * digest, the same on every store, stable across restarts, revealing nothing usable.
 */
export function clientIdForTokenDigest(digest: Buffer): string {
  return `client_${createHash('sha256')
    .update(`paystate-client-id:${digest.toString('hex')}`, 'utf8')
    .digest('hex')
    .slice(0, 16)}`;
}

/** Builds an input error (the message must not repeat a token). */
export const invalidInput = (code: CredentialInputError['code'], message: string): CredentialInputError => ({
  code,
  message,
  retryable: false,
});

/** Builds a provisioning error; the messages name no token and no id given. */
export function provisioningError(code: CredentialProvisioningError['code']): CredentialProvisioningError {
  const messages: Readonly<Record<CredentialProvisioningError['code'], string>> = {
    client_exists:
      'A client with this id exists and does not hold this token: give it the token with addToken, or choose another id',
    token_in_use: 'This token is in use already: choose another one',
    token_retired:
      'This token was retired (revoked, rolled away from, expired, or deleted with its client) and never works again: choose another one',
    unknown_client: 'There is no client with this id',
    unknown_token: 'There is no such token that still works (unknown, revoked or expired)',
  };
  return { code, message: messages[code], retryable: false };
}

/** Why a client cannot be stored as given, or null. Never repeats the token. */
export function clientProblem(client: NewClient): string | null {
  if (!isApiToken(client.token)) return `The token must be ${API_TOKEN_RULE}`;
  if (!isStrongApiToken(client.token)) return `The token is too weak: it must be ${API_TOKEN_STRENGTH_RULE}`;
  if (!isPartnerId(client.partnerId)) return `The partner id must be ${PARTNER_ID_RULE}`;
  if (!client.profileIds.every(isProfileId)) return `Every profile id must be ${PROFILE_ID_RULE}`;
  if (client.id !== undefined && !isTenancyId(client.id)) return `The client id must be ${TENANCY_ID_RULE}`;
  return null;
}

/** The message for a client whose profiles are unknown or another partner's. */
export const foreignProfilesMessage = (partnerId: string): string =>
  `Every profile must exist and belong to partner ${partnerId}`;

/** Why a new token cannot be stored, or null. Never repeats the token. */
export function newTokenProblem(token: string): CredentialInputError | null {
  if (!isApiToken(token)) return invalidInput('invalid_token', `The new token must be ${API_TOKEN_RULE}`);
  return isStrongApiToken(token)
    ? null
    : invalidInput('invalid_token', `The new token is too weak: it must be ${API_TOKEN_STRENGTH_RULE}`);
}

/** The expiry `overlapMs` from `now`, or why it cannot be one. */
export function overlapExpiry(now: number, overlapMs: number | undefined): Result<number, CredentialInputError> {
  const overlap = overlapMs ?? DEFAULT_TOKEN_OVERLAP_MS;
  return Number.isSafeInteger(overlap) && overlap >= 0 && now + overlap <= LATEST_TIME
    ? ok(now + overlap)
    : err(invalidInput('invalid_token', 'The overlap must be a whole number of milliseconds, 0 or more'));
}

/** Checks a new token's own expiry against `now`: a whole number of epoch ms after it, or none. */
export function tokenExpiry(now: number, expiresAt: number | undefined): Result<number | null, CredentialInputError> {
  if (expiresAt === undefined) return ok(null);
  return Number.isSafeInteger(expiresAt) && expiresAt > now && expiresAt <= LATEST_TIME
    ? ok(expiresAt)
    : err(invalidInput('invalid_token', 'The expiry must be a whole number of epoch milliseconds after now'));
}

/** A clock's time as the stores keep it: whole milliseconds. */
export const clockTime = (clock: Clock): number => Math.floor(clock.now());

/** The system time, for stores not given a clock. */
export const SYSTEM_TIME: Clock = Object.freeze({ now: () => Date.now() });

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
 * Resolves bearer tokens against a sandbox config (decisions.md section 7), and provisions clients
 * and tokens (`CredentialProvisioning`) in memory. Only SHA-256 digests of the tokens are kept; a
 * presented token is hashed, looked up by its digest and confirmed with `timingSafeEqual`. Client
 * ids are derived from the digest of the client's first token (`client_` + 16 hex), so they are
 * stable across restarts and reveal nothing usable (tokens are too strong to guess). Token ids are
 * random, made when a token is stored (again at every start for the config's). Token expiry is
 * judged by `options.clock`.
 * The digests of retired tokens are kept too, in memory (a restart forgets them, as it forgets
 * everything provisioned at run time), so that they are never taken again.
 *
 * @throws Error when `config` does not pass `sandboxConfigSchema` (validate files with
 * `parseSandboxConfig` first to get the issues as a value).
 */
export function createMemoryCredentialStore(
  config: SandboxConfig,
  options: MemoryCredentialStoreOptions = {},
): MemoryCredentialStore {
  const parsed = parseSandboxConfig(config);
  if (parsed.isErr()) throw new Error(parsed.error.message);
  const valid = parsed.value;
  const clock = options.clock ?? SYSTEM_TIME;

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
        found === undefined || client === undefined
          ? null
          : Object.freeze({
              id: client.id,
              partnerId: client.partnerId,
              profileIds: client.profileIds,
              pciDssCompliant: client.pciDssCompliant,
              tokenId: found[1].tokenId,
            }),
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
      if (owner === undefined && retired.has(key)) return err(provisioningError('token_retired'));
      const stored = frozenClient(id, client);
      clients.set(id, stored);
      if (owner === undefined) {
        tokens.set(key, { digest, tokenId: newTokenId(), clientId: id, createdAt: now, expiresAt: null });
      }
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
      const digest = tokenDigest(request.token);
      const key = digest.toString('hex');
      purgeExpired(request.clientId, key, now);
      if (tokens.has(key)) return err(provisioningError('token_in_use'));
      if (retired.has(key)) return err(provisioningError('token_retired'));
      const entry: TokenEntry = {
        digest,
        tokenId: newTokenId(),
        clientId: request.clientId,
        createdAt: now,
        expiresAt: expiry.value,
      };
      tokens.set(key, entry);
      return ok(listed(entry));
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
      const digest = tokenDigest(roll.token);
      const key = digest.toString('hex');
      purgeExpired(clientId, key, now);
      if (tokens.has(key)) return err(provisioningError('token_in_use'));
      if (retired.has(key)) return err(provisioningError('token_retired'));
      const added: TokenEntry = { digest, tokenId: newTokenId(), clientId, createdAt: now, expiresAt: null };
      tokens.set(key, added);
      const ended = found.map(([oldKey, entry]) => {
        const expiresAt = entry.expiresAt === null ? until.value : Math.min(entry.expiresAt, until.value);
        const next: TokenEntry = { ...entry, expiresAt };
        if (expiresAt <= now) retire(oldKey);
        else tokens.set(oldKey, next);
        return next;
      });
      return ok({ added: listed(added), retired: listed(ended[0] as TokenEntry) });
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
      clients: [...tokens.values()].flatMap((entry) => {
        const client = clients.get(entry.clientId);
        return client === undefined
          ? []
          : [
              {
                tokenSha256: entry.digest.toString('hex'),
                tokenId: entry.tokenId,
                client,
                createdAt: entry.createdAt,
                expiresAt: entry.expiresAt,
              },
            ];
      }),
      profiles: [...profiles.values()],
      retiredTokenSha256: [...retired],
    }),
  };
}
