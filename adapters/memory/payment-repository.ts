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
import { authorizationExpiryKey, conflict, creationKey, expiryKey, inquiryKey, pageSize } from './payment-keys.js';
import { createSortedIndex, dueOf, moveKey, pageOf, type IndexKey, type SortedIndex } from './sorted-index.js';

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
 * A `PaymentRepository` in process memory with a database's guarantees: versioned writes that store all
 * or nothing, deep-frozen copies, sorted indexes so `list` and `findDue` cost what they return; `readOutbox`
 * also walks the held-back events older than the last it returns.
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

  const updateIndexes = (previous: PaymentRecord | undefined, record: PaymentRecord): void => {
    // The engine never changes the creation time, profile or partner, so a record usually enters
    // its profile's indexes once, when inserted. An update that changes one moves it, as the
    // Postgres adapter lists the stored version where it now belongs.
    if (previous === undefined) indexCreation(record);
    else if (listedElsewhere(previous, record)) {
      unindexCreation(previous);
      indexCreation(record);
    }
    moveKey(expiries, previous === undefined ? null : expiryKey(previous), expiryKey(record));
    moveKey(inquiries, previous === undefined ? null : inquiryKey(previous), inquiryKey(record));
    const authorization = previous === undefined ? null : authorizationExpiryKey(previous);
    moveKey(authorizationExpiries, authorization, authorizationExpiryKey(record));
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

  const due = (index: SortedIndex, now: number, limit: number): PaymentRecord[] =>
    dueOf(index, now, limit, (id) => records.get(id));

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
        return ok(pageOf(index.descending(before), limit, (id) => records.get(id)));
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
