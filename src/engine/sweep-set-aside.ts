/**
 * How long a payment the sweeper could not handle twice in a row waits before it is tried again:
 * `SET_ASIDE_FIRST_MS`, then twice as long after each further failure, up to `SET_ASIDE_MAX_MS`.
 */
export const SET_ASIDE_FIRST_MS = 10_000;
export const SET_ASIDE_MAX_MS = 3_600_000;

/** How many payments one engine keeps set aside at most, in batches (`batchSize`) of them. */
export const SET_ASIDE_BATCHES = 10;

/** A payment set aside: how many times in a row it failed, and the time it waits from and until. */
interface Entry {
  readonly failures: number;
  readonly failedAt: number;
  readonly retryAt: number;
}

/**
 * Payments the sweeper could not handle (a write or claim that failed, an adapter that threw),
 * kept in memory by the engine with a back-off, by the clock port. A failure the sweeper cannot
 * store in the payment's record (the failing write is what would store it) would otherwise leave
 * the payment due, at the head of every `findDue`, and once `batchSize` such payments had
 * gathered no other payment was ever expired or reconciled. An acquirer inquiry that fails is
 * backed off in the record instead (the machine's inquiry schedule): that write works.
 *
 * The first failure is tried again at the next batch (a storage blip costs nothing); from the
 * second in a row the payment waits `SET_ASIDE_FIRST_MS`, doubling up to `SET_ASIDE_MAX_MS`.
 * While it waits, the sweeper reads that many more due payments and passes it by. A clock that
 * went back before the failure ends the wait. At most `capacity` payments are set aside: past
 * that a payment is tried again at every batch, as before, and a clock that jumps is no reason to
 * keep anything for ever (an entry is forgotten once it has been free to run for
 * `SET_ASIDE_MAX_MS`, or when the clock went back before it).
 */
export interface SweepSetAside {
  /** Whether the payment waits at `now` (the sweeper passes it by). */
  waiting(paymentId: string, now: number): boolean;
  /** How many payments wait at `now`: how many more the sweeper reads to find the others. */
  waitingCount(now: number): number;
  /** The sweeper could not handle the payment: when it is tried again (`now` when at once). */
  failed(paymentId: string, now: number): number;
  /** The sweeper handled the payment (or another writer did): it is forgotten. */
  handled(paymentId: string): void;
}

export function createSweepSetAside(capacity: number): SweepSetAside {
  const entries = new Map<string, Entry>();
  const waits = (entry: Entry, now: number) => entry.failedAt <= now && now < entry.retryAt;
  const stale = (entry: Entry, now: number) => now < entry.failedAt || now >= entry.retryAt + SET_ASIDE_MAX_MS;
  return {
    waiting(paymentId, now) {
      const entry = entries.get(paymentId);
      return entry !== undefined && waits(entry, now);
    },
    waitingCount(now) {
      let count = 0;
      for (const [paymentId, entry] of entries) {
        if (stale(entry, now)) entries.delete(paymentId);
        else if (waits(entry, now)) count += 1;
      }
      return count;
    },
    failed(paymentId, now) {
      const before = entries.get(paymentId);
      if (before === undefined && entries.size >= capacity) return now;
      const failures = before === undefined || stale(before, now) ? 1 : before.failures + 1;
      const delayMs =
        failures < 2 ? 0 : Math.min(SET_ASIDE_MAX_MS, SET_ASIDE_FIRST_MS * 2 ** Math.min(failures - 2, 30));
      entries.set(paymentId, { failures, failedAt: now, retryAt: now + delayMs });
      return now + delayMs;
    },
    handled(paymentId) {
      entries.delete(paymentId);
    },
  };
}
