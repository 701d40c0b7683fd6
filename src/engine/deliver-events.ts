import * as Effect from 'effect/Effect';
import type { PaymentError } from '../errors/payment-error.js';
import type { DomainEvent } from '../domain/domain-event.js';
import { loggableMessage } from '../domain/mask-digits.js';
import type { OutboxDeferral, OutboxEntry } from '../ports/payment-repository.js';
import type { EngineContext } from './engine-context.js';
import { spanned, traced } from './engine-context.js';
import { recordOutboxLag } from './engine-telemetry.js';
import { describeDefect } from './describe-defect.js';
import { PUBLISH_BACKOFF_MS } from './engine-options.js';
import { callPort, toPaymentError, type PortCallPolicy } from './run-port.js';

/**
 * Delivers due outbox events to the event sink and marks what was delivered. Order holds per
 * payment: once an event is not delivered, it is deferred with a growing back-off
 * (`deliveryRetry`), and that payment's later events wait behind it, while other payments' events
 * go on. Of the payments a batch read, those whose next event has never failed go first (oldest
 * first), then those whose next event failed before (`deliveryOrder`). A refusal the sink marks
 * not retryable, and a publish that throws or rejects (a defect, logged as `describeDefect` puts
 * it), concern that event only: it is deferred, and the batch goes on. A retryable refusal or a
 * time-out (after the `retries` of one call) is deferred too, and may mean the sink itself is
 * down, so the batch ends there (`stalled`) when the event had never failed and the sink has not
 * yet delivered or refused an event of the batch, or when it is the `TROUBLE_IN_A_ROW`th in a
 * row. Otherwise it concerns that event (a consumer that answers 5xx for some events only), and
 * the batch goes on: events that failed before and keep failing do not hold up other payments. A
 * sink that is down costs one event's attempts per batch (`TROUBLE_IN_A_ROW` when every waiting
 * event has failed before), not one per waiting payment. A publish that runs out of time has its
 * signal aborted (`PublishOptions`). Delivery is at least once (a crash between publish and mark
 * repeats an event; consumers de-duplicate on `id`).
 *
 * A repository shared by several instances leases the outbox to one of them (`holdOutbox`):
 * before each publish the batch makes sure its lease covers the longest that publish and the
 * writes after it may take (`outboxHoldNeededMs`), renewing it when it does not, and publishes
 * nothing more once the lease is lost or cannot be renewed (`outboxLease`). So a slow sink keeps
 * the lease of the instance that waits for it, and no other instance reads the same events
 * meanwhile.
 */
export function deliverEvents(ctx: EngineContext): Effect.Effect<number, PaymentError> {
  return Effect.map(deliverBatch(ctx), (batch) => batch.delivered);
}

/**
 * One delivery batch: how many events went out, how many were not (now deferred), whether the
 * batch read was full (more may wait), whether it ended early because the sink seems down, and
 * whether it ended early because its outbox lease was lost or could not be renewed (the events
 * it did not offer wait for the next batch, or for the instance that holds the lease).
 */
export interface DeliveryBatch {
  readonly delivered: number;
  readonly deferred: number;
  readonly full: boolean;
  readonly stalled: boolean;
  readonly leaseLost: boolean;
}

/**
 * How many retryable failures or time-outs in a row (each of another payment, as a failure holds
 * back the rest of its payment) end a batch, whatever the sink delivered before them.
 */
export const TROUBLE_IN_A_ROW = 3;

/**
 * How one publish ended. `trouble` is a retryable refusal or a time-out; `reason` says what the
 * sink answered, for the log line of the deferral.
 */
type PublishOutcome =
  | { readonly kind: 'delivered' }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'trouble'; readonly reason: string }
  | { readonly kind: 'defect'; readonly defect: unknown };

const DELIVERED: PublishOutcome = { kind: 'delivered' };

/**
 * One delivery batch (see `deliverEvents`). Once `stopRequested` says so it offers no further
 * event: what it published is marked delivered and what it deferred is stored, and the rest waits.
 */
