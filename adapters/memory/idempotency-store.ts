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
  /** The id reserved by the attempt that owns the entry; null when it reserved none. */
  readonly reservedId: string | null;
  /** The `now` of the `begin` that started the entry or last took it over: its owner. */
  readonly startedAt: number;
  response: StoredResponse | null;
}

/** Whether a settle call comes from the entry's owner (any caller when it names none). */
const ownedBy = (entry: Entry, startedAt: number | undefined): boolean =>
  startedAt === undefined || entry.startedAt === startedAt;

/**
 * An entry whose attempt is presumed dead: in progress with a reserved id, started at least
 * `staleAfterMs` before `now` (strictly before it, so a takeover always moves `startedAt` on).
 */
const isStale = (entry: Entry, now: number, staleAfterMs: number | undefined): boolean =>
  entry.response === null &&
  entry.reservedId !== null &&
  staleAfterMs !== undefined &&
  now - entry.startedAt >= staleAfterMs &&
  now > entry.startedAt;

/** `begin` purges expired entries once the store has grown past this many since the last purge. */
const MIN_PURGE_THRESHOLD = 1024;

/**
 * `Idempotency-Key` entries in process memory, per client: `begin` is atomic (one turn of the event
 * loop), an entry lives `ttlMs`, a stale one with a reserved id is taken over (docs/ports.md).
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
    begin({ clientId, key, fingerprint, now, ttlMs, reservedId, staleAfterMs }) {
      const existing = find(clientId, key);
      let reserved = reservedId ?? null;
      let takeover = false;
      if (existing !== undefined && existing.expiresAt > now) {
        if (existing.fingerprint !== fingerprint) return ok({ kind: 'mismatch' as const });
        if (existing.response !== null) return ok({ kind: 'completed' as const, response: existing.response });
        if (!isStale(existing, now, staleAfterMs)) return ok({ kind: 'in_progress' as const });
        reserved = existing.reservedId;
        takeover = true;
      }
      let keys = clients.get(clientId);
      if (keys === undefined) {
        keys = new Map();
        clients.set(clientId, keys);
      }
      if (existing === undefined) count += 1;
      keys.set(key, { fingerprint, expiresAt: now + ttlMs, reservedId: reserved, startedAt: now, response: null });
      if (count >= purgeThreshold) purge(now);
      return ok({ kind: 'started' as const, reservedId: reserved, takeover });
    },

    complete({ clientId, key, response, startedAt }) {
      const entry = find(clientId, key);
      if (entry !== undefined && entry.response === null && ownedBy(entry, startedAt)) {
        entry.response = frozenCopy(response);
      }
      return ok(undefined);
    },

    release({ clientId, key, startedAt }) {
      const keys = clients.get(clientId);
      const entry = keys?.get(key);
      if (keys !== undefined && entry !== undefined && entry.response === null && ownedBy(entry, startedAt)) {
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
