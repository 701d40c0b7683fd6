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
