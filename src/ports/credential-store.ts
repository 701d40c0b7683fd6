import type { PortFailure, PortResult } from './port-result.js';

/** An authenticated API client: one partner, a set of its profiles, PCI DSS status. */
export interface Client {
  readonly id: string;
  /** URL-safe (`isTenancyId`): it becomes a path segment of the payment's links. */
  readonly partnerId: string;
  /** Profiles that belong to `partnerId` now; a store leaves out any that moved to another partner. */
  readonly profileIds: readonly string[];
  readonly pciDssCompliant: boolean;
}

export interface Profile {
  readonly id: string;
  readonly partnerId: string;
  readonly name: string;
}

export type CredentialStoreError = PortFailure<'unavailable'>;

/**
 * Resolves bearer tokens to clients. Implementations keep only hashes of tokens at rest and
 * compare them in constant time.
 */
export interface CredentialStore {
  authenticate(token: string): PortResult<Client | null, CredentialStoreError>;
  findProfile(profileId: string): PortResult<Profile | null, CredentialStoreError>;
}
