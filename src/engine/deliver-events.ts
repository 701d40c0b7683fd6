import { Effect } from 'effect';
import type { PaymentError } from '../errors/payment-error.js';
import type { DomainEvent } from '../domain/domain-event.js';
import type { OutboxDeferral, OutboxEntry } from '../ports/payment-repository.js';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import { callPort, toPaymentError } from './run-port.js';

/**
 * Delivers due outbox events to the event sink, oldest first, and marks what was delivered.
 * Order holds per payment: once the sink refuses an event, it is deferred with a growing back-off
 * (`deliveryRetry`), and that payment's later events wait behind it, while other payments' events
 * go on. A refusal the sink marks not retryable concerns that event, and the batch goes on; a
 * retryable one or a time-out (after the `retries` of one call) says the sink itself is in
 * trouble, so the batch ends there and the rest waits for the next one (`stalled`): a sink that
 * is down costs one event's attempts per batch, not one per waiting payment. A publish that runs
 * out of time has its signal aborted (`PublishOptions`). Delivery is at least once (a crash between publish and mark repeats an event; consumers de-duplicate on `id`).
 */
export function deliverEvents(ctx: EngineContext): Effect.Effect<number, PaymentError> {
  return Effect.map(deliverBatch(ctx), (batch) => batch.delivered);
}

/**
 * One delivery batch: how many events went out, how many the sink refused (now deferred), whether
 * the batch read was full (more may wait), and whether it ended early because the sink seems
 * down (a retryable failure or a time-out).
 */
export interface DeliveryBatch {
  readonly delivered: number;
  readonly deferred: number;
  readonly full: boolean;
  readonly stalled: boolean;
}

export function deliverBatch(ctx: EngineContext): Effect.Effect<DeliveryBatch, PaymentError> {
  const sink = ctx.ports.events;
  if (sink === undefined) return Effect.succeed({ delivered: 0, deferred: 0, full: false, stalled: false });
  const storage = { timeoutMs: ctx.options.storageTimeoutMs, retries: ctx.options.retries, retryTimeouts: true };
  return Effect.gen(function* () {
    const entries = yield* callPort(
      () => ctx.ports.repository.readOutbox({ now: ctx.ports.clock.now(), limit: ctx.options.batchSize }),
      storage,
    ).pipe(Effect.mapError(toPaymentError('payment storage')));
    const delivered: number[] = [];
    const deferred: Deferral[] = [];
    const held = new Set<string>();
    let stalled = false;
    for (const entry of entries) {
      if (held.has(entry.event.paymentId)) continue;
      const publish = (signal?: AbortSignal) =>
        signal === undefined ? sink.publish(entry.event) : sink.publish(entry.event, { signal });
      const outcome = yield* callPort(publish, {
        ...traced(ctx, 'events.publish', { eventId: entry.event.id, paymentId: entry.event.paymentId }),
        timeoutMs: ctx.options.eventSinkTimeoutMs,
        abortable: true,
        retries: ctx.options.retries,
        retryTimeouts: true,
        backoffMs: 50,
      }).pipe(
        Effect.as('delivered' as const),
        Effect.catchAll((failure) =>
          Effect.succeed(
            failure.kind === 'timeout' || failure.error.retryable ? ('sink trouble' as const) : ('refused' as const),
          ),
        ),
      );
      if (outcome === 'delivered') {
        delivered.push(entry.sequence);
        continue;
      }
      held.add(entry.event.paymentId);
      deferred.push(deferral(ctx, entry));
      if (outcome === 'sink trouble') {
        stalled = true;
        break;
      }
    }
    // Deferrals first: if marking then fails, the delivered events go out again (at least once),
    // but every refusal is counted and logged only once it is stored.
    if (deferred.length > 0) {
      yield* callPort(() => ctx.ports.repository.deferDelivery(deferred), storage).pipe(
        Effect.mapError(toPaymentError('payment storage')),
      );
      for (const deferral of deferred) logDeferral(ctx, deferral);
    }
    if (delivered.length > 0) {
      yield* callPort(() => ctx.ports.repository.markDelivered(delivered), storage).pipe(
        Effect.mapError(toPaymentError('payment storage')),
      );
    }
    return {
      delivered: delivered.length,
      deferred: deferred.length,
      full: entries.length >= ctx.options.batchSize,
      stalled,
    };
  });
}

interface Deferral extends OutboxDeferral {
  readonly event: DomainEvent;
  readonly delayMs: number;
}

/** The next attempt of a refused event: `firstDelayMs` after its first failure, doubling up to `maxDelayMs`. */
function deferral(ctx: EngineContext, entry: OutboxEntry): Deferral {
  const attempts = entry.attempts + 1;
  const { deliveryFirstDelayMs: first, deliveryMaxDelayMs: max } = ctx.options;
  const delayMs = Math.min(max, first * 2 ** Math.min(attempts - 1, 52));
  return { sequence: entry.sequence, attempts, retryAt: ctx.ports.clock.now() + delayMs, event: entry.event, delayMs };
}

/** A warning per refusal, and an error once the delay has reached its cap. */
function logDeferral(ctx: EngineContext, deferral: Deferral): void {
  const fields = {
    eventId: deferral.event.id,
    paymentId: deferral.event.paymentId,
    attempts: deferral.attempts,
    retryAt: new Date(deferral.retryAt).toISOString(),
  };
  if (deferral.delayMs >= ctx.options.deliveryMaxDelayMs) {
    ctx.logger.error(fields, "event sink keeps refusing an event; it and its payment's later events wait");
  } else {
    ctx.logger.warn(fields, 'event sink refused an event; it will be offered again');
  }
}
