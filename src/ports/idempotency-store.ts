import type { PortFailure, PortResult } from './port-result.js';

/** A completed answer, replayed byte for byte to a retry with the same key and body. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export type IdempotencyBegin =
  /** The caller now owns the key: run the request, then `complete` or `release` it. */
  | { readonly kind: 'started' }
  /** The first request with this key is still running. */
  | { readonly kind: 'in_progress' }
  /** The key was used with a different request (another fingerprint). */
  | { readonly kind: 'mismatch' }
  /** The first request completed: replay its answer. */
  | { readonly kind: 'completed'; readonly response: StoredResponse };

export type IdempotencyStoreError = PortFailure<'unavailable'>;

export interface IdempotencyKeyRef {
  /** Keys are scoped per client: two clients may use the same key. */
  readonly clientId: string;
  readonly key: string;
}

/**
 * Storage for `Idempotency-Key` (decisions.md section 6). `begin` is atomic: of concurrent
 * callers with the same client and key, exactly one gets `started`. Entries are kept for
 * `ttlMs` (24 hours) from `begin`; an entry still `in_progress` (its request crashed) is not
 * taken over before then, because the first attempt may have charged the card.
 */
export interface IdempotencyStore {
  begin(
    request: IdempotencyKeyRef & { readonly fingerprint: string; readonly now: number; readonly ttlMs: number },
  ): PortResult<IdempotencyBegin, IdempotencyStoreError>;
  /** Stores the answer of the request that owns the key. */
  complete(request: IdempotencyKeyRef & { readonly response: StoredResponse }): PortResult<void, IdempotencyStoreError>;
  /** Forgets the key (the request failed validation or was refused before doing anything). */
  release(request: IdempotencyKeyRef): PortResult<void, IdempotencyStoreError>;
  /** Drops entries older than their retention; returns how many. */
  purgeExpired(now: number): PortResult<number, IdempotencyStoreError>;
}
