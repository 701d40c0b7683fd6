/** Callbacks waiting for each signal, behind one listener of its own. */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `callback` once `signal` aborts (at once when it has); the returned function stops that.
 * Every caller of one signal shares a single `abort` listener: the background worker's signal is
 * watched by every port call it has in flight, and Node warns of a leak
 * (`MaxListenersExceededWarning`, in the host's output) past ten listeners on one signal.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal.aborted) {
    callback();
    return () => undefined;
  }
  let callbacks = waiting.get(signal);
  if (callbacks === undefined) {
    const set = new Set<() => void>();
    callbacks = set;
    waiting.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const waiter of [...set]) waiter();
        set.clear();
      },
      { once: true },
    );
  }
  const entry = () => callback();
  const set = callbacks;
  set.add(entry);
  return () => {
    set.delete(entry);
  };
}
