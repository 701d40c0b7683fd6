import type { PaymentRecord } from '../../src/domain/payment-record.js';
import type { QueryResultRow } from 'pg';
import { paramsOf, recordOf, selectList, type ColumnMap } from './row-codec.js';

/**
 * The columns a payment is written to, in parameter order after `id`. Card data is kept as
 * its summary only (scheme, BIN, last four, expiry month, holder): the schema has no column a
 * card number or CVC could go to, and CHECK constraints keep the BIN and last four short.
 */
const PAYMENT_COLUMNS = [
  ['partner_id', 'partnerId', 'value'],
  ['profile_id', 'profileId', 'value'],
  ['flow', 'flow', 'value'],
  ['state', 'state', 'value'],
  ['version', 'version', 'value'],
  ['description', 'description', 'value'],
  ['reference', 'reference', 'value'],
  ['method', 'method', 'value'],
  ['currency', 'currency', 'value'],
  ['amount', 'amount', 'int8'],
  ['billing', 'billing', 'contact'],
  ['shipping', 'shipping', 'contact'],
  ['redirect_url', 'redirectUrl', 'value'],
  ['browser', 'browser', 'json'],
  ['card_scheme', 'card', 'card'],
  ['card_bin', 'card', 'card'],
  ['card_last4', 'card', 'card'],
  ['card_expiration', 'card', 'card'],
  ['card_holder_name', 'card', 'card'],
  ['three_ds', 'threeDS', 'json'],
  ['next_redirect', 'nextRedirect', 'value'],
  ['hosted_token', 'hostedToken', 'value'],
  ['authorization_outcome', 'authorization', 'json'],
  ['authorization_status', 'authorizationStatus', 'value'],
  ['failure_reason', 'failureReason', 'value'],
  ['created_at', 'createdAt', 'time'],
  ['updated_at', 'updatedAt', 'time'],
  ['expires_at', 'expiresAt', 'time'],
  ['next_inquiry_at', 'nextInquiryAt', 'time'],
  ['inquiry_attempts', 'inquiryAttempts', 'value'],
  ['not_found_answers', 'notFoundAnswers', 'value'],
  ['write_id', 'writeId', 'value'],
  ['capture_method', 'captureMethod', 'value'],
  ['capture_reserved', 'captureReserved', 'int8'],
  ['amount_captured', 'amountCaptured', 'int8'],
  ['refund_reserved', 'refundReserved', 'int8'],
  ['amount_refunded', 'amountRefunded', 'int8'],
  ['capture_closed_by', 'captureClosedBy', 'value'],
  ['authorization_expires_at', 'authorizationExpiresAt', 'time'],
] as const satisfies ColumnMap<PaymentRecord>;

/** The names of `PAYMENT_COLUMNS`, in parameter order after `id`. */
export const PAYMENT_WRITE_COLUMNS = PAYMENT_COLUMNS.map(([column]) => column);

/** The select list that `paymentFromRow` reads, for a table aliased `table`. */
export const paymentSelectList = (table: string): string => selectList(PAYMENT_COLUMNS, table);

/** The parameters for `PAYMENT_WRITE_COLUMNS`, in that order. */
export const paymentParams = (record: PaymentRecord): unknown[] => paramsOf(PAYMENT_COLUMNS, record);

/** The record a row of `paymentSelectList` holds: the exact inverse of `paymentParams`. */
export const paymentFromRow = (row: QueryResultRow): PaymentRecord => recordOf(PAYMENT_COLUMNS, row);
