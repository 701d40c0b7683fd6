import { randomBytes } from 'node:crypto';
import type { IdGenerator } from '../../src/ports/id-generator.js';

/** Ids and secrets from Node's CSPRNG: 128-bit hex ids, 192-bit base64url secrets. */
export function createCryptoIdGenerator(): IdGenerator {
  return {
    hex128: () => randomBytes(16).toString('hex'),
    secret: () => randomBytes(24).toString('base64url'),
  };
}
