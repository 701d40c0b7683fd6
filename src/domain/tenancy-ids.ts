/*
 * What a partner id, a profile id and an API token may be. Ids become path segments of
 * `_links` and `Location` (`/v1/partners/{partner_id}/profiles/{profile_id}/…`), so they keep
 * to URL-safe characters; tokens are what an `Authorization: Bearer` header can carry.
 */

/** At most this many characters in a partner or profile id. */
export const MAX_TENANCY_ID_LENGTH = 255;

/**
 * A partner or profile id: letters, digits, `_`, `-`, `.` and `~` (RFC 3986's unreserved
 * characters), not starting with a dot (so never `.` or `..`, which URLs collapse).
 */
export const TENANCY_ID_PATTERN = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;

/** `isTenancyId` in words, for error messages. */
export const TENANCY_ID_RULE = `1 to ${MAX_TENANCY_ID_LENGTH} of the characters A-Z a-z 0-9 _ - . ~, not starting with a dot`;

/** Whether `id` may be a partner or profile id (`TENANCY_ID_RULE`). */
export function isTenancyId(id: string): boolean {
  return id.length <= MAX_TENANCY_ID_LENGTH && TENANCY_ID_PATTERN.test(id);
}

/**
 * What the API promises of the ids it answers (payments-api.md, "Identifier prefixes"): a
 * partner id starts with `partner_`, a profile id with `profile_`, each followed by at least one
 * more character, and both are tenancy ids (`TENANCY_ID_RULE`). The credential stores refuse
 * partners and profiles whose ids break this, so that every id the API answers keeps it.
 */
export const PARTNER_ID_PREFIX = 'partner_';
/** What every profile id starts with (`isProfileId`). */
export const PROFILE_ID_PREFIX = 'profile_';

const prefixedRule = (prefix: string) =>
  `${prefix} followed by at least one of the characters A-Z a-z 0-9 _ - . ~ (at most ${MAX_TENANCY_ID_LENGTH} characters in all)`;

/** `isPartnerId` in words, for error messages. */
export const PARTNER_ID_RULE = prefixedRule(PARTNER_ID_PREFIX);
/** `isProfileId` in words, for error messages. */
export const PROFILE_ID_RULE = prefixedRule(PROFILE_ID_PREFIX);

/** Whether `id` may be a partner id (`PARTNER_ID_RULE`). */
export function isPartnerId(id: string): boolean {
  return id.length > PARTNER_ID_PREFIX.length && id.startsWith(PARTNER_ID_PREFIX) && isTenancyId(id);
}

/** Whether `id` may be a profile id (`PROFILE_ID_RULE`). */
export function isProfileId(id: string): boolean {
  return id.length > PROFILE_ID_PREFIX.length && id.startsWith(PROFILE_ID_PREFIX) && isTenancyId(id);
}

/** Longer bearer tokens are refused without hashing them. */
export const MAX_API_TOKEN_LENGTH = 4096;

/** An RFC 6750 `b64token`: what may follow `Bearer ` in an `Authorization` header. */
export const API_TOKEN_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** `isApiToken` in words, for error messages. */
export const API_TOKEN_RULE = `1 to ${MAX_API_TOKEN_LENGTH} characters of an RFC 6750 bearer token (A-Z a-z 0-9 - . _ ~ + /, then optional trailing =)`;

/** Whether `token` can be presented as `Authorization: Bearer <token>` (`API_TOKEN_RULE`). */
export function isApiToken(token: string): boolean {
  return token.length <= MAX_API_TOKEN_LENGTH && API_TOKEN_PATTERN.test(token);
}
