import type { FailureReason } from '../domain/failure-reason.js';

/**
 * Everything that can happen to a payment. Every event carries `at` (epoch ms from the clock
 * port): the machine never reads time itself, so the same events always give the same result.
 */
export type PaymentMachineEvent =
  | { readonly type: 'card.submitted'; readonly at: number }
  | { readonly type: 'authentication.not_required'; readonly at: number }
  | { readonly type: 'authentication.succeeded'; readonly at: number }
  | { readonly type: 'authentication.unavailable'; readonly at: number }
  | { readonly type: 'authentication.challenge_required'; readonly at: number }
  | { readonly type: 'authentication.data_mismatch'; readonly at: number }
  | { readonly type: 'authentication.rejected'; readonly at: number }
  | { readonly type: 'authentication.error'; readonly at: number }
  | { readonly type: 'challenge.accepted'; readonly at: number }
  | { readonly type: 'challenge.refused'; readonly at: number }
  | { readonly type: 'expiry.due'; readonly at: number }
  | { readonly type: 'cancel.requested'; readonly at: number }
  | { readonly type: 'authorization.approved'; readonly at: number }
  | { readonly type: 'authorization.declined'; readonly at: number; readonly reason: FailureReason }
  | { readonly type: 'authorization.unknown'; readonly at: number }
  | { readonly type: 'inquiry.answered'; readonly at: number; readonly outcome: InquiryAnswer };

/** What an acquirer inquiry found, as the machine takes it (`pending`: no final answer yet). */
export type InquiryAnswer =
  | { readonly kind: 'approved' }
  | { readonly kind: 'declined'; readonly reason: FailureReason }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'pending' };

/** The `type` of a `PaymentMachineEvent`. */
export type PaymentMachineEventType = PaymentMachineEvent['type'];

/** Every `PaymentMachineEventType`, for diagrams and property tests. */
export const PAYMENT_MACHINE_EVENT_TYPES: readonly PaymentMachineEventType[] = Object.freeze([
  'card.submitted',
  'authentication.not_required',
  'authentication.succeeded',
  'authentication.unavailable',
  'authentication.challenge_required',
  'authentication.data_mismatch',
  'authentication.rejected',
  'authentication.error',
  'challenge.accepted',
  'challenge.refused',
  'expiry.due',
  'cancel.requested',
  'authorization.approved',
  'authorization.declined',
  'authorization.unknown',
  'inquiry.answered',
]);
