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
 *
 * `base`, when given, must be frozen all the way down already: fields of `value` that are the
 * very same value as `base`'s field of that name are not walked again. The engine builds each
 * version of a record by copying the one before, so most of a record is such fields.
 */
export function deepFreeze<T>(value: T, base?: object): T {
  if (typeof value === 'object' && value !== null) {
    const shared = base as Record<string, unknown> | undefined;
    for (const key in value) {
      const field = (value as Record<string, unknown>)[key];
      // Primitives are skipped here rather than in a call of their own: most fields are.
      if (typeof field !== 'object' || field === null) continue;
      if (shared === undefined || field !== shared[key] || !Object.hasOwn(shared, key)) deepFreeze(field);
    }
    if (!Object.isFrozen(value)) Object.freeze(value);
  }
  return value;
}

/**
 * True when `value` is plain data (plain objects, arrays, primitives) frozen all the way down,
 * so that nobody can change it: safe to keep without a copy. `base`, when given, must be known
 * to be so: fields that are the very same value as its field of that name are not walked.
 */
export function isDeepFrozen(value: unknown, base?: object): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'function';
  if (!Object.isFrozen(value) || !isPlain(value)) return false;
  const shared = base as Record<string, unknown> | undefined;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    // Primitives are judged here rather than in a call of their own: most fields are.
    if (typeof field !== 'object' || field === null) {
      if (typeof field === 'function') return false;
      continue;
    }
    if (shared !== undefined && field === shared[key] && Object.hasOwn(shared, key)) continue;
    if (!isDeepFrozen(field)) return false;
  }
  return true;
}

/**
 * A set nobody can change: a frozen view with the reading members of `ReadonlySet` over a set of
 * its own (`Object.freeze` does not stop a `Set`'s `add`). For exported constants.
 */
export function frozenSet<T>(values: Iterable<T>): ReadonlySet<T> {
  const set = new Set(values);
  const view: ReadonlySet<T> = {
    get size() {
      return set.size;
    },
    has: (value) => set.has(value),
    forEach: (callback, thisArg?: unknown) => {
      for (const value of set) callback.call(thisArg, value, value, view);
    },
    entries: () => set.entries(),
    keys: () => set.keys(),
    values: () => set.values(),
    [Symbol.iterator]: () => set.values(),
  };
  return Object.freeze(view);
}
