import type { DomainEvent, DomainEventType } from './domain-event.js';
import type { Payment } from './payment.js';

/**
 * The JSON body of a webhook request (docs/webhooks.md), snake_case like the v1 API:
 *
 * ```json
 * { "id": "evt_…", "type": "payment.succeeded", "created": "2026-01-15T12:00:00.000Z",
 *   "partner_id": "partner_…", "profile_id": "profile_…", "data": { "payment": { … } } }
 * ```
 *
 * Fields may be added to it (and to the payment) over time; none is removed or changes meaning.
 * It never holds card data: the payment is the one the API shows (BIN and last four at most).
 */
export interface WebhookEvent {
  /** The event id, `evt_` and 32 hex digits: the same on every delivery of the event. De-duplicate on it. */
  readonly id: string;
  /** What happened to the payment. */
  readonly type: DomainEventType;
  /** When it happened (the state change), ISO 8601 UTC with milliseconds; not when it was sent. */
  readonly created: string;
  /** The partner the payment belongs to. */
  readonly partner_id: string;
  /** The profile (merchant account) of the payment. */
  readonly profile_id: string;
  readonly data: {
    /** The payment as the v1 API shows it (`GET` of its `_links.self`), right after the change. */
    readonly payment: Payment;
  };
}

/** The webhook body of a domain event: its fields by name, so nothing else of the event is sent. */
export function toWebhookEvent(event: DomainEvent): WebhookEvent {
  return {
    id: event.id,
    type: event.type,
    created: event.occurredAt,
    partner_id: event.partnerId,
    profile_id: event.profileId,
    data: { payment: event.payment },
  };
}
