import { err, ok, type Result } from 'neverthrow';
import type { DomainEvent } from '../../src/domain/domain-event.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import type {
  DuePayments,
  OutboxEntry,
  PaymentPage,
  PaymentRepository,
  RepositoryError,
} from '../../src/ports/payment-repository.js';
import { isDeepFrozen } from '../../src/domain/immutable.js';
import { moneyInvariantsHold } from '../../src/domain/money-counters.js';
import { frozenCopy } from './frozen-copy.js';
import { createOperationStore } from './operation-store.js';
import { authorizationExpiryKey, creationKey, expiryKey, inquiryKey, pageSize } from './payment-keys.js';
import { createSortedIndex, type IndexKey, type SortedIndex } from './sorted-index.js';

/** The name of a `PaymentRepository` method, for fault injection. */
export type RepositoryMethod = keyof PaymentRepository;

/** Options of `createMemoryPaymentRepository`: fault injection for tests. */
export interface MemoryPaymentRepositoryOptions {
  /**
   * Called before every operation with its method and arguments. Return an error to make that
   * call fail with nothing written (e.g. `unavailable` for one payment id); return nothing to let
   * it run.
   */
  readonly failOn?: (method: RepositoryMethod, args: readonly unknown[]) => RepositoryError | null | undefined;
}

/** The in-memory `PaymentRepository`, plus inspection and fault injection for tests. */
export interface MemoryPaymentRepository extends PaymentRepository {
  /** Number of stored payments. */
  size(): number;
  /** Every stored payment (deep-frozen), in insertion order. */
  snapshot(): readonly PaymentRecord[];
  /**
   * Makes the next call of `method` fail with `error` (default: a retryable `unavailable`)
   * and write nothing. Calls queue up: inject twice to fail the next two calls.
   */
  injectFailure(method: RepositoryMethod, error?: RepositoryError): void;
}

const conflict = (message: string): RepositoryError => ({ code: 'conflict', message, retryable: false });

/** The error `injectFailure` uses when none is given. */
export const injectedUnavailable: RepositoryError = Object.freeze({
  code: 'unavailable',
  message: 'Injected failure: the payment store is unavailable',
  retryable: true,
});

interface ProfileIndexes {
  readonly all: SortedIndex;
  readonly byPartner: Map<string, SortedIndex>;
}

/** Whether `list` with this query may show `record` (and so take it as a cursor). */
const isListed = (
  record: PaymentRecord | undefined,
  query: { readonly profileId: string; readonly partnerId?: string },
): record is PaymentRecord =>
  record !== undefined &&
  record.profileId === query.profileId &&
  (query.partnerId === undefined || record.partnerId === query.partnerId);

/**
 * What of `event` is known to be frozen all the way down once its payment is checked against the
 * stored `record` (frozen so already): the engine's events show the record's own contacts, which
 * are then not walked again.
 */
const checkedPart = (event: DomainEvent, record: PaymentRecord): Pick<DomainEvent, 'payment'> | undefined =>
  isDeepFrozen(event.payment, record) ? { payment: event.payment } : undefined;

/**
 * A `PaymentRepository` in process memory with the guarantees of a database:
 * - optimistic concurrency: `insert` refuses a taken id, `update` only replaces version
 *   `record.version - 1`; a refused write stores nothing, events included;
 * - records and events are stored as deep-frozen copies;
 * - `list` walks a per-profile index sorted by (createdAt, id) (per profile and partner when the
 *   query names a partner) and `findDue` two indexes sorted by due time, so both cost about what
 *   they return, not the number of payments stored;
 * - `list` with an `after` cursor that is not a payment of that profile (and of that partner,
 *   when given) returns an empty page, like an unknown one; an update that changes a payment's
 *   `createdAt`, profile or partner moves it in the indexes;
 * - `readOutbox` walks the undelivered entries in order, passing over the held-back ones (a
 *   deferred entry and every later entry of its payment), so it also costs those older than the
 *   last one it returns (the Postgres adapter does not: it keeps them out of its ready index).
 */
