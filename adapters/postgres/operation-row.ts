import type { OperationRecord } from '../../src/domain/money-operation.js';
import { optionalNumber, safeNumber, selectList, timestamp } from './payment-row.js';

/** The columns an operation is written to, in parameter order after `id`. */
export const OPERATION_WRITE_COLUMNS = [
  'kind',
  'payment_id',
  'partner_id',
  'profile_id',
  'amount',
  'currency',
  'final',
  'state',
  'failure_reason',
  'reference',
  'description',
  'acquirer_reference',
  'status',
  'next_inquiry_at',
  'inquiry_attempts',
  'not_found_answers',
  'version',
  'write_id',
  'created_at',
  'updated_at',
] as const;

const TIME_COLUMNS: ReadonlySet<string> = new Set(['next_inquiry_at', 'created_at', 'updated_at']);

/** The select list that `operationFromRow` reads, for a table aliased `table`. */
export const operationSelectList = (table: string): string => selectList(OPERATION_WRITE_COLUMNS, TIME_COLUMNS, table);

/** A row as `pg` returns it for `operationSelectList` (int8 as strings). */
export interface OperationRow {
  readonly id: string;
  readonly kind: OperationRecord['kind'];
  readonly payment_id: string;
  readonly partner_id: string;
  readonly profile_id: string;
  readonly amount: string;
  readonly currency: string;
  readonly final: boolean;
  readonly state: OperationRecord['state'];
  readonly failure_reason: OperationRecord['failureReason'];
  readonly reference: string | null;
  readonly description: string | null;
  readonly acquirer_reference: string | null;
  readonly status: OperationRecord['status'];
  readonly next_inquiry_at_ms: string | null;
  readonly inquiry_attempts: number;
  readonly not_found_answers: number;
  readonly version: number;
  readonly write_id: string | null;
  readonly created_at_ms: string;
  readonly updated_at_ms: string;
}

/** The parameters for `OPERATION_WRITE_COLUMNS`, in that order. */
export function operationParams(operation: OperationRecord): unknown[] {
  return [
    operation.kind,
    operation.paymentId,
    operation.partnerId,
    operation.profileId,
    operation.amount,
    operation.currency,
    operation.final,
    operation.state,
    operation.failureReason,
    operation.reference,
    operation.description,
    operation.acquirerReference,
    operation.status,
    timestamp(operation.nextInquiryAt),
    operation.inquiryAttempts,
    operation.notFoundAnswers,
    operation.version,
    operation.writeId,
    timestamp(operation.createdAt),
    timestamp(operation.updatedAt),
  ];
}

/** The record a row holds: the exact inverse of `operationParams`. */
export function operationFromRow(row: OperationRow): OperationRecord {
  return {
    id: row.id,
    kind: row.kind,
    paymentId: row.payment_id,
    partnerId: row.partner_id,
    profileId: row.profile_id,
    amount: safeNumber(row.amount, 'amount'),
    currency: row.currency,
    final: row.final,
    state: row.state,
    failureReason: row.failure_reason,
    reference: row.reference,
    description: row.description,
    acquirerReference: row.acquirer_reference,
    status: row.status,
    nextInquiryAt: optionalNumber(row.next_inquiry_at_ms, 'next_inquiry_at'),
    inquiryAttempts: row.inquiry_attempts,
    notFoundAnswers: row.not_found_answers,
    version: row.version,
    writeId: row.write_id,
    createdAt: safeNumber(row.created_at_ms, 'created_at'),
    updatedAt: safeNumber(row.updated_at_ms, 'updated_at'),
  };
}
