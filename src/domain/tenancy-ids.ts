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

export const TENANCY_ID_RULE = `1 to ${MAX_TENANCY_ID_LENGTH} of the characters A-Z a-z 0-9 _ - . ~, not starting with a dot`;

/** Whether `id` may be a partner or profile id (`TENANCY_ID_RULE`). */
export function isTenancyId(id: string): boolean {
  return id.length <= MAX_TENANCY_ID_LENGTH && TENANCY_ID_PATTERN.test(id);
}

/** Longer bearer tokens are refused without hashing them. */
export const MAX_API_TOKEN_LENGTH = 4096;

/** An RFC 6750 `b64token`: what may follow `Bearer ` in an `Authorization` header. */
export const API_TOKEN_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;

export const API_TOKEN_RULE = `1 to ${MAX_API_TOKEN_LENGTH} characters of an RFC 6750 bearer token (A-Z a-z 0-9 - . _ ~ + /, then optional trailing =)`;

/** Whether `token` can be presented as `Authorization: Bearer <token>` (`API_TOKEN_RULE`). */
export function isApiToken(token: string): boolean {
  return token.length <= MAX_API_TOKEN_LENGTH && API_TOKEN_PATTERN.test(token);
}
