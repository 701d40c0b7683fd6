import { err, ok, type Result } from 'neverthrow';
import { moneyInvariantsHold } from '../../src/domain/money-counters.js';
import type { OperationRecord } from '../../src/domain/money-operation.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import type {
  OperationPage,
  OperationWrite,
  OperationMethods,
  RepositoryError,
} from '../../src/ports/payment-repository.js';
import { frozenCopy } from './frozen-copy.js';
import { conflict } from './payment-keys.js';
import { createSortedIndex, dueOf, moveKey, pageOf, type IndexKey, type SortedIndex } from './sorted-index.js';

/** What the operation store needs of the payment store it shares a transaction with. */
export interface OperationStoreHost {
  /** The stored payment `id`. */
  readonly payment: (id: string) => PaymentRecord | undefined;
  /**
   * Stores the payment's new version (when given) and the events; copies first, so a throw
   * leaves the store untouched. Called only after every check passed.
   */
  readonly commit: (
    previous: PaymentRecord | undefined,
    record: PaymentRecord | null,
    events: OperationWrite['events'],
  ) => void;
  /** Runs a method through fault injection, as the payment methods. */
  readonly run: <T>(
    method: keyof OperationMethods,
    args: readonly unknown[],
    body: () => Result<T, RepositoryError>,
  ) => Result<T, RepositoryError>;
  /** Whole, non-negative page size. */
  readonly pageSize: (limit: number) => number;
}

const inquiryKey = (operation: OperationRecord): IndexKey | null =>
  operation.state === 'processing' && operation.nextInquiryAt !== null
    ? { time: operation.nextInquiryAt, id: operation.id }
    : null;

const creationKey = (operation: OperationRecord): IndexKey => ({ time: operation.createdAt, id: operation.id });

/**
 * Operations kept beside the payments of the memory repository: each write checks the operation's
 * version and the payment's version and money invariants, then stores both and the events, or
 * nothing. Single-threaded JavaScript makes check and write one step, as a transaction would.
 */
export function createOperationStore(host: OperationStoreHost): OperationMethods {
  const operations = new Map<string, OperationRecord>();
  /** Per payment, its operations by (createdAt, id). */
  const byPayment = new Map<string, SortedIndex>();
  const inquiries = createSortedIndex();

  /** Why the payment half of `write` may not be stored, or null when it may. */
  const paymentRefusal = (write: OperationWrite): RepositoryError | null => {
    const record = write.payment;
    if (record === null) return null;
    if (record.id !== write.operation.paymentId)
      return conflict(`Operation ${write.operation.id} is not of ${record.id}`);
    const current = host.payment(record.id);
    if (current === undefined) return conflict(`Payment ${record.id} does not exist`);
    if (current.version !== record.version - 1) {
      return conflict(`Payment ${record.id} is at version ${current.version}, not ${record.version - 1}`);
    }
    if (!moneyInvariantsHold(record)) return conflict(`Payment ${record.id}: the amounts would break an invariant`);
    return null;
  };

  const store = (previous: OperationRecord | undefined, write: OperationWrite): void => {
    const stored = frozenCopy(write.operation);
    const paymentBefore = write.payment === null ? undefined : host.payment(write.payment.id);
    host.commit(paymentBefore, write.payment, write.events);
    operations.set(stored.id, stored);
    if (previous === undefined) {
      let index = byPayment.get(stored.paymentId);
      if (index === undefined) {
        index = createSortedIndex();
        byPayment.set(stored.paymentId, index);
      }
      index.add(creationKey(stored));
    }
    moveKey(inquiries, previous === undefined ? null : inquiryKey(previous), inquiryKey(stored));
  };

  return {
    insertOperation: (write) =>
      host.run('insertOperation', [write], () => {
        const { operation } = write;
        if (operations.has(operation.id)) return err(conflict(`Operation ${operation.id} already exists`));
        if (host.payment(operation.paymentId) === undefined) {
          return err(conflict(`Payment ${operation.paymentId} does not exist`));
        }
        const refusal = paymentRefusal(write);
        if (refusal !== null) return err(refusal);
        store(undefined, write);
        return ok(undefined);
      }),

    updateOperation: (write) =>
      host.run('updateOperation', [write], () => {
        const { operation } = write;
        const current = operations.get(operation.id);
        if (current === undefined) return err(conflict(`Operation ${operation.id} does not exist`));
        if (current.version !== operation.version - 1) {
          return err(
            conflict(`Operation ${operation.id} is at version ${current.version}, not ${operation.version - 1}`),
          );
        }
        const refusal = paymentRefusal(write);
        if (refusal !== null) return err(refusal);
        store(current, write);
        return ok(undefined);
      }),

    loadOperation: (id) => host.run('loadOperation', [id], () => ok(operations.get(id) ?? null)),

    listOperations: (query) =>
      host.run('listOperations', [query], (): Result<OperationPage, RepositoryError> => {
        const empty: OperationPage = { items: [], nextCursor: null };
        const limit = host.pageSize(query.limit);
        const index = byPayment.get(query.paymentId);
        if (index === undefined || limit === 0) return ok(empty);
        const ofKind = (operation: OperationRecord): boolean =>
          query.kind === undefined || operation.kind === query.kind;
        let after: IndexKey | undefined;
        if (query.after !== undefined) {
          const cursor = operations.get(query.after);
          if (cursor === undefined || cursor.paymentId !== query.paymentId || !ofKind(cursor)) return ok(empty);
          after = creationKey(cursor);
        }
        return ok(pageOf(index.ascending(after), limit, (id) => operations.get(id), ofKind));
      }),

    findDueOperations: (query) =>
      host.run('findDueOperations', [query], (): Result<readonly OperationRecord[], RepositoryError> => {
        return ok(dueOf(inquiries, query.now, host.pageSize(query.limit), (id) => operations.get(id)));
      }),
  };
}
