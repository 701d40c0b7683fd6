import { err, ok, type Result } from 'neverthrow';
import type { QueryResult, QueryResultRow } from 'pg';
import type {
  OperationPage,
  OperationWrite,
  OperationMethods,
  RepositoryError,
} from '../../src/ports/payment-repository.js';
import type { PostgresFailure } from './classify-error.js';
import { operationFromRow, operationParams } from './operation-row.js';
import {
  FIND_DUE_OPERATIONS,
  INSERT_OPERATION,
  LIST_OPERATIONS_AFTER,
  LIST_OPERATIONS_FIRST,
  LOAD_OPERATION,
  UPDATE_OPERATION,
} from './operation-statements.js';
import { PAYMENT_WRITE_COLUMNS, paymentParams } from './payment-row.js';
import { byDue, pageOf, pageSize, readRows } from './row-pages.js';
import type { Statement } from './run-statement.js';

/** What the operation methods share with the repository they belong to. */
export interface OperationMethodsHost {
  readonly run: <R extends QueryResultRow>(
    statement: Statement,
    values: readonly unknown[],
  ) => Promise<Result<QueryResult<R>, PostgresFailure>>;
  readonly instanceId: string;
  readonly claimLeaseMs: number;
}

const conflict = (message: string): RepositoryError => ({ code: 'conflict', message, retryable: false });

const NO_PAYMENT: readonly null[] = PAYMENT_WRITE_COLUMNS.map(() => null);

/** The parameters of `INSERT_OPERATION` (and, with the operation's stored version, `UPDATE_OPERATION`). */
function writeParams(write: OperationWrite): unknown[] {
  const { operation, payment } = write;
  return [
    operation.id,
    ...operationParams(operation),
    payment !== null,
    ...(payment === null ? NO_PAYMENT : paymentParams(payment)),
    payment === null ? null : payment.version - 1,
    JSON.stringify(write.events),
  ];
}

/**
 * Money operations on Postgres: each write one statement that checks the versions and stores operation,
 * payment and events together; a lost race or broken invariant is `conflict`, and nothing is written.
 */
export function createOperationMethods(host: OperationMethodsHost): OperationMethods {
  const { run } = host;

  const written = async (
    statement: Statement,
    values: readonly unknown[],
    refused: string,
  ): Promise<Result<void, RepositoryError>> => {
    const result = await run<{ written: number }>(statement, values);
    if (result.isErr()) return err(result.error);
    return result.value.rows[0]?.written === 1 ? ok(undefined) : err(conflict(refused));
  };

  const mismatch = (write: OperationWrite): RepositoryError | null =>
    write.payment !== null && write.payment.id !== write.operation.paymentId
      ? conflict(`Operation ${write.operation.id} is not of payment ${write.payment.id}`)
      : null;

  return {
    async insertOperation(write) {
      const refusal = mismatch(write);
      if (refusal !== null) return err(refusal);
      const { operation, payment } = write;
      const result = await written(
        INSERT_OPERATION,
        writeParams(write),
        payment === null
          ? `Payment ${operation.paymentId} does not exist`
          : `Payment ${payment.id} does not exist or is not stored at version ${payment.version - 1}`,
      );
      if (result.isErr() && result.error.message.includes('23505')) {
        return err({ ...result.error, message: `Operation ${operation.id} already exists` });
      }
      return result;
    },

    async updateOperation(write) {
      const refusal = mismatch(write);
      if (refusal !== null) return err(refusal);
      const { operation, payment } = write;
      return written(
        UPDATE_OPERATION,
        [...writeParams(write), operation.version - 1],
        `Operation ${operation.id} is not stored at version ${operation.version - 1}` +
          (payment === null ? '' : `, or payment ${payment.id} not at version ${payment.version - 1}`),
      );
    },

    async loadOperation(id) {
      const result = await run(LOAD_OPERATION, [id]);
      if (result.isErr()) return err(result.error);
      const row = result.value.rows[0];
      return readRows(() => (row === undefined ? null : operationFromRow(row)));
    },

    async listOperations(query) {
      const limit = pageSize(query.limit);
      if (limit === 0) return ok({ items: [], nextCursor: null });
      const kind = query.kind ?? null;
      const result =
        query.after === undefined
          ? await run(LIST_OPERATIONS_FIRST, [query.paymentId, limit + 1, kind])
          : await run(LIST_OPERATIONS_AFTER, [query.paymentId, limit + 1, kind, query.after]);
      if (result.isErr()) return err(result.error);
      return readRows((): OperationPage => pageOf(result.value.rows, limit, operationFromRow));
    },

    async findDueOperations(query) {
      const limit = pageSize(query.limit);
      if (limit === 0) return ok([]);
      const result = await run(FIND_DUE_OPERATIONS, [
        new Date(query.now).toISOString(),
        limit,
        host.instanceId,
        host.claimLeaseMs,
      ]);
      if (result.isErr()) return err(result.error);
      const rows = result.value.rows;
      return readRows(() => rows.map(operationFromRow).sort(byDue((operation) => operation.nextInquiryAt)));
    },
  };
}
