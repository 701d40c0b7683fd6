import { randomFillSync } from 'node:crypto';
import type { IdGenerator } from '../../src/ports/id-generator.js';

const POOL_BYTES = 4096;

/**
 * Ids and secrets from Node's CSPRNG: 128-bit hex ids, 192-bit base64url secrets. Random bytes
 * are drawn 4 KiB at a time and handed out once each (a `randomBytes` call per id costs more
 * than the rest of making it); no byte is ever used twice.
 */
export function createCryptoIdGenerator(): IdGenerator {
  const pool = Buffer.alloc(POOL_BYTES);
  let offset = POOL_BYTES;
  const take = (length: number): Buffer => {
    if (offset + length > POOL_BYTES) {
      randomFillSync(pool);
      offset = 0;
    }
    const bytes = pool.subarray(offset, offset + length);
    offset += length;
    return bytes;
  };
  return {
    hex128: () => take(16).toString('hex'),
    secret: () => take(24).toString('base64url'),
  };
}