export function deliverBatch(
  ctx: EngineContext,
  stopRequested: () => boolean = () => false,
): Effect.Effect<DeliveryBatch, PaymentError> {
  const sink = ctx.ports.events;
  if (sink === undefined) {
    return Effect.succeed({ delivered: 0, deferred: 0, full: false, stalled: false, leaseLost: false });
  }
  const storage = { timeoutMs: ctx.options.storageTimeoutMs, retries: ctx.options.retries, retryTimeouts: true };
  const publish = (entry: OutboxEntry): Effect.Effect<PublishOutcome> =>
    callPort(
      (signal?: AbortSignal) =>
        signal === undefined ? sink.publish(entry.event) : sink.publish(entry.event, { signal }),
      {
        ...traced(ctx, 'events.publish', { eventId: entry.event.id, paymentId: entry.event.paymentId }),
        timeoutMs: ctx.options.eventSinkTimeoutMs,
        abortable: true,
        retries: ctx.options.retries,
        retryTimeouts: true,
        backoffMs: PUBLISH_BACKOFF_MS,
      },
    ).pipe(
      Effect.as(DELIVERED),
      Effect.catchAll((failure) =>
        Effect.succeed<PublishOutcome>(
          failure.kind === 'timeout'
            ? { kind: 'trouble', reason: `no answer within ${ctx.options.eventSinkTimeoutMs} ms` }
            : {
                kind: failure.error.retryable ? 'trouble' : 'refused',
                reason: `${loggableMessage(String(failure.error.code))}: ${loggableMessage(failure.error.message)}`,
              },
        ),
      ),
      // A sink that throws or rejects for one event (a bug, a `fetch` that rejects) costs that
      // event, not the batch: the batch would otherwise end before marking what it delivered, and
      // publish those events again at every tick.
      Effect.catchAllDefect((defect) => Effect.succeed<PublishOutcome>({ kind: 'defect', defect })),
    );
  return Effect.gen(function* () {
    const entries = yield* callPort(
      () => ctx.ports.repository.readOutbox({ now: ctx.ports.clock.now(), limit: ctx.options.batchSize }),
      { ...storage, ...spanned(ctx, 'repository.readOutbox') },
    ).pipe(Effect.mapError(toPaymentError('payment storage')));
    const delivered: number[] = [];
    const deferred: Deferral[] = [];
    const order = deliveryOrder(entries);
    const mayPublish = outboxLease(ctx, storage);
    let stalled = false;
    let leaseLost = false;
    // Whether the sink delivered or refused an event of this batch (it is up), and how many
    // retryable failures and time-outs came since the last time it did.
    let answered = false;
    let troubleInARow = 0;
    for (let entry = order.next(); entry !== undefined; entry = order.next()) {
      if (stopRequested()) break;
      if (!(yield* mayPublish())) {
        leaseLost = true;
        break;
      }
      if (stopRequested()) break;
      const outcome = yield* publish(entry);
      if (outcome.kind === 'delivered') {
        recordOutboxLag(ctx, entry.event);
        delivered.push(entry.sequence);
        answered = true;
        troubleInARow = 0;
        continue;
      }
      order.hold(entry.event.paymentId);
      deferred.push(
        deferral(
          ctx,
          entry,
          outcome.kind === 'defect' ? { cause: describeDefect(outcome.defect) } : { reason: outcome.reason },
        ),
      );
      if (outcome.kind === 'refused') {
        answered = true;
        troubleInARow = 0;
      }
      if (outcome.kind !== 'trouble') continue;
      troubleInARow += 1;
      if ((entry.attempts === 0 && !answered) || troubleInARow >= TROUBLE_IN_A_ROW) {
        stalled = true;
        break;
      }
    }
    // Deferrals first: if marking then fails, the delivered events go out again (at least once),
    // but every failure is counted and logged only once it is stored.
    if (deferred.length > 0) {
      yield* callPort(() => ctx.ports.repository.deferDelivery(deferred), {
        ...storage,
        ...spanned(ctx, 'repository.deferDelivery'),
      }).pipe(Effect.mapError(toPaymentError('payment storage')));
      for (const deferral of deferred) logDeferral(ctx, deferral);
    }
    if (delivered.length > 0) {
      yield* callPort(() => ctx.ports.repository.markDelivered(delivered), {
        ...storage,
        ...spanned(ctx, 'repository.markDelivered'),
      }).pipe(Effect.mapError(toPaymentError('payment storage')));
    }
    return {
      delivered: delivered.length,
      deferred: deferred.length,
      full: entries.length >= ctx.options.batchSize,
      stalled,
      leaseLost,
    };
  });
}

/**
 * Whether the batch may publish one more event: always when the repository does not lease the
 * outbox (`holdOutbox`); else when the lease covers `outboxHoldNeededMs` from now (the longest
 * publish, a renewal that fails after it, and the writes of deferrals and deliveries), renewing it
 * for `outboxHoldMs` first when what the batch knows of it does not. The batch knows nothing of
 * the lease `readOutbox` took, so it renews before its first publish; after that, about once per
 * `outboxHoldMs - outboxHoldNeededMs` of publishing. The lease is measured from when the renewal
 * was sent, by the clock port, so the renewal's own time counts against it.
 *
 * `false` when another instance holds the lease or has held it since (this instance's lapsed: the
 * events this batch read may be delivered there), and when the renewal failed or threw: either
 * way the batch publishes nothing more, and the events it did not offer wait.
 */
