import { deepFreeze, isDeepFrozen, isPlain } from '../../src/domain/immutable.js';

/**
 * A copy of `value` with every nested object frozen: what the in-memory adapters store, so that
 * a caller mutating its own object (or one it got back) cannot change stored state. Subtrees
 * that an earlier call already copied and froze are shared rather than copied again (the engine
 * builds each new record by spreading the previous one, so most of a record is such subtrees).
 * Values frozen all the way down already (the engine's records and events: `deepFreeze`) are
 * kept as they are.
 * Values other than plain objects and arrays are structured-cloned. Pass one `copies` map to
 * several calls that belong together so that what they share is copied once. `base`, a value
 * this function returned before, lets the fields `value` shares with it go unchecked.
 */
export function frozenCopy<T>(value: T, copies?: Map<object, object>, base?: object): T {
  if (typeof value !== 'object' || value === null) return value;
  if (isDeepFrozen(value, base)) return value;
  const shared = copies ?? new Map<object, object>();
  // An object met twice in one write (a record and its events share contacts) is copied once.
  const seen = shared.get(value);
  if (seen !== undefined) return seen as T;
  let copy: object;
  if (!isPlain(value)) {
    copy = deepFreeze(structuredClone(value) as object);
  } else if (Array.isArray(value)) {
    copy = Object.freeze(value.map((item: unknown) => frozenCopy(item, shared)));
  } else {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = frozenCopy((value as Record<string, unknown>)[key], shared);
    copy = Object.freeze(out);
  }
  shared.set(value, copy);
  return copy as T;
}
