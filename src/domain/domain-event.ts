import type { PublicOperation } from './money-operation.js';
import type { Payment } from './payment.js';

/** Every `DomainEvent` `type`, in lifecycle order. */
export const DOMAIN_EVENT_TYPES = Object.freeze([
  'payment.created',
  'payment.action_required',
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.captured',
  'payment.capture_failed',
  'payment.canceled',
  'payment.authorization_expired',
  'refund.succeeded',
  'refund.failed',
] as const);
/** One of `DOMAIN_EVENT_TYPES`: what happened to the payment. */
export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

/**
 * A fact about a payment, written to the outbox in the same commit as the state change
 * and delivered at least once to the event sink. Carries the public payment (BIN and last
 * four at most), never card data.
 */
export interface DomainEvent {
  /** `evt_` + 32 hex; consumers de-duplicate on it. */
  readonly id: string;
  /** What happened; `payment` is the payment as it was right after. */
  readonly type: DomainEventType;
  /** ISO 8601 time of the state change, from the engine's clock. */
  readonly occurredAt: string;
  readonly paymentId: string;
  readonly partnerId: string;
  readonly profileId: string;
  /**
   * The public payment right after the change (BIN and last four at most, never card data), without
   * a hosted page link made from the engine's `pageTokens` (the outbox stores events).
   */
  readonly payment: Payment;
  /** The capture of `payment.captured` / `payment.capture_failed`, the refund of `refund.*`; absent otherwise. */
  readonly operation?: PublicOperation;
}
