import type { PaymentMachine } from '../machine/payment-machine.js';
import type { Acquirer } from '../ports/acquirer.js';
import type { CardVault } from '../ports/card-vault.js';
import type { Clock } from '../ports/clock.js';
import type { EventSink } from '../ports/event-sink.js';
import type { IdGenerator } from '../ports/id-generator.js';
import type { Logger } from '../ports/logger.js';
import type { PageTokens } from '../ports/page-tokens.js';
import { logsAt } from '../ports/logger.js';
import type { PortTrace } from './run-port.js';
import type { PaymentRepository } from '../ports/payment-repository.js';
import type { ThreeDSProvider } from '../ports/three-ds-provider.js';
import type { Telemetry, TelemetrySpan } from '../ports/telemetry.js';
import type { PortTelemetry } from './port-span.js';
import { telemetryOf } from './telemetry-of.js';
import type { ResolvedEngineOptions } from './engine-options.js';
import type { Inspection } from './inspection.js';
import type { SweepSetAside } from './sweep-set-aside.js';

/** The ports an engine reaches the world through. */
export interface PaymentEnginePorts {
  /** Where payments and their outbox events are stored. */
  readonly repository: PaymentRepository;
  /** Authorizes card payments. */
  readonly acquirer: Acquirer;
  /** Authenticates cardholders (EMV 3DS). */
  readonly threeDS: ThreeDSProvider;
  /** Holds card data while a 3DS challenge is open. */
  readonly cardVault: CardVault;
  /** The only time the engine sees. */
  readonly clock: Clock;
  /** The only randomness the engine sees: payment ids, event ids, hosted page tokens (without `pageTokens`). */
  readonly ids: IdGenerator;
  /**
   * Makes hosted page tokens from a key shared by instances (`createHmacPageTokens` of
   * `paystate/node`): nothing of a link is stored, and `next.redirect` of a payment awaiting card
   * data is made when it is shown. Default none: a random token is stored with the payment (one
   * instance, development; its links are in database dumps, the outbox and stored answers).
   */
  readonly pageTokens?: PageTokens;
  /** Where outbox events are delivered by `deliverEvents` and the background worker. */
  readonly events?: EventSink;
  /** Where the engine logs (pino-style); default silent. Its throws are swallowed. */
  readonly logger?: Logger;
  /**
   * Where the engine reports spans and metrics (`createOpenTelemetry` of `paystate/otel`); default
   * none. Its throws are swallowed.
   */
  readonly telemetry?: Telemetry;
}

/** What every command module receives. Internal. */
export interface EngineContext {
  readonly ports: PaymentEnginePorts;
  readonly logger: Logger;
  readonly machine: PaymentMachine;
  readonly options: ResolvedEngineOptions;
  readonly inspection: Inspection | undefined;
  /**
   * Payments the sweeper could not handle, set aside with a back-off so that they do not head
   * every batch; one per engine, shared by `sweep()` and the background worker.
   */
  readonly setAside: SweepSetAside;
  /**
   * Given only to the background worker's programs: aborted once `stop()` abandons the work under
   * way. From then on no port call of that work makes another attempt (no retry, no confirming
   * load, no next step), and the wait for an attempt under way ends (see `PortCallPolicy.abandon`).
   * The host's commands have none, so a worker's stop never touches them.
   */
  readonly abandon?: AbortSignal;
  /**
   * The span of the command under way: the parent of its port calls' spans. The engine's own
   * context holds it as `undefined`, so that a command's context, which sets it, has the same
   * shape (one hidden class for every context the engine's functions see).
   */
  readonly span?: TelemetrySpan | undefined;
}

/**
 * What every port call of this context carries: its trace (logged at debug level; none when debug
 * is off), its span (`telemetry`, none without), and, in the background worker, the signal that
 * abandons it once `stop()` gives up waiting (`abandon`).
 */
export function traced(
  ctx: EngineContext,
  port: string,
  fields?: Record<string, unknown>,
): { trace?: PortTrace; abandon?: AbortSignal; telemetry?: PortTelemetry } {
  const abandon = ctx.abandon !== undefined ? { abandon: ctx.abandon } : {};
  const spans = spanned(ctx, port, fields);
  if (!logsAt(ctx.logger, 'debug')) return { ...abandon, ...spans };
  return {
    trace: { port, logger: ctx.logger, clock: ctx.ports.clock, ...(fields !== undefined ? { fields } : {}) },
    ...abandon,
    ...spans,
  };
}

/**
 * A port call's span only, without the debug trace of `traced` (for calls that log none): its
 * name, the command's span as parent and the payment of `fields` (an engine-made id).
 */
export function spanned(
  ctx: EngineContext,
  name: string,
  fields?: Record<string, unknown>,
): { telemetry?: PortTelemetry } {
  const telemetry = telemetryOf(ctx.ports.telemetry);
  if (telemetry === undefined) return {};
  const paymentId = fields?.['paymentId'];
  return {
    telemetry: { telemetry, name, parent: ctx.span, paymentId: typeof paymentId === 'string' ? paymentId : undefined },
  };
}
