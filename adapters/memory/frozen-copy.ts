import { deepFreeze, isDeepFrozen, isPlain } from '../../src/domain/immutable.js';

/**
 * A copy of `value` with every nested object frozen, so no caller can change stored state; deep-frozen
 * values and subtrees copied before (in `copies`, or shared with `base`) are kept, not copied again.
 * Values other than plain objects and arrays are structured-cloned.
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