export function createMemoryPaymentRepository(options: MemoryPaymentRepositoryOptions = {}): MemoryPaymentRepository {
  const records = new Map<string, PaymentRecord>();
  /** Per profile: all its payments, and those of each partner (a profile may change hands). */
  const byProfile = new Map<string, ProfileIndexes>();
  const expiries = createSortedIndex();
  const inquiries = createSortedIndex();
  const authorizationExpiries = createSortedIndex();
  /** Undelivered entries; a Map iterates in insertion order, which is sequence order. */
  const outbox = new Map<number, OutboxEntry>();
  /** When deferred entries are due again, by sequence. */
  const retryAts = new Map<number, number>();
  const injected = new Map<RepositoryMethod, RepositoryError[]>();
  let lastSequence = 0;

  /** Adds a record to its profile's index and to that of its partner on the profile. */
  const indexCreation = (record: PaymentRecord): void => {
    let indexes = byProfile.get(record.profileId);
    if (indexes === undefined) {
      indexes = { all: createSortedIndex(), byPartner: new Map() };
      byProfile.set(record.profileId, indexes);
    }
    let partnerIndex = indexes.byPartner.get(record.partnerId);
    if (partnerIndex === undefined) {
      partnerIndex = createSortedIndex();
      indexes.byPartner.set(record.partnerId, partnerIndex);
    }
    const key = creationKey(record);
    indexes.all.add(key);
    partnerIndex.add(key);
  };

  /** Takes a record out of its profile's index and out of that of its partner on the profile. */
  const unindexCreation = (record: PaymentRecord): void => {
    const indexes = byProfile.get(record.profileId);
    const key = creationKey(record);
    indexes?.all.remove(key);
    indexes?.byPartner.get(record.partnerId)?.remove(key);
  };

  /** Whether `list` files the two versions of a payment apart (the engine never changes these). */
  const listedElsewhere = (previous: PaymentRecord, record: PaymentRecord): boolean =>
    previous.createdAt !== record.createdAt ||
    previous.profileId !== record.profileId ||
    previous.partnerId !== record.partnerId;

  /** Moves a record in one due-time index when its key changed (most writes change none). */
  const reindex = (index: SortedIndex, before: IndexKey | null, after: IndexKey | null): void => {
    if (before !== null && after !== null && before.time === after.time) return;
    if (before !== null) index.remove(before);
    if (after !== null) index.add(after);
  };

  const updateIndexes = (previous: PaymentRecord | undefined, record: PaymentRecord): void => {
    // The engine never changes the creation time, profile or partner, so a record usually enters
    // its profile's indexes once, when inserted. An update that changes one moves it, as the
    // Postgres adapter lists the stored version where it now belongs.
    if (previous === undefined) indexCreation(record);
    else if (listedElsewhere(previous, record)) {
      unindexCreation(previous);
      indexCreation(record);
    }
    reindex(expiries, previous === undefined ? null : expiryKey(previous), expiryKey(record));
    reindex(inquiries, previous === undefined ? null : inquiryKey(previous), inquiryKey(record));
    reindex(
      authorizationExpiries,
      previous === undefined ? null : authorizationExpiryKey(previous),
      authorizationExpiryKey(record),
    );
  };

  /** Copies first, then writes: a copy that throws leaves the store untouched. `record` null: events only. */
  const write = (
    previous: PaymentRecord | undefined,
    record: PaymentRecord | null,
    events: readonly DomainEvent[],
  ): void => {
    const copies = new Map<object, object>();
    const stored = record === null ? null : frozenCopy(record, copies, previous);
    const storedEvents = events.map((event) =>
      frozenCopy(event, copies, stored === null ? undefined : checkedPart(event, stored)),
    );
    if (stored !== null) {
      records.set(stored.id, stored);
      updateIndexes(previous, stored);
    }
    for (const event of storedEvents) {
      lastSequence += 1;
      outbox.set(lastSequence, Object.freeze({ sequence: lastSequence, event, attempts: 0 }));
    }
  };

  const due = (index: SortedIndex, now: number, limit: number): PaymentRecord[] => {
    const found: PaymentRecord[] = [];
    for (const key of index.ascending()) {
      if (found.length >= limit || key.time > now) break;
      const record = records.get(key.id);
      if (record !== undefined) found.push(record);
    }
    return found;
  };

  /** Answers at once (a plain `Result`): nothing here waits. A bug throws, as a port may only then. */
  const run = <T>(
    method: RepositoryMethod,
    args: readonly unknown[],
    operation: () => Result<T, RepositoryError>,
  ): Result<T, RepositoryError> => {
    const failure = injected.get(method)?.shift() ?? options.failOn?.(method, args) ?? null;
    return failure === null ? operation() : err(failure);
  };

  return {
    ...createOperationStore({ payment: (id) => records.get(id), commit: write, run, pageSize }),

    insert: (record, events) =>
      run('insert', [record, events], () => {
        if (records.has(record.id)) return err(conflict(`Payment ${record.id} already exists`));
        if (!moneyInvariantsHold(record)) return err(conflict(`Payment ${record.id}: the amounts break an invariant`));
        write(undefined, record, events);
        return ok(undefined);
      }),

    update: (record, events) =>
      run('update', [record, events], () => {
        const current = records.get(record.id);
        if (current === undefined) return err(conflict(`Payment ${record.id} does not exist`));
        if (current.version !== record.version - 1) {
          return err(conflict(`Payment ${record.id} is at version ${current.version}, not ${record.version - 1}`));
        }
        if (!moneyInvariantsHold(record)) return err(conflict(`Payment ${record.id}: the amounts break an invariant`));
        write(current, record, events);
        return ok(undefined);
      }),

    load: (id) => run('load', [id], () => ok(records.get(id) ?? null)),

    list: (query) =>
      run('list', [query], (): Result<PaymentPage, RepositoryError> => {
        const empty: PaymentPage = { items: [], nextCursor: null };
        const limit = pageSize(query.limit);
        const indexes = byProfile.get(query.profileId);
        const index = query.partnerId === undefined ? indexes?.all : indexes?.byPartner.get(query.partnerId);
        if (index === undefined || limit === 0) return ok(empty);
        let before: IndexKey | undefined;
        if (query.after !== undefined) {
          const cursor = records.get(query.after);
          // A payment of another profile or partner is an unknown cursor.
          if (!isListed(cursor, query)) return ok(empty);
          before = creationKey(cursor);
        }
        const items: PaymentRecord[] = [];
        let more = false;
        for (const key of index.descending(before)) {
          if (items.length === limit) {
            more = true;
            break;
          }
          const record = records.get(key.id);
          if (record !== undefined) items.push(record);
        }
        return ok({ items, nextCursor: more ? (items[items.length - 1]?.id ?? null) : null });
      }),

    findDue: (query) =>
      run('findDue', [query], (): Result<DuePayments, RepositoryError> => {
        const limit = pageSize(query.limit);
        return ok({
          expiries: due(expiries, query.now, limit),
          inquiries: due(inquiries, query.now, limit),
          authorizationExpiries: due(authorizationExpiries, query.now, limit),
        });
      }),

    readOutbox: (query) =>
      run('readOutbox', [query], (): Result<readonly OutboxEntry[], RepositoryError> => {
        const count = pageSize(query.limit);
        const entries: OutboxEntry[] = [];
        /** Payments with an earlier entry not yet due: their later entries wait. */
        const waiting = new Set<string>();
        for (const entry of outbox.values()) {
          if (entries.length >= count) break;
          const paymentId = entry.event.paymentId;
          if (waiting.has(paymentId)) continue;
          const retryAt = retryAts.get(entry.sequence);
          if (retryAt !== undefined && retryAt > query.now) waiting.add(paymentId);
          else entries.push(entry);
        }
        return ok(entries);
      }),

    markDelivered: (sequences) =>
      run('markDelivered', [sequences], () => {
        for (const sequence of sequences) {
          outbox.delete(sequence);
          retryAts.delete(sequence);
        }
        return ok(undefined);
      }),

    deferDelivery: (deferrals) =>
      run('deferDelivery', [deferrals], () => {
        for (const { sequence, attempts, retryAt } of deferrals) {
          const entry = outbox.get(sequence);
          if (entry === undefined) continue;
          // Replacing a key keeps its place in the Map's order.
          outbox.set(sequence, Object.freeze({ sequence, event: entry.event, attempts }));
          retryAts.set(sequence, retryAt);
        }
        return ok(undefined);
      }),

    size: () => records.size,
    snapshot: () => [...records.values()],
    injectFailure: (method, error = injectedUnavailable) => {
      const queue = injected.get(method) ?? [];
      queue.push(error);
      injected.set(method, queue);
    },
  };
}
