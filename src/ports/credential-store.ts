import type { PortFailure, PortResult } from './port-result.js';

/** An API client, as a bearer token identifies it: one partner's, for some of its profiles. */
export interface Client {
  /**
   * Unique among all clients of all partners, and never given to another client later:
   * `Idempotency-Key`s are scoped by it, so two clients sharing one would meet each other's keys.
   */
  readonly id: string;
  /** URL-safe (`isTenancyId`): it becomes a path segment of the payment's links. */
  readonly partnerId: string;
  /** Profiles that belong to `partnerId` now; a store leaves out any that moved to another partner. */
  readonly profileIds: readonly string[];
  /** May send card data (the direct flow); otherwise only hosted payments. */
  readonly pciDssCompliant: boolean;
  /**
   * Which of the client's tokens authenticated it, by an id that reveals nothing of the token and
   * cannot be worked out from it (the bundled stores: 16 random hex digits given to the token when
   * it was stored, `ClientToken.tokenId`). The API logs it on each
   * request's line, so that during a rotation an operator sees whether the old token is still in
   * use. Not part of the client's identity: `Idempotency-Key`s are scoped by `id`.
   */
  readonly tokenId?: string;
}

/** A merchant's profile: payments are made under one, and the hosted page shows its name. */
export interface Profile {
  readonly id: string;
  readonly partnerId: string;
  readonly name: string;
}

/** The store could not answer (its database is down); the API answers 503. */
export type CredentialStoreError = PortFailure<'unavailable'>;

/**
 * Resolves bearer tokens to clients. Implementations keep only hashes of tokens at rest and
 * compare them in constant time.
 */
export interface CredentialStore {
  authenticate(token: string): PortResult<Client | null, CredentialStoreError>;
  findProfile(profileId: string): PortResult<Profile | null, CredentialStoreError>;
}

/**
 * Whether `client` may act on `profileId`: one of its `profileIds`, compared whole. A store that
 * hands out `profileIds` as a string (plain JavaScript, a column read as text) allows nothing,
 * where `includes` on the string would have taken any part of it (`profile_12` allowing
 * `profile_1`).
 */
export function clientMayActOn(client: Client, profileId: string): boolean {
  return Array.isArray(client.profileIds) && client.profileIds.includes(profileId);
}
