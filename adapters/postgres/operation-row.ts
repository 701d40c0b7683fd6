import type { QueryResultRow } from 'pg';
import type { OperationRecord } from '../../src/domain/money-operation.js';
import { paramsOf, recordOf, selectList, type ColumnMap } from './row-codec.js';

/** The columns an operation is written to, in parameter order after `id`, with their SQL types. */
const OPERATION_COLUMNS = [
  ['kind', 'kind', 'value', 'text'],
  ['payment_id', 'paymentId', 'value', 'text'],
  ['partner_id', 'partnerId', 'value', 'text'],
  ['profile_id', 'profileId', 'value', 'text'],
  ['amount', 'amount', 'int8', 'bigint'],
  ['currency', 'currency', 'value', 'text'],
  ['final', 'final', 'value', 'boolean'],
  ['state', 'state', 'value', 'text'],
  ['failure_reason', 'failureReason', 'value', 'text'],
  ['reference', 'reference', 'value', 'text'],
  ['description', 'description', 'value', 'text'],
  ['acquirer_reference', 'acquirerReference', 'value', 'text'],
  ['status', 'status', 'value', 'text'],
  ['next_inquiry_at', 'nextInquiryAt', 'time', 'timestamptz'],
  ['inquiry_attempts', 'inquiryAttempts', 'value', 'int'],
  ['not_found_answers', 'notFoundAnswers', 'value', 'int'],
  ['version', 'version', 'value', 'int'],
  ['write_id', 'writeId', 'value', 'text'],
  ['created_at', 'createdAt', 'time', 'timestamptz'],
  ['updated_at', 'updatedAt', 'time', 'timestamptz'],
] as const satisfies ColumnMap<OperationRecord>;

/** The names of `OPERATION_COLUMNS`, in parameter order after `id`. */
export const OPERATION_WRITE_COLUMNS = OPERATION_COLUMNS.map(([column]) => column);

/** The SQL type of each column, for the `INSERT … SELECT` that cannot infer them. */
export const OPERATION_TYPES = OPERATION_COLUMNS.map(([, , , type]) => type);

/** The select list that `operationFromRow` reads, for a table aliased `table`. */
export const operationSelectList = (table: string): string => selectList(OPERATION_COLUMNS, table);

/** The parameters for `OPERATION_WRITE_COLUMNS`, in that order. */
export const operationParams = (operation: OperationRecord): unknown[] => paramsOf(OPERATION_COLUMNS, operation);

/** The record a row of `operationSelectList` holds: the exact inverse of `operationParams`. */
export const operationFromRow = (row: QueryResultRow): OperationRecord => recordOf(OPERATION_COLUMNS, row);
