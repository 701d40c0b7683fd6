/** Callbacks waiting for each signal, behind one listener of its own. */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/** The callbacks waiting for `signal`, with the one listener that calls them once it aborts. */
function waitingFor(signal: AbortSignal): Set<() => void> {
  const known = waiting.get(signal);
  if (known !== undefined) return known;
  const callbacks = new Set<() => void>();
  waiting.set(signal, callbacks);
  signal.addEventListener(
    'abort',
    () => {
      waiting.delete(signal);
      for (const callback of [...callbacks]) callback();
      callbacks.clear();
    },
    { once: true },
  );
  return callbacks;
}

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
  const callbacks = waitingFor(signal);
  // An entry of its own, so that one callback given twice is called twice and stopped once each.
  const entry = () => callback();
  callbacks.add(entry);
  return () => {
    callbacks.delete(entry);
  };
}
