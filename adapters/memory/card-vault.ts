import { ok, type Ok } from 'neverthrow';
import type { CardData } from '../../src/domain/card.js';
import type { CardVault } from '../../src/ports/card-vault.js';
import type { Clock } from '../../src/ports/clock.js';
import { frozenCopy } from './frozen-copy.js';

/** The in-memory `CardVault`, plus housekeeping. */
export interface MemoryCardVault extends CardVault {
  /** Drops every entry whose `expiresAt` has passed (by `now`, default the clock's); answers how many. */
  purgeExpired(now?: number): Ok<number, never>;
  /** Number of entries held, expired ones not yet purged included. */
  size(): number;
}

interface Entry {
  readonly card: CardData;
  readonly expiresAt: number;
}

/** Purges run on `put` once the vault has grown past this many entries since the last purge. */
const MIN_PURGE_THRESHOLD = 64;

/**
 * Keeps card data in process memory only, until `take` or `expiresAt` (an entry is gone once
 * `clock.now() >= expiresAt`). Expiry is checked on every access; `put` also purges expired
 * entries now and then so an abandoned challenge does not keep a CVC in memory for long.
 */
export function createMemoryCardVault(clock: Clock): MemoryCardVault {
  const entries = new Map<string, Entry>();
  let purgeThreshold = MIN_PURGE_THRESHOLD;

  const purgeExpired = (now = clock.now()): Ok<number, never> => {
    let purged = 0;
    for (const [paymentId, entry] of entries) {
      if (now >= entry.expiresAt) {
        entries.delete(paymentId);
        purged += 1;
      }
    }
    purgeThreshold = Math.max(MIN_PURGE_THRESHOLD, entries.size * 2);
    return ok(purged);
  };

  return {
    put(paymentId, card, expiresAt) {
      entries.set(paymentId, { card: frozenCopy(card), expiresAt });
      if (entries.size >= purgeThreshold) purgeExpired(clock.now());
      return ok(undefined);
    },
    take(paymentId) {
      const entry = entries.get(paymentId);
      entries.delete(paymentId);
      return ok(entry !== undefined && clock.now() < entry.expiresAt ? entry.card : null);
    },
    purgeExpired,
    size: () => entries.size,
  };
}
