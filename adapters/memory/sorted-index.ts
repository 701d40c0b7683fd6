/** A position in a time-ordered index: a time, then the payment id to break ties. */
export interface IndexKey {
  readonly time: number;
  readonly id: string;
}

/**
 * Keys kept sorted by (time, id) ascending in a plain array, found by binary search. New
 * payments usually carry the latest times, so most insertions append at the end; reads walk
 * from either end and stop as soon as they have what they need.
 */
export interface SortedIndex {
  readonly size: number;
  /** Adds `key`; adding a key already present changes nothing. */
  add(key: IndexKey): void;
  /** Removes `key` if present. */
  remove(key: IndexKey): void;
  /** Keys in ascending order, starting strictly above `after` when it is given. */
  ascending(after?: IndexKey): Generator<IndexKey, void, undefined>;
  /** Keys in descending order, starting strictly below `before` when it is given. */
  descending(before?: IndexKey): Generator<IndexKey, void, undefined>;
}

export function compareKeys(a: IndexKey, b: IndexKey): number {
  if (a.time !== b.time) return a.time < b.time ? -1 : 1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? -1 : 1;
}

export function createSortedIndex(): SortedIndex {
  const keys: IndexKey[] = [];

  /** First position whose key is >= `key`. */
  const lowerBound = (key: IndexKey): number => {
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareKeys(keys[middle] as IndexKey, key) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  };

  const isAt = (position: number, key: IndexKey): boolean => {
    const found = keys[position];
    return found !== undefined && compareKeys(found, key) === 0;
  };

  return {
    get size() {
      return keys.length;
    },
    add(key) {
      const last = keys[keys.length - 1];
      if (last === undefined || compareKeys(last, key) < 0) {
        keys.push(key);
        return;
      }
      const position = lowerBound(key);
      if (!isAt(position, key)) keys.splice(position, 0, key);
    },
    remove(key) {
      const position = lowerBound(key);
      if (isAt(position, key)) keys.splice(position, 1);
    },
    *ascending(after) {
      const start = after === undefined ? 0 : lowerBound(after) + (isAt(lowerBound(after), after) ? 1 : 0);
      for (let position = start; position < keys.length; position++) yield keys[position] as IndexKey;
    },
    *descending(before) {
      for (let position = (before === undefined ? keys.length : lowerBound(before)) - 1; position >= 0; position--) {
        yield keys[position] as IndexKey;
      }
    },
  };
}

/** Moves an entry of `index` from key `before` to `after` (null: none); a key whose time stays is left. */
export function moveKey(index: SortedIndex, before: IndexKey | null, after: IndexKey | null): void {
  if (before !== null && after !== null && before.time === after.time) return;
  if (before !== null) index.remove(before);
  if (after !== null) index.add(after);
}

/** What `get` finds of the keys of `index` due by `now`, earliest first, at most `limit`. */
export function dueOf<T>(index: SortedIndex, now: number, limit: number, get: (id: string) => T | undefined): T[] {
  const found: T[] = [];
  for (const key of index.ascending()) {
    if (found.length >= limit || key.time > now) break;
    const item = get(key.id);
    if (item !== undefined) found.push(item);
  }
  return found;
}

/** A page of what `get` finds (and `keep` keeps) of `keys`: at most `limit`, with the cursor of the next. */
export function pageOf<T extends { readonly id: string }>(
  keys: Iterable<IndexKey>,
  limit: number,
  get: (id: string) => T | undefined,
  keep: (item: T) => boolean = () => true,
): { readonly items: T[]; readonly nextCursor: string | null } {
  const items: T[] = [];
  for (const key of keys) {
    const item = get(key.id);
    if (item === undefined || !keep(item)) continue;
    if (items.length === limit) return { items, nextCursor: items[items.length - 1]?.id ?? null };
    items.push(item);
  }
  return { items, nextCursor: null };
}
