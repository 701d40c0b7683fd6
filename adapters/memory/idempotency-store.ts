import { ok } from 'neverthrow';
import type { IdempotencyStore, StoredResponse } from '../../src/ports/idempotency-store.js';
import { frozenCopy } from './frozen-copy.js';

/** The in-memory `IdempotencyStore`, plus a view for tests. */
export interface MemoryIdempotencyStore extends IdempotencyStore {
  /** Number of entries held (in progress and completed, expired ones not yet purged included). */
  size(): number;
}

interface Entry {
  readonly fingerprint: string;
  readonly expiresAt: number;
  response: StoredResponse | null;
}

/** `begin` purges expired entries once the store has grown past this many since the last purge. */
const MIN_PURGE_THRESHOLD = 1024;

/**
 * Keeps `Idempotency-Key` entries in process memory, per client. `begin` is atomic (it runs to
 * completion within one turn of the event loop); an entry lives `ttlMs` from its `begin`, and an
 * expired entry counts as absent. Stored responses are frozen copies. Expired entries are
 * dropped by `purgeExpired` and, now and then, by `begin`.
 */
export function createMemoryIdempotencyStore(): MemoryIdempotencyStore {
  const clients = new Map<string, Map<string, Entry>>();
  let count = 0;
  let purgeThreshold = MIN_PURGE_THRESHOLD;

  const purge = (now: number): number => {
    let purged = 0;
    for (const [clientId, keys] of clients) {
      for (const [key, entry] of keys) {
        if (entry.expiresAt <= now) {
          keys.delete(key);
          purged += 1;
        }
      }
      if (keys.size === 0) clients.delete(clientId);
    }
    count -= purged;
    purgeThreshold = Math.max(MIN_PURGE_THRESHOLD, count * 2);
    return purged;
  };

  const find = (clientId: string, key: string): Entry | undefined => clients.get(clientId)?.get(key);

  return {
    begin({ clientId, key, fingerprint, now, ttlMs }) {
      const existing = find(clientId, key);
      if (existing !== undefined && existing.expiresAt > now) {
        if (existing.fingerprint !== fingerprint) return ok({ kind: 'mismatch' as const });
        if (existing.response === null) return ok({ kind: 'in_progress' as const });
        return ok({ kind: 'completed' as const, response: existing.response });
      }
      let keys = clients.get(clientId);
      if (keys === undefined) {
        keys = new Map();
        clients.set(clientId, keys);
      }
      if (existing === undefined) count += 1;
      keys.set(key, { fingerprint, expiresAt: now + ttlMs, response: null });
      if (count >= purgeThreshold) purge(now);
      return ok({ kind: 'started' as const });
    },

    complete({ clientId, key, response }) {
      const entry = find(clientId, key);
      if (entry !== undefined && entry.response === null) entry.response = frozenCopy(response);
      return ok(undefined);
    },

    release({ clientId, key }) {
      const keys = clients.get(clientId);
      const entry = keys?.get(key);
      if (keys !== undefined && entry !== undefined && entry.response === null) {
        keys.delete(key);
        count -= 1;
        if (keys.size === 0) clients.delete(clientId);
      }
      return ok(undefined);
    },

    purgeExpired: (now) => ok(purge(now)),

    size: () => count,
  };
}
