import { Effect } from 'effect';
import type { PaymentError } from '../errors/payment-error.js';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import { callPort, toPaymentError } from './run-port.js';

/**
 * Delivers outbox events to the event sink, oldest first, and marks what was delivered. Order
 * holds per payment: once the sink refuses an event, that payment's later events wait for the
 * next round, while other payments' events in the batch go on. Refused events are offered again
 * as they are, so a batch full of them delivers nothing (docs/architecture.md, known limit).
 * Delivery is at least once (a crash between publish and mark repeats an event; consumers
 * de-duplicate on `id`).
 */
export function deliverEvents(ctx: EngineContext): Effect.Effect<number, PaymentError> {
  return Effect.map(deliverBatch(ctx), (batch) => batch.delivered);
}

/** One delivery batch: how many events went out, and whether the batch read was full (more may wait). */
export interface DeliveryBatch {
  readonly delivered: number;
  readonly full: boolean;
}

export function deliverBatch(ctx: EngineContext): Effect.Effect<DeliveryBatch, PaymentError> {
  const sink = ctx.ports.events;
  if (sink === undefined) return Effect.succeed({ delivered: 0, full: false });
  const storage = { timeoutMs: ctx.options.storageTimeoutMs, retries: ctx.options.retries, retryTimeouts: true };
  return Effect.gen(function* () {
    const entries = yield* callPort(() => ctx.ports.repository.readOutbox(ctx.options.batchSize), storage).pipe(
      Effect.mapError(toPaymentError('payment storage')),
    );
    const delivered: number[] = [];
    const held = new Set<string>();
    for (const entry of entries) {
      if (held.has(entry.event.paymentId)) continue;
      const published = yield* callPort(() => sink.publish(entry.event), {
        ...traced(ctx, 'events.publish', { eventId: entry.event.id, paymentId: entry.event.paymentId }),
        timeoutMs: ctx.options.eventSinkTimeoutMs,
        retries: ctx.options.retries,
        retryTimeouts: true,
        backoffMs: 50,
      }).pipe(
        Effect.as(true),
        Effect.catchAll(() => Effect.succeed(false)),
      );
      if (!published) {
        held.add(entry.event.paymentId);
        ctx.logger.warn({ eventId: entry.event.id, paymentId: entry.event.paymentId }, 'event sink refused an event');
        continue;
      }
      delivered.push(entry.sequence);
    }
    if (delivered.length > 0) {
      yield* callPort(() => ctx.ports.repository.markDelivered(delivered), storage).pipe(
        Effect.mapError(toPaymentError('payment storage')),
      );
    }
    return { delivered: delivered.length, full: entries.length >= ctx.options.batchSize };
  });
}
