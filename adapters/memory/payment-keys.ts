import { authorizationOpen } from '../../src/domain/money-counters.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import type { RepositoryError } from '../../src/ports/payment-repository.js';
import type { IndexKey } from './sorted-index.js';

const EXPIRING_STATES: ReadonlySet<PaymentRecord['state']> = new Set(['awaiting_card_data', 'awaiting_challenge']);

/** Where a payment sits in the index of deadlines: waiting for the cardholder, with a deadline. */
export const expiryKey = (record: PaymentRecord): IndexKey | null =>
  EXPIRING_STATES.has(record.state) && record.expiresAt !== null ? { time: record.expiresAt, id: record.id } : null;

/** Where a payment sits in the index of authorization inquiries. */
export const inquiryKey = (record: PaymentRecord): IndexKey | null =>
  record.state === 'authorizing' && record.nextInquiryAt !== null
    ? { time: record.nextInquiryAt, id: record.id }
    : null;

/** Where a manual payment with an open authorization sits in the index of authorization expiries. */
export const authorizationExpiryKey = (record: PaymentRecord): IndexKey | null =>
  authorizationOpen(record) && record.authorizationExpiresAt !== null
    ? { time: record.authorizationExpiresAt, id: record.id }
    : null;

/** Where a payment sits in its profile's list. */
export const creationKey = (record: PaymentRecord): IndexKey => ({ time: record.createdAt, id: record.id });

/** A lost race or a refused write: nothing is stored. */
export const conflict = (message: string): RepositoryError => ({ code: 'conflict', message, retryable: false });

/** Whole, non-negative page size; anything else reads as 0. */
export const pageSize = (limit: number): number =>
  Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : limit === Infinity ? Number.MAX_SAFE_INTEGER : 0;
