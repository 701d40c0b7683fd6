import type { DomainEvent } from '../domain/domain-event.js';
import type { OperationKind, OperationRecord } from '../domain/money-operation.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import type { PortFailure, PortResult } from './port-result.js';

/**
 * - `conflict`: the stored version is not the expected one (another writer won), an insert
 *   found the id taken, or a payment write would break a money invariant (`moneyInvariantsHold`).
 * - `unavailable`: the store could not be reached or the transaction failed; `retryable` says
 *   whether the same call may succeed.
 *
 * A failed `insert` or `update` may still have been stored (a commit whose answer was lost), and
 * the engine reads the payment back to find out, or answers that the payment may exist. Set
 * `notSent: true` (see `PortFailure`) only when the write certainly never reached the store (the
 * connection was refused, none could be had in time): the engine then knows nothing was stored.
 */
export type RepositoryError = PortFailure<'conflict' | 'unavailable'>;

/** One page of `list`: records newest first, and the cursor of the next page. */
export interface PaymentPage {
  readonly items: readonly PaymentRecord[];
  /** Pass as `after` to get the next page; null on the last page. */
  readonly nextCursor: string | null;
}

/** What `list` reads. */
export interface PaymentListQuery {
  readonly profileId: string;
  /** When given, only the payments of this partner on the profile, cursor included. */
  readonly partnerId?: string;
  /** Page size. */
  readonly limit: number;
  /** A payment id from a previous page: returns the payments listed after it. */
  readonly after?: string;
}

/** What `findDue` found for the sweeper: payments to expire and payments to inquire about. */
export interface DuePayments {
  /** `awaiting_card_data` / `awaiting_challenge` whose `expiresAt` <= now. */
  readonly expiries: readonly PaymentRecord[];
  /** `authorizing` whose `nextInquiryAt` <= now. */
  readonly inquiries: readonly PaymentRecord[];
  /**
   * `succeeded` manual payments whose authorization is still open (`captureClosedBy` null) and
   * whose `authorizationExpiresAt` <= now.
   */
  readonly authorizationExpiries: readonly PaymentRecord[];
}

/** What `listOperations` reads: one payment's operations, oldest first (createdAt asc, id asc). */
export interface OperationListQuery {
  readonly paymentId: string;
  /** Only operations of this kind; all kinds when absent. */
  readonly kind?: OperationKind;
  /** Page size. */
  readonly limit: number;
  /** An operation id of a previous page: the operations listed after it. Unknown: an empty page. */
  readonly after?: string;
}

/** One page of `listOperations`, oldest first, and the cursor of the next page. */
export interface OperationPage {
  readonly items: readonly OperationRecord[];
  /** Pass as `after` to get the next page; null on the last page. */
  readonly nextCursor: string | null;
}

/**
 * One atomic write of a money operation: the operation, its payment's new version (counters,
 * closure, expiry) and the events, stored all together or not at all.
 */
export interface OperationWrite {
  readonly operation: OperationRecord;
  /**
   * The payment's new version, stored only if the stored one is `payment.version - 1` and its
   * counters keep `moneyInvariantsHold`; null when the payment does not change (an inquiry
   * rescheduled).
   */
  readonly payment: PaymentRecord | null;
  readonly events: readonly DomainEvent[];
}

/** An undelivered event of the outbox, in the order it was stored (`sequence`). */
export interface OutboxEntry {
  /** Position in the outbox; `markDelivered` and `deferDelivery` name the entry by it. */
  readonly sequence: number;
  readonly event: DomainEvent;
  /** How many deliveries of this event have failed so far (0 for a new event). */
  readonly attempts: number;
}

/** A failed delivery: the event's new attempt count and when to offer it again. */
export interface OutboxDeferral {
  readonly sequence: number;
  readonly attempts: number;
  /** Epoch milliseconds; `readOutbox` leaves the event out while its `now` is earlier. */
  readonly retryAt: number;
}

/**
 * Storage of payments and of their outbox. Every write is atomic: the record and its
 * events are stored together or not at all.
 */
