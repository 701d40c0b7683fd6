import * as Effect from 'effect/Effect';

/** How many ticks make one time-out of 8 ms or more: a deadline fires between `timeoutMs` and 9/8 of it. */
const TICKS = 8;

/**
 * How many ticks make one time-out: 8, but fewer for a time-out under 8 ms, as a tick takes at
 * least a millisecond (a timer waits no less). A 1 ms time-out was 8 ticks of a millisecond
 * each, and fired 8 to 9 ms after it was added.
 */
const ticksOf = (timeoutMs: number): number => Math.min(TICKS, Math.max(1, Math.floor(timeoutMs)));

/**
 * The latest a deadline of `timeoutMs` fires after it was added, timer lag aside: one tick more
 * than the length, a tick being an eighth of it (of 8 ms or more), else a millisecond or so.
 */
export const latestExpiryMs = (timeoutMs: number): number => timeoutMs + timeoutMs / ticksOf(timeoutMs);

/**
 * Time-outs of pending port answers. One Effect fiber per time-out length keeps every deadline of
 * that length: it wakes every eighth of the length while something is pending, fires what has
 * waited the whole length, and ends when nothing is left. A call therefore costs an entry in a
 * set, not a timer and a fiber of its own; a deadline fires after `timeoutMs`, and at most an
 * eighth of it later (a millisecond or so under 8 ms).
 *
 * Its timer keeps the process alive only while a deadline is pending: once the last one is
 * cancelled (its answer came), the tick under way no longer holds the process (Node's
 * `unref`), so a process that is done exits at once rather than up to a tick later, which is
 * 3.1 days for a time-out of 2^31 - 1 ms.
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
  /** How long a tick lasts: the length over its number of ticks (`ticksOf`). */
  readonly tickMs: number;
  current: number;
  live: number;
  /** The fiber that turns the ring now (a count), or null while nothing is pending. */
  fiber: number | null;
  /** The timer of the tick under way, if any, and whether it keeps the process alive. */
  timer: Timer | undefined;
  holds: boolean;
}

type Timer = ReturnType<typeof setTimeout>;

/** What Node's and Bun's timers have (a browser's or Deno's timer is a number: it is left as it is). */
interface Referenced {
  ref?(): unknown;
  unref?(): unknown;
}

/** Makes the ring's tick under way keep the process alive (a deadline is pending) or not (none is). */
function hold(ring: Ring, holds: boolean): void {
  if (ring.holds === holds || ring.timer === undefined) return;
  ring.holds = holds;
  const timer = ring.timer as unknown as Referenced;
  if (typeof timer !== 'object' || timer === null) return;
  if (holds) timer.ref?.();
  else timer.unref?.();
}

/** One tick of the ring: an Effect sleep on a timer of its own, which `hold` can let go of. */
function sleep(ring: Ring): Effect.Effect<void> {
  return Effect.async<void>((resume) => {
    const timer = setTimeout(() => {
      if (ring.timer === timer) ring.timer = undefined;
      resume(Effect.void);
    }, ring.tickMs);
    ring.timer = timer;
    ring.holds = true;
    if (ring.live === 0) hold(ring, false);
    return Effect.sync(() => {
      clearTimeout(timer);
      if (ring.timer === timer) ring.timer = undefined;
    });
  });
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

  const start = (ring: Ring): void => {
    fibers += 1;
    const fiber = fibers;
    ring.fiber = fiber;
    running += 1;
    const loop = Effect.whileLoop({
      while: () => ring.fiber === fiber,
      body: () =>
        Effect.zipRight(
          sleep(ring),
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
        const ticks = ticksOf(timeoutMs);
        ring = {
          slots: Array.from({ length: ticks + 1 }, () => new Set()),
          tickMs: timeoutMs / ticks,
          current: 0,
          live: 0,
          fiber: null,
          timer: undefined,
          holds: false,
        };
        rings.set(timeoutMs, ring);
      }
      const slot = ring.slots[ring.current] as Set<() => void>;
      // A function already waiting in this slot waits once (a set), and is counted once.
      if (slot.has(expire)) return () => undefined;
      slot.add(expire);
      ring.live += 1;
      pending += 1;
      if (ring.fiber === null) start(ring);
      else hold(ring, true);
      const owner = ring;
      return () => {
        if (slot.delete(expire)) {
          owner.live -= 1;
          pending -= 1;
          if (owner.live === 0) hold(owner, false);
        }
      };
    },
    pending: () => pending,
    running: () => running,
  };
}
