import { Duration, Effect } from 'effect';

/** How many ticks make one time-out: a deadline fires between `timeoutMs` and 9/8 of it. */
const TICKS = 8;

/**
 * The latest a deadline of `timeoutMs` fires after it was added, timer lag aside: one tick more
 * than the length, a tick being an eighth of it but at least a millisecond.
 */
export const latestExpiryMs = (timeoutMs: number): number => (TICKS + 1) * Math.max(1, timeoutMs / TICKS);

/**
 * Time-outs of pending port answers. One Effect fiber per time-out length keeps every deadline of
 * that length: it wakes every eighth of the length while something is pending, fires what has
 * waited the whole length, and ends when nothing is left. A call therefore costs an entry in a
 * set, not a timer and a fiber of its own; a deadline fires after `timeoutMs`, and at most an
 * eighth of it later.
 */
export interface DeadlineWheel {
  /** Calls `expire` once `timeoutMs` has passed; the returned function cancels that. */
  add(timeoutMs: number, expire: () => void): () => void;
  /** Deadlines waiting, over every length. */
  pending(): number;
  /** How many fibers are running (one per length with something pending). */
  running(): number;
}

interface Ring {
  readonly slots: Set<() => void>[];
  current: number;
  live: number;
  /** The fiber that turns the ring now (a count), or null while nothing is pending. */
  fiber: number | null;
}

export function createDeadlineWheel(): DeadlineWheel {
  const rings = new Map<number, Ring>();
  let pending = 0;
  let running = 0;
  let fibers = 0;

  /** Stops the ring's fiber in the same step that finds it idle, so an `add` after it starts a new one. */
  const stop = (ring: Ring, fiber: number): void => {
    if (ring.fiber !== fiber) return;
    ring.fiber = null;
    running -= 1;
  };

  const turn = (ring: Ring, fiber: number): void => {
    ring.current = (ring.current + 1) % ring.slots.length;
    const due = ring.slots[ring.current] as Set<() => void>;
    if (due.size > 0) {
      const expired = [...due];
      due.clear();
      ring.live -= expired.length;
      pending -= expired.length;
      for (const expire of expired) {
        try {
          expire();
        } catch {
          // Only a host's logger can throw here, after the deadline has fired: the wheel goes on
          // for every other deadline.
        }
      }
    }
    if (ring.live === 0) stop(ring, fiber);
  };

  const start = (ring: Ring, timeoutMs: number): void => {
    fibers += 1;
    const fiber = fibers;
    ring.fiber = fiber;
    running += 1;
    const tick = Duration.millis(Math.max(1, timeoutMs / TICKS));
    const loop = Effect.whileLoop({
      while: () => ring.fiber === fiber,
      body: () =>
        Effect.zipRight(
          Effect.sleep(tick),
          Effect.sync(() => turn(ring, fiber)),
        ),
      step: () => undefined,
    });
    Effect.runFork(
      Effect.ensuring(
        loop,
        Effect.sync(() => stop(ring, fiber)),
      ),
    );
  };

  return {
    add(timeoutMs, expire) {
      let ring = rings.get(timeoutMs);
      if (ring === undefined) {
        ring = { slots: Array.from({ length: TICKS + 1 }, () => new Set()), current: 0, live: 0, fiber: null };
        rings.set(timeoutMs, ring);
      }
      const slot = ring.slots[ring.current] as Set<() => void>;
      // A function already waiting in this slot waits once (a set), and is counted once.
      if (slot.has(expire)) return () => undefined;
      slot.add(expire);
      ring.live += 1;
      pending += 1;
      if (ring.fiber === null) start(ring, timeoutMs);
      const owner = ring;
      return () => {
        if (slot.delete(expire)) {
          owner.live -= 1;
          pending -= 1;
        }
      };
    },
    pending: () => pending,
    running: () => running,
  };
}