export interface PaymentRepository {
  /** Stores a new payment (version 1) and its events. `conflict` if the id exists. */
  insert(record: PaymentRecord, events: readonly DomainEvent[]): PortResult<void, RepositoryError>;
  /**
   * Replaces the payment if its stored version is `record.version - 1`; otherwise `conflict`
   * and nothing is written.
   */
  update(record: PaymentRecord, events: readonly DomainEvent[]): PortResult<void, RepositoryError>;
  /** The stored record of payment `id`, or null when there is none. */
  load(id: string): PortResult<PaymentRecord | null, RepositoryError>;
  /**
   * The profile's payments, newest first (createdAt desc, id desc), at most `limit`; `after` is a
   * payment id from a previous page. With `partnerId`, only the payments filed under that partner
   * (a profile may change hands; its older payments stay with the partner that made them): pages
   * are full and `nextCursor` names one of them. An `after` that is not a payment of the profile
   * (and, when given, of the partner) reads as unknown: an empty page, `nextCursor` null (the
   * engine `load`s the cursor first and refuses such an `after` itself). The order is by the
   * stored version: an `update` that changed `createdAt`, the profile or the partner (the engine
   * never does) lists the payment where it now belongs.
   */
  list(query: PaymentListQuery): PortResult<PaymentPage, RepositoryError>;
  /**
   * Payments whose deadline (`expiresAt`), next inquiry (`nextInquiryAt`) or open manual
   * authorization (`authorizationExpiresAt`, see `DuePayments`) is at or before `now`, at most `limit` of each.
   */
  findDue(query: { now: number; limit: number }): PortResult<DuePayments, RepositoryError>;
  /**
   * Stores a new operation (its `version` 1, normally `processing`) with the payment's new version
   * and events in one transaction. `conflict`, nothing written, when the operation id exists, the
   * payment's stored version is not `payment.version - 1`, or its counters would break an invariant
   * (checked where the data lives: a concurrent second refund loses and the engine re-checks).
   */
  insertOperation(write: OperationWrite): PortResult<void, RepositoryError>;
  /**
   * Replaces the operation if its stored version is `operation.version - 1` (and the payment as in
   * `insertOperation` when given), with the events, in one transaction; otherwise `conflict`.
   */
  updateOperation(write: OperationWrite): PortResult<void, RepositoryError>;
  /** The stored operation `id`, or null when there is none. */
  loadOperation(id: string): PortResult<OperationRecord | null, RepositoryError>;
  /** A payment's operations, oldest first (createdAt asc, id asc), at most `limit`, after the cursor. */
  listOperations(query: OperationListQuery): PortResult<OperationPage, RepositoryError>;
  /**
   * `processing` operations whose `nextInquiryAt` is at or before `now` (unknown outcomes to
   * inquire about), soonest first, at most `limit`.
   */
  findDueOperations(query: { now: number; limit: number }): PortResult<readonly OperationRecord[], RepositoryError>;
  /**
   * Undelivered outbox entries that are due at `now`, oldest first: an entry is due unless it
   * was deferred to a later `retryAt`. Order holds per payment, so every entry of a payment that
   * has an earlier undelivered entry not yet due is left out too; other payments' entries are
   * not held back by it.
   */
  readOutbox(query: { now: number; limit: number }): PortResult<readonly OutboxEntry[], RepositoryError>;
  /** Forgets delivered entries. Already delivered or unknown sequences change nothing. */
  markDelivered(sequences: readonly number[]): PortResult<void, RepositoryError>;
  /**
   * Stores failed deliveries: each entry's attempt count and `retryAt`. Delivered or unknown
   * sequences change nothing.
   */
  deferDelivery(deferrals: readonly OutboxDeferral[]): PortResult<void, RepositoryError>;
  /**
   * Optional, for a repository that several processes share and that leases work to one of them
   * (Postgres). Keeps the outbox lease this instance's last `readOutbox` took, for `forMs` from
   * now, if no other instance has taken it since: `true` when it did, `false` when another
   * instance holds it or has held it since (then this instance must publish nothing more of the
   * events it read). The engine calls it before publishing, whenever what it knows of the lease
   * would not cover a publish that runs out of time and the writes after it. Without it the
   * engine takes itself to be the only reader (memory). A wrapper must pass it on.
   */
  holdOutbox?(query: { readonly forMs: number }): PortResult<boolean, RepositoryError>;
  /**
   * Optional, like `holdOutbox`: keeps the claim `findDue` put on a payment, for `forMs` from now,
   * if it is still this instance's and the payment is still stored at `version`; `false` when
   * another instance claimed or changed it since. The engine calls it before it asks the acquirer
   * about the payment, so that no other instance asks again while it waits for the answer.
   */
  holdClaim?(query: {
    readonly paymentId: string;
    readonly version: number;
    readonly forMs: number;
  }): PortResult<boolean, RepositoryError>;
}

/** The methods of the repository about money operations. */
export type OperationMethods = Pick<
  PaymentRepository,
  'insertOperation' | 'updateOperation' | 'loadOperation' | 'listOperations' | 'findDueOperations'
>;
