import { err, ok, type Result } from 'neverthrow';
import type { RepositoryError } from '../../src/ports/payment-repository.js';
import { UnreadableRowError } from './row-codec.js';

/** Whole, non-negative page size; anything else reads as 0. */
export const pageSize = (limit: number): number =>
  Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : limit === Infinity ? 1_000_000 : 0;

/** Reads rows into records, answering `unavailable` for a value a record cannot hold. */
export function readRows<T>(read: () => T): Result<T, RepositoryError> {
  try {
    return ok(read());
  } catch (error) {
    if (error instanceof UnreadableRowError) {
      return err({ code: 'unavailable', message: `Stored payment cannot be read: ${error.message}`, retryable: false });
    }
    throw error;
  }
}

/** A page of the first `limit` of `rows` (read `limit + 1`: one more says there is a next page). */
export function pageOf<R, T extends { readonly id: string }>(
  rows: readonly R[],
  limit: number,
  read: (row: R) => T,
): { readonly items: T[]; readonly nextCursor: string | null } {
  const items = rows.slice(0, limit).map(read);
  return { items, nextCursor: rows.length > limit ? (items[items.length - 1]?.id ?? null) : null };
}

/** Earliest `time` first (none: 0), then by id. */
export const byDue =
  <T extends { readonly id: string }>(time: (item: T) => number | null) =>
  (a: T, b: T): number =>
    (time(a) ?? 0) - (time(b) ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
