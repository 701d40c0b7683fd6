import * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import * as Option from 'effect/Option';
import type { DomainEvent } from '../domain/domain-event.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import { isFinalState } from '../domain/payment-state.js';
import type { PaymentError } from '../errors/payment-error.js';
import type { TelemetrySpan } from '../ports/telemetry.js';
import type { EngineContext } from './engine-context.js';
import { isPaymentId } from './load-payment.js';
import { ATTRIBUTES } from './port-span.js';
import { telemetryOf } from './telemetry-of.js';

/**
 * The engine's spans and metrics (docs/observability.md): what each command and port call
 * reports, and where payments, the outbox and the sweeper are seen. Attributes are names, ids the
 * engine made, states and codes only: never card data, tokens, secrets or free text.
 */

/** A command's span (`paystate <command>`), a child of the caller's active context; none without telemetry. */
export function startCommandSpan(ctx: EngineContext, command: string): TelemetrySpan | undefined {
  const telemetry = telemetryOf(ctx.ports.telemetry);
  if (telemetry === undefined) return undefined;
  return telemetry.startSpan(`paystate ${command}`, { [ATTRIBUTES.command]: command, [ATTRIBUTES.operation]: command });
}

/**
 * A background worker's tick as a span (`paystate <part> tick`): the parent of its port calls'
 * spans, which would otherwise each be a trace of its own. Ends as the tick ends: `ok`, the
 * error's code, `interrupted` (the worker's stop abandoned it) or `internal_error`.
 */
export function withTickSpan<A>(
  ctx: EngineContext,
  part: string,
  program: (ctx: EngineContext) => Effect.Effect<A, PaymentError>,
): Effect.Effect<A, PaymentError> {
  const telemetry = telemetryOf(ctx.ports.telemetry);
  if (telemetry === undefined) return program(ctx);
  return Effect.suspend(() => {
    const name = `${part} tick`;
    const span = telemetry.startSpan(`paystate ${name}`, { [ATTRIBUTES.command]: name, [ATTRIBUTES.operation]: name });
    return program({ ...ctx, span }).pipe(
      Effect.onExit((exit) =>
        Effect.sync(() => {
          if (Exit.isSuccess(exit)) return void span.end('ok');
          const failure = Cause.failureOption(exit.cause);
          if (Option.isSome(failure)) return void span.end(failure.value.code);
          span.end(Cause.isInterruptedOnly(exit.cause) ? 'interrupted' : 'internal_error');
        }),
      ),
    );
  });
}

/** The payment a command's answer is about: a well-formed payment id in `ids` or in the answer's `id`. */
function paymentIdOf(ids: () => Readonly<Record<string, unknown>>, answer: unknown): string | undefined {
  let id: unknown;
  try {
    id = ids()['paymentId'];
  } catch {
    id = undefined;
  }
  if (id === undefined && typeof answer === 'object' && answer !== null) id = (answer as { id?: unknown }).id;
  return typeof id === 'string' && isPaymentId(id) ? id : undefined;
}

/** Ends a command's span with its outcome (`ok`, or the error code) and the payment it was about. */
export function endCommandSpan(
  span: TelemetrySpan,
  outcome: string,
  ids: () => Readonly<Record<string, unknown>>,
  answer?: unknown,
): void {
  if (!span.recording) {
    span.end(outcome);
    return;
  }
  const paymentId = paymentIdOf(ids, answer);
  span.end(outcome, paymentId !== undefined ? { [ATTRIBUTES.paymentId]: paymentId } : {});
}

/** Counts a payment once its write has stored it in a final state it was not in before (`paystate.payments`). */
export function recordFinalState(ctx: EngineContext, from: PaymentRecord['state'] | null, record: PaymentRecord): void {
  const telemetry = telemetryOf(ctx.ports.telemetry);
  if (telemetry === undefined || from === record.state || !isFinalState(record.state)) return;
  telemetry.record('payments', 1, {
    [ATTRIBUTES.state]: record.state,
    ...(record.failureReason !== null && { [ATTRIBUTES.failureReason]: record.failureReason }),
  });
}

/** Records how long an event waited from when it happened to its delivery (`paystate.outbox.lag`), by the clock port. */
export function recordOutboxLag(ctx: EngineContext, event: DomainEvent): void {
  const telemetry = telemetryOf(ctx.ports.telemetry);
  if (telemetry === undefined) return;
  const occurred = Date.parse(event.occurredAt);
  if (!Number.isFinite(occurred)) return;
  const seconds = Math.max(0, ctx.ports.clock.now() - occurred) / 1000;
  telemetry.record('outboxLag', seconds, { [ATTRIBUTES.eventType]: event.type });
}

/** Sets the sweeper's backlog: the due payments found at the start of a tick (`paystate.sweeper.backlog`). */
export function recordSweeperBacklog(ctx: EngineContext, expiries: number, inquiries: number): void {
  const telemetry = telemetryOf(ctx.ports.telemetry);
  if (telemetry === undefined) return;
  telemetry.record('sweeperBacklog', expiries, { [ATTRIBUTES.sweepKind]: 'expiry' });
  telemetry.record('sweeperBacklog', inquiries, { [ATTRIBUTES.sweepKind]: 'inquiry' });
}
