import type { DomainEvent } from '../domain/domain-event.js';
import type { PortFailure, PortResult } from './port-result.js';

export type EventSinkError = PortFailure<'unavailable'>;

/** Where domain events go (webhooks, a queue, a log). Delivery is at least once, in order per payment. */
export interface EventSink {
  publish(event: DomainEvent): PortResult<void, EventSinkError>;
}