function outboxLease(ctx: EngineContext, storage: PortCallPolicy): () => Effect.Effect<boolean> {
  const { repository } = ctx.ports;
  const hold = repository.holdOutbox;
  if (hold === undefined) return () => Effect.succeed(true);
  const { outboxHoldMs: forMs, outboxHoldNeededMs: needed } = ctx.options;
  const { clock } = ctx.ports;
  let heldUntil = Number.NEGATIVE_INFINITY;
  const covered = () => heldUntil - clock.now() >= needed;
  return () =>
    Effect.suspend(() => {
      if (covered()) return Effect.succeed(true);
      const sentAt = clock.now();
      return callPort(() => hold.call(repository, { forMs }), {
        ...traced(ctx, 'repository.holdOutbox', { forMs }),
        ...storage,
      }).pipe(
        Effect.map((held) => {
          if (!held) {
            ctx.logger.warn({ forMs }, 'outbox lease lost to another instance; this batch publishes nothing more');
            return false;
          }
          heldUntil = sentAt + forMs;
          if (covered()) return true;
          ctx.logger.warn(
            { forMs, ms: clock.now() - sentAt },
            'outbox lease renewed too late; this batch publishes nothing more',
          );
          return false;
        }),
        Effect.catchAll((failure) =>
          Effect.sync(() => {
            const code = failure.kind === 'timeout' ? 'timeout' : failure.error.code;
            ctx.logger.warn({ code }, 'outbox lease could not be renewed; this batch publishes nothing more');
            return false;
          }),
        ),
        Effect.catchAllDefect((defect) =>
          Effect.sync(() => {
            ctx.logger.error(
              { cause: describeDefect(defect) },
              'outbox lease renewal threw; this batch publishes nothing more',
            );
            return false;
          }),
        ),
      );
    });
}

/** The order a batch offers its entries in. */
interface DeliveryOrder {
  /**
   * The next entry to offer: of the payments not held back, the first entry left of each (order
   * per payment), the oldest that has never failed, or else the oldest. Other payments' order
   * does not depend on it, so a new event may go before one that failed before.
   */
  next(): OutboxEntry | undefined;
  /** Holds back the rest of a payment's entries (one of them was not delivered). */
  hold(paymentId: string): void;
}

function deliveryOrder(entries: readonly OutboxEntry[]): DeliveryOrder {
  const taken = new Set<OutboxEntry>();
  const held = new Set<string>();
  // Every entry before `start` is taken or held back.
  let start = 0;
  const open = (entry: OutboxEntry) => !taken.has(entry) && !held.has(entry.event.paymentId);
  return {
    next() {
      for (let entry = entries[start]; entry !== undefined && !open(entry); entry = entries[start]) start += 1;
      const ahead = new Set<string>();
      let oldest: OutboxEntry | undefined;
      let chosen: OutboxEntry | undefined;
      for (let index = start; index < entries.length && chosen === undefined; index++) {
        const entry = entries[index];
        if (entry === undefined || !open(entry) || ahead.has(entry.event.paymentId)) continue;
        ahead.add(entry.event.paymentId);
        if (entry.attempts === 0) chosen = entry;
        else oldest ??= entry;
      }
      chosen ??= oldest;
      if (chosen !== undefined) taken.add(chosen);
      return chosen;
    },
    hold(paymentId) {
      held.add(paymentId);
    },
  };
}

interface Deferral extends OutboxDeferral {
  readonly event: DomainEvent;
  readonly delayMs: number;
  /** Why: the sink's answer (`reason`), or, when the publish threw or rejected, its defect as `describeDefect` puts it (`cause`). */
  readonly why: { readonly reason: string } | { readonly cause: string };
}

/** The next attempt of an event not delivered: `firstDelayMs` after its first failure, doubling up to `maxDelayMs`. */
function deferral(ctx: EngineContext, entry: OutboxEntry, why: Deferral['why']): Deferral {
  const attempts = entry.attempts + 1;
  const { deliveryFirstDelayMs: first, deliveryMaxDelayMs: max } = ctx.options;
  const delayMs = Math.min(max, first * 2 ** Math.min(attempts - 1, 52));
  return {
    sequence: entry.sequence,
    attempts,
    retryAt: ctx.ports.clock.now() + delayMs,
    event: entry.event,
    delayMs,
    why,
  };
}

/** A warning per refusal, and an error once the delay has reached its cap or when the publish threw. */
function logDeferral(ctx: EngineContext, deferral: Deferral): void {
  const fields = {
    eventId: deferral.event.id,
    paymentId: deferral.event.paymentId,
    attempts: deferral.attempts,
    retryAt: new Date(deferral.retryAt).toISOString(),
  };
  const { why } = deferral;
  if ('cause' in why) {
    ctx.logger.error({ ...fields, cause: why.cause }, 'event sink threw for an event; it will be offered again');
  } else if (deferral.delayMs >= ctx.options.deliveryMaxDelayMs) {
    ctx.logger.error(
      { ...fields, reason: why.reason },
      "event sink keeps refusing an event; it and its payment's later events wait",
    );
  } else {
    ctx.logger.warn({ ...fields, reason: why.reason }, 'event sink refused an event; it will be offered again');
  }
}
