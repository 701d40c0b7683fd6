import { createHash, randomBytes } from 'node:crypto';

/** The SHA-256 digest of an API token, as every credential store keeps it (never the token). */
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

/** A new `ClientToken.tokenId` (`TOKEN_ID_PATTERN`): 64 random bits, nothing of the token. */
export const newTokenId = (): string => randomBytes(8).toString('hex');
