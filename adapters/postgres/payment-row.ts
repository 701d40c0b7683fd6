import type { AuthorizationRecord, PaymentRecord } from '../../src/domain/payment-record.js';
import { contactInOrder, type BrowserData, type Contact } from '../../src/domain/contact.js';
import type { CardScheme } from '../../src/domain/card.js';
import type { ThreeDSOutcome } from '../../src/domain/three-ds.js';
import { isoTime } from '../../src/domain/iso-time.js';

/**
 * The columns a payment is written to, in parameter order after `id`. Card data is kept as
 * its summary only (scheme, BIN, last four, expiry month, holder): the schema has no column a
 * card number or CVC could go to, and CHECK constraints keep the BIN and last four short.
 */
export const PAYMENT_WRITE_COLUMNS = [
  'partner_id',
  'profile_id',
  'flow',
  'state',
  'version',
  'description',
  'reference',
  'method',
  'currency',
  'amount',
  'billing',
  'shipping',
  'redirect_url',
  'browser',
  'card_scheme',
  'card_bin',
  'card_last4',
  'card_expiration',
  'card_holder_name',
  'three_ds',
  'next_redirect',
  'hosted_token',
  'authorization_outcome',
  'authorization_status',
  'failure_reason',
  'created_at',
  'updated_at',
  'expires_at',
  'next_inquiry_at',
  'inquiry_attempts',
  'not_found_answers',
  'write_id',
  'capture_method',
  'capture_reserved',
  'amount_captured',
  'refund_reserved',
  'amount_refunded',
  'capture_closed_by',
  'authorization_expires_at',
] as const;

const TIME_COLUMNS: ReadonlySet<string> = new Set([
  'created_at',
  'updated_at',
  'expires_at',
  'next_inquiry_at',
  'authorization_expires_at',
]);

/** The select list of `id` and `columns` of a table aliased `table`, the `times` as epoch ms (`<column>_ms`, int8). */
export function selectList(columns: readonly string[], times: ReadonlySet<string>, table: string): string {
  const plain = columns.filter((column) => !times.has(column)).map((column) => `${table}.${column}`);
  const epochMs = [...times].map((column) => `(extract(epoch from ${table}.${column}) * 1000)::int8 AS ${column}_ms`);
  return [`${table}.id`, ...plain, ...epochMs].join(', ');
}

/** The select list that `paymentFromRow` reads, for a table aliased `table`. */
export const paymentSelectList = (table: string): string => selectList(PAYMENT_WRITE_COLUMNS, TIME_COLUMNS, table);

/** A row as `pg` returns it for `paymentSelectList` (int8 as strings, jsonb parsed). */
export interface PaymentRow {
  readonly id: string;
  readonly partner_id: string;
  readonly profile_id: string;
  readonly flow: PaymentRecord['flow'];
  readonly state: PaymentRecord['state'];
  readonly version: number;
  readonly description: string | null;
  readonly reference: string | null;
  readonly method: 'creditcard';
  readonly currency: string;
  readonly amount: string;
  readonly billing: Contact;
  readonly shipping: Contact;
  readonly redirect_url: string;
  readonly browser: BrowserData | null;
  readonly card_scheme: CardScheme | null;
  readonly card_bin: string | null;
  readonly card_last4: string | null;
  readonly card_expiration: string | null;
  readonly card_holder_name: string | null;
  readonly three_ds: ThreeDSOutcome | null;
  readonly next_redirect: string | null;
  readonly hosted_token: string | null;
  readonly authorization_outcome: AuthorizationRecord | null;
  readonly authorization_status: PaymentRecord['authorizationStatus'];
  readonly failure_reason: PaymentRecord['failureReason'];
  readonly created_at_ms: string;
  readonly updated_at_ms: string;
  readonly expires_at_ms: string | null;
  readonly next_inquiry_at_ms: string | null;
  readonly inquiry_attempts: number;
  readonly not_found_answers: number;
  readonly write_id: string | null;
  readonly capture_method: PaymentRecord['captureMethod'];
  readonly capture_reserved: string;
  readonly amount_captured: string;
  readonly refund_reserved: string;
  readonly amount_refunded: string;
  readonly capture_closed_by: string | null;
  readonly authorization_expires_at_ms: string | null;
}

