import type { PortFailure, PortResult } from './port-result.js';

/** A completed answer, replayed byte for byte to a retry with the same key and body. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What `begin` found for a key: started (the caller owns it), in progress, mismatch or completed. */
export type IdempotencyBegin =
  /**
   * The caller now owns the key: run the request, then `complete` or `release` it (passing the
   * `now` it gave `begin` as `startedAt`).
   */
  | {
      readonly kind: 'started';
      /**
       * The id of what the request creates (a payment id), reserved with the key: the
       * `reservedId` given to this `begin`, or on a takeover the one the stale attempt reserved.
       * Null when none was given.
       */
      readonly reservedId: string | null;
      /**
       * True when this `begin` took over a stale attempt (see `IdempotencyStore`): that attempt may
       * have created `reservedId` already (and charged the card), so look it up before creating it.
       */
      readonly takeover: boolean;
    }
  /** The first request with this key is still running (or stopped less than `staleAfterMs` ago). */
  | { readonly kind: 'in_progress' }
  /** The key was used with a different request (another fingerprint). */
  | { readonly kind: 'mismatch' }
  /** The first request completed: replay its answer. */
  | { readonly kind: 'completed'; readonly response: StoredResponse };

/**
 * `unavailable`: the store could not be reached; `retryable` says whether the same call may succeed,
 * and `notSent: true` (see `PortFailure`) that the call certainly never reached it, so a failed
 * `begin` stored no entry. Absent, a `begin` may have stored it (its answer lost).
 */
export type IdempotencyStoreError = PortFailure<'unavailable'>;

/** One `Idempotency-Key` of one client. */
export interface IdempotencyKeyRef {
  /** Keys are scoped per client: two clients may use the same key. */
  readonly clientId: string;
  readonly key: string;
}

/** What `begin` receives: the key, the request's fingerprint, the time and how long to keep the entry. */
export interface IdempotencyBeginRequest extends IdempotencyKeyRef {
  /** A digest of the request; a retry must send the same one, or `begin` answers `mismatch`. */
  readonly fingerprint: string;
  /** Epoch milliseconds. Also the owner's token: `complete` and `release` pass it as `startedAt`. */
  readonly now: number;
  /** How long the entry is kept from this `begin`. */
  readonly ttlMs: number;
  /**
   * The id of what the request will create (a payment id), stored with the entry in the same
   * write when this `begin` starts the key. Never card data.
   */
  readonly reservedId?: string;
  /**
   * How long after its start an attempt still `in_progress` is presumed dead (its process
   * crashed, or lost the store before `complete`/`release`), so that a `begin` with the same
   * fingerprint takes it over. A positive number of milliseconds, longer than the request can
   * run. Without it, no entry is taken over.
   */
  readonly staleAfterMs?: number;
}

/**
 * Which attempt settles the key: the `now` its `begin` was given. When present, `complete` and
 * `release` change nothing unless that attempt still owns the key (a takeover since makes them
 * no-ops, so a stale attempt that was merely slow cannot overwrite or drop its successor's entry).
 */
export interface IdempotencySettleRequest extends IdempotencyKeyRef {
  readonly startedAt?: number;
}

/**
 * Storage for `Idempotency-Key` (docs/http-api.md, Idempotency). `begin` is atomic: of concurrent
 * callers with the same client and key, exactly one gets `started`. Entries are kept for
 * `ttlMs` from the `begin` that started them (or took them over); an expired entry counts as
 * absent, and the next `begin` starts it afresh with its own `reservedId`.
 *
 * A request may crash (or lose the store) before it settles its key. Its entry is not simply
 * handed to a retry, since the first attempt may have created the resource and charged the card.
 * Instead the first attempt reserves the id of what it creates (`reservedId`, stored with the
 * entry by the `begin` that starts it): once the entry has been `in_progress` for `staleAfterMs`
 * from its start, the next `begin` with the same fingerprint takes it over and gets `started`
 * with `takeover: true` and the same `reservedId`, so the retry can look that id up and answer
 * what the first attempt created, or create it under that id. A takeover restarts the entry's
 * time (staleness and `ttlMs`) and makes it the new owner's. An entry without a reserved id
 * (written without one, or by a version before reservations) is never taken over: it stays
 * `in_progress` until it expires. Another fingerprint is a `mismatch` in every state.
 */
export interface IdempotencyStore {
  begin(request: IdempotencyBeginRequest): PortResult<IdempotencyBegin, IdempotencyStoreError>;
  /** Stores the answer of the request that owns the key (if it still does: `startedAt`). */
  complete(
    request: IdempotencySettleRequest & { readonly response: StoredResponse },
  ): PortResult<void, IdempotencyStoreError>;
  /**
   * Forgets the key (the request failed validation or was refused before doing anything), if
   * the request still owns it (`startedAt`).
   */
  release(request: IdempotencySettleRequest): PortResult<void, IdempotencyStoreError>;
  /** Drops entries older than their retention; returns how many. */
  purgeExpired(now: number): PortResult<number, IdempotencyStoreError>;
}
