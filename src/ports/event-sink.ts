import type { DomainEvent } from '../domain/domain-event.js';
import type { PortFailure, PortResult } from './port-result.js';

/** `unavailable`: the event was not delivered; `retryable: false` defers only this event (see `EventSink`). */
export type EventSinkError = PortFailure<'unavailable'>;

/** What the engine hands `publish` beside the event. */
export interface PublishOptions {
  /**
   * Aborted when the engine stops waiting for this publish, after `timeouts.eventSinkMs` (the
   * reason is a `TimeoutError` `DOMException`). Pass it on (`fetch(url, { signal })`) so that a
   * publish nobody waits for any more does not go on holding a connection: the event counts as
   * not delivered and is offered again later, whatever the abandoned call still does.
   */
  readonly signal: AbortSignal;
}

/** Where domain events go (webhooks, a queue, a log). Delivery is at least once, in order per payment. */
export interface EventSink {
  /** Delivers one event; `ok` once it is delivered, `err` to have it offered again later. */
  publish(event: DomainEvent, options?: PublishOptions): PortResult<void, EventSinkError>;
}
