/**
 * A structured clone of `value` with every nested object frozen: what the in-memory adapters
 * store, so that a caller mutating its own object (or one it got back) cannot change stored state.
 */
export function frozenCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
