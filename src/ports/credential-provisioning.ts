import type { Client, CredentialStoreError } from './credential-store.js';
import type { PortResult } from './port-result.js';

/**
 * The provisioning side of a credential store (clients, their tokens, rolls and revocations): its
 * interface, its inputs and the errors it may return. The memory and the Postgres store implement
 * it alike (`test/contracts/credential-store.contract.ts`); the checks both apply are in
 * `credential-provisioning-checks.ts`.
 */

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
