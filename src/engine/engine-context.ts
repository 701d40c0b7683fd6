import type { OperationKind } from '../domain/money-operation.js';
import type { OperationMachine } from '../machine/operation-machine.js';
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
}

/** What every command module receives. Internal. */
export interface EngineContext {
  readonly ports: PaymentEnginePorts;
  readonly logger: Logger;
  readonly machine: PaymentMachine;
  /** The lifecycle of each kind of money operation. */
  readonly operationMachines: Readonly<Record<OperationKind, OperationMachine>>;
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
}

/**
 * What every port call of this context carries: its trace (logged at debug level; none when debug
 * is off) and, in the background worker, the signal that abandons it once `stop()` gives up
 * waiting (`abandon`).
 */
export function traced(
  ctx: EngineContext,
  port: string,
  fields?: Record<string, unknown>,
): { trace?: PortTrace; abandon?: AbortSignal } {
  const abandon = ctx.abandon !== undefined ? { abandon: ctx.abandon } : {};
  if (!logsAt(ctx.logger, 'debug')) return abandon;
  return {
    trace: { port, logger: ctx.logger, clock: ctx.ports.clock, ...(fields !== undefined ? { fields } : {}) },
    ...abandon,
  };
}
