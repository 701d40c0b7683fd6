import type { Payment } from './payment.js';

export const DOMAIN_EVENT_TYPES = [
  'payment.created',
  'payment.action_required',
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
] as const;
export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

/**
 * A fact about a payment, written to the outbox in the same commit as the state change
 * and delivered at least once to the event sink. Carries the public payment (BIN and last
 * four at most), never card data.
 */
export interface DomainEvent {
  /** `evt_` + 32 hex; consumers de-duplicate on it. */
  readonly id: string;
  readonly type: DomainEventType;
  readonly occurredAt: string;
  readonly paymentId: string;
  readonly partnerId: string;
  readonly profileId: string;
  readonly payment: Payment;
}
