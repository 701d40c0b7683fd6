import { createHmac } from 'node:crypto';
import type { PageTokens } from '../../src/ports/page-tokens.js';

/** What the HMAC signs before the payment id, so that the key signs nothing else alike. */
const LABEL = 'paystate hosted page link v1\n';

/**
 * Hosted page tokens as base64url HMAC-SHA-256 of the payment id: nothing stored, the same on every
 * instance with the same secret. A `RangeError` unless `secret` has at least 32 characters.
 */
export function createHmacPageTokens(secret: string): PageTokens {
  if (typeof secret !== 'string' || secret.length < 32) {
    throw new RangeError('createHmacPageTokens needs a secret of at least 32 characters');
  }
  const key = Buffer.from(secret, 'utf8');
  return {
    tokenFor: (paymentId) => createHmac('sha256', key).update(LABEL).update(paymentId, 'utf8').digest('base64url'),
  };
}
