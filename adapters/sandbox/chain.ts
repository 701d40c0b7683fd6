/** A value now, or later. */
export type Eventually<T> = T | Promise<T>;

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * `next(value)`, at once when `value` is there already: an in-memory store answers without a
 * microtask, and the sandbox then answers the engine at once too (it starts no timer).
 */
export function chain<T, U>(value: T | PromiseLike<T>, next: (ready: T) => Eventually<U>): Eventually<U> {
  return isPromiseLike(value) ? Promise.resolve(value).then(next) : next(value);
}

/**
 * Gives `answer` after `ms` milliseconds of simulated network latency. With no latency (0 or less)
 * the answer is given at once, as a plain value, the way the in-memory adapters answer: the engine
 * then starts no timer and does not wait.
 */
export function afterLatency<T>(ms: number, answer: T): T | Promise<T> {
  return ms > 0 ? new Promise((resolve) => setTimeout(() => resolve(answer), ms)) : answer;
}
