import { err, ok, type Result } from 'neverthrow';
import { MAX_API_TOKEN_LENGTH } from '../../src/domain/tenancy-ids.js';
import type { Client } from '../../src/ports/credential-store.js';
import type { Logger } from '../../src/ports/logger.js';
import { problem, type Problem } from './problem-details.js';
import type { HttpDeps } from './route-context.js';
import { callCredentialStore, credentialStoreUnavailable } from './store-deadline.js';

// RFC 6750 section 2.1: `Bearer` (any case), one or more spaces, a b64token (`API_TOKEN_PATTERN`).
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

const REALM = 'Bearer realm="paystate"';
/** The `Bearer` scheme, with or without credentials after it. */
const BEARER_SCHEME = /^\s*bearer(?:\s|$)/i;

/** The token of an `Authorization: Bearer …` header, or null when absent or malformed. */
export function bearerToken(header: string | null): string | null {
  if (header === null || header.length > MAX_API_TOKEN_LENGTH + 16) return null;
  const token = BEARER.exec(header)?.[1];
  return token !== undefined && token.length <= MAX_API_TOKEN_LENGTH ? token : null;
}

function unauthorized(detail: string, error?: 'invalid_token'): Problem {
  return problem('unauthorized', detail, {
    headers: { 'www-authenticate': error === undefined ? REALM : `${REALM}, error="${error}"` },
  });
}

/**
 * The request's bearer token resolved to a client: missing, malformed and unknown tokens are 401
 * (`WWW-Authenticate: Bearer`); a store that fails or passes `storeTimeoutMs` is 503, logged.
 */
export async function authenticate(
  deps: Pick<HttpDeps, 'credentials' | 'logger' | 'storeTimeoutMs'>,
  authorization: string | null,
  logger: Logger = deps.logger,
): Promise<Result<Client, Problem>> {
  if (authorization === null || authorization.trim() === '') {
    return err(unauthorized('Send the access token in an `Authorization: Bearer <token>` header'));
  }
  const token = bearerToken(authorization);
  if (token === null) {
    // RFC 6750 section 3.1: credentials of another scheme are no bearer credentials at all, so
    // the challenge carries no error code; a malformed bearer token is an invalid token.
    const bearerScheme = BEARER_SCHEME.test(authorization);
    return err(
      unauthorized('The Authorization header must be `Bearer <token>`', bearerScheme ? 'invalid_token' : undefined),
    );
  }
  const found = await callCredentialStore(deps, 'authenticate', () => deps.credentials.authenticate(token), logger);
  if (found.isErr()) return err(credentialStoreUnavailable());
  if (found.value === null) return err(unauthorized('The access token is not valid', 'invalid_token'));
  return ok(found.value);
}
