import type { IdGenerator } from '../../src/ports/id-generator.js';

const MAX_SEED = 0xffff_ffff;

/**
 * A predictable `IdGenerator` for tests. `hex128()` returns the seed as 8 hex digits followed
 * by a counter as 24 (seed 0: `000…001`, `000…002`, …), so generators with different seeds
 * never collide. `secret()` counts on its own: `test_secret_` + 32 hex the same way.
 */
export function createSequentialIdGenerator(seed = 0): IdGenerator {
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new RangeError(`seed must be an integer from 0 to ${MAX_SEED}, got ${seed}`);
  }
  const prefix = seed.toString(16).padStart(8, '0');
  let ids = 0;
  let secrets = 0;
  const hex = (counter: number): string => prefix + counter.toString(16).padStart(24, '0');
  return {
    hex128: () => hex(++ids),
    secret: () => `test_secret_${hex(++secrets)}`,
  };
}
