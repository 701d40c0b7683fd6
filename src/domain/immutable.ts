/** Plain data: an array, or an object whose prototype is `Object.prototype` or null. */
export function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Freezes `value` in place and everything it holds, and returns it. The engine freezes every
 * record and event it hands to a repository, so that storage adapters may keep them as they are
 * instead of copying them (see `isDeepFrozen`). Objects found frozen are walked too: a
 * shallow-frozen object may hold mutable ones. No registry of frozen objects is kept: a WeakSet
 * costs about a microsecond per entry in garbage collection, more than the walk it would save.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
    if (!Object.isFrozen(value)) Object.freeze(value);
  }
  return value;
}

/**
 * True when `value` is plain data (plain objects, arrays, primitives) frozen all the way down,
 * so that nobody can change it: safe to keep without a copy.
 */
export function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'function';
  if (!Object.isFrozen(value) || !isPlain(value)) return false;
  for (const key in value) {
    if (!isDeepFrozen((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}