/** Thrown when a stored value cannot be a record field (a bigint beyond 2^53); the repository reports it. */
export class UnreadableRowError extends Error {
  override readonly name = 'UnreadableRowError';
}

/** An int8 as a JS number, refusing values that a double cannot hold exactly. */
export function safeNumber(text: string, what: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new UnreadableRowError(`${what} is not a safe integer`);
  return value;
}

/** An int8 or null as a JS number or null (see `safeNumber`). */
export const optionalNumber = (text: string | null, what: string): number | null =>
  text === null ? null : safeNumber(text, what);

/** Epoch ms as an ISO timestamp for a `timestamptz` parameter; null stays null. */
export const timestamp = (ms: number | null): string | null => (ms === null ? null : isoTime(ms));

const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

/** The parameters for `PAYMENT_WRITE_COLUMNS`, in that order. */
export function paymentParams(record: PaymentRecord): unknown[] {
  const card = record.card;
  return [
    record.partnerId,
    record.profileId,
    record.flow,
    record.state,
    record.version,
    record.description,
    record.reference,
    record.method,
    record.currency,
    record.amount,
    json(record.billing),
    json(record.shipping),
    record.redirectUrl,
    json(record.browser),
    card?.scheme ?? null,
    card?.bin ?? null,
    card?.last4 ?? null,
    card?.expiration ?? null,
    card?.holder_name ?? null,
    json(record.threeDS),
    record.nextRedirect,
    record.hostedToken,
    json(record.authorization),
    record.authorizationStatus,
    record.failureReason,
    timestamp(record.createdAt),
    timestamp(record.updatedAt),
    timestamp(record.expiresAt),
    timestamp(record.nextInquiryAt),
    record.inquiryAttempts,
    record.notFoundAnswers,
    record.writeId,
    record.captureMethod,
    record.captureReserved,
    record.amountCaptured,
    record.refundReserved,
    record.amountRefunded,
    record.captureClosedBy,
    timestamp(record.authorizationExpiresAt),
  ];
}

/** The record a row holds: the exact inverse of `paymentParams` (absent optional fields stay absent). */
export function paymentFromRow(row: PaymentRow): PaymentRecord {
  const card =
    row.card_scheme === null
      ? null
      : {
          scheme: row.card_scheme,
          bin: row.card_bin ?? '',
          last4: row.card_last4 ?? '',
          expiration: row.card_expiration ?? '',
          holder_name: row.card_holder_name ?? '',
        };
  return {
    id: row.id,
    partnerId: row.partner_id,
    profileId: row.profile_id,
    flow: row.flow,
    state: row.state,
    version: row.version,
    description: row.description,
    reference: row.reference,
    method: row.method,
    currency: row.currency,
    amount: safeNumber(row.amount, 'amount'),
    // jsonb keeps keys in an order of its own: back to the order the engine writes.
    billing: contactInOrder(row.billing),
    shipping: contactInOrder(row.shipping),
    redirectUrl: row.redirect_url,
    browser: row.browser,
    card,
    threeDS: row.three_ds,
    nextRedirect: row.next_redirect,
    hostedToken: row.hosted_token,
    authorization: row.authorization_outcome,
    authorizationStatus: row.authorization_status,
    failureReason: row.failure_reason,
    createdAt: safeNumber(row.created_at_ms, 'created_at'),
    updatedAt: safeNumber(row.updated_at_ms, 'updated_at'),
    expiresAt: optionalNumber(row.expires_at_ms, 'expires_at'),
    nextInquiryAt: optionalNumber(row.next_inquiry_at_ms, 'next_inquiry_at'),
    inquiryAttempts: row.inquiry_attempts,
    notFoundAnswers: row.not_found_answers,
    writeId: row.write_id,
    captureMethod: row.capture_method,
    captureReserved: safeNumber(row.capture_reserved, 'capture_reserved'),
    amountCaptured: safeNumber(row.amount_captured, 'amount_captured'),
    refundReserved: safeNumber(row.refund_reserved, 'refund_reserved'),
    amountRefunded: safeNumber(row.amount_refunded, 'amount_refunded'),
    captureClosedBy: row.capture_closed_by,
    authorizationExpiresAt: optionalNumber(row.authorization_expires_at_ms, 'authorization_expires_at'),
  };
}
