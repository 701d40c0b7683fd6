/** The checks of provisioning inputs that every credential store applies alike (`CredentialProvisioning`). */
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
} from '../domain/tenancy-ids.js';
import { API_TOKEN_STRENGTH_RULE, isStrongApiToken } from '../domain/token-strength.js';
import type { Clock } from './clock.js';
import {
  DEFAULT_TOKEN_OVERLAP_MS,
  invalidInput,
  type CredentialInputError,
  type NewClient,
} from './credential-provisioning.js';

/** A `ClientToken.tokenId`: 16 lower-case hex digits. */
export const TOKEN_ID_PATTERN = /^[0-9a-f]{16}$/;

/** The latest instant a `Date` holds: expiries beyond it are refused. */
const LATEST_TIME = 8.64e15;

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
