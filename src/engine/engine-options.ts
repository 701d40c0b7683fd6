import { DEFAULT_PAYMENT_MACHINE_OPTIONS } from '../machine/payment-machine.js';
import type { PaymentMachineOptions } from '../machine/payment-machine.js';
import type { Inspect } from './inspection.js';

/** Tuning of the engine. Every field has a default. */
export interface PaymentEngineOptions extends PaymentMachineOptions {
  /**
   * URL of the hosted payment page for a payment, given its id and its secret page token.
   * Default: `http://localhost:3000/pay/{id}?token={token}`.
   */
  readonly hostedPageUrl?: (payment: { readonly id: string; readonly token: string }) => string;
  /**
   * Time limits of port calls, in milliseconds. A call that has not answered fails as
   * `unavailable` after its limit, and at most an eighth of it later.
   */
  readonly timeouts?: {
    readonly acquirerMs?: number;
    readonly threeDSMs?: number;
    readonly storageMs?: number;
    readonly eventSinkMs?: number;
  };
  /** Bounded retries of transient failures (storage, inquiries, event delivery). Default 2. */
  readonly retries?: number;
  /** How many due payments or outbox events one batch (and one `sweep()` or `deliverEvents()` call) handles at most. Default 100. */
  readonly batchSize?: number;
  /**
   * How many batches one background-worker tick runs back to back while batches come back full,
   * so that a backlog drains faster than one batch per interval. Default 50.
   */
  readonly batchesPerTick?: number;
  /** How many due payments are handled at once in a tick. Default 8. */
  readonly sweepConcurrency?: number;
  /**
   * Back-off of an event the sink refused (after the `retries` of one delivery): it is offered
   * again after `firstDelayMs`, then after twice as long each time, up to `maxDelayMs`, for as
   * long as it is refused. It is never dropped; that payment's later events wait behind it.
   * Defaults: 1000 and 3,600,000 (one hour); `maxDelayMs` may be at most 2^31 - 1 (24.8 days).
   */
  readonly deliveryRetry?: {
    readonly firstDelayMs?: number;
    readonly maxDelayMs?: number;
  };
  /**
   * Receives XState inspection events for every payment step (`@xstate.actor`, `@xstate.event`,
   * `@xstate.action`, `@xstate.snapshot`), as `createActor(machine, { inspect })` would; e.g.
   * `createSkyInspector().inspect` from `@statelyai/inspect`. Each payment is one actor whose
   * `sessionId` is the payment id. Off by default.
   */
  readonly inspect?: Inspect;
}

/** The longest back-off of a refused event: 2^31 - 1 ms, about 24.8 days. */
const MAX_DELAY_MS = 2 ** 31 - 1;

export interface ResolvedEngineOptions {
  readonly hostedPageUrl: (payment: { readonly id: string; readonly token: string }) => string;
  readonly acquirerTimeoutMs: number;
  readonly threeDSTimeoutMs: number;
  readonly storageTimeoutMs: number;
  readonly eventSinkTimeoutMs: number;
  readonly retries: number;
  readonly batchSize: number;
  readonly batchesPerTick: number;
  readonly sweepConcurrency: number;
  readonly deliveryFirstDelayMs: number;
  readonly deliveryMaxDelayMs: number;
}

/**
 * Resolves defaults and refuses settings that would break the at-most-once argument: an
 * authorization is inquired about once `authorizationStaleAfterMs` has passed since its intent
 * was stored, so the intent commit (with its retries) and the acquirer call must end well before.
 */
export function resolveEngineOptions(options: PaymentEngineOptions): ResolvedEngineOptions {
  const resolved = resolveDefaults(options);
  const { deliveryFirstDelayMs: first, deliveryMaxDelayMs: max } = resolved;
  if (!Number.isSafeInteger(first) || first < 1 || !Number.isSafeInteger(max) || max < first || max > MAX_DELAY_MS) {
    throw new RangeError(
      `deliveryRetry needs whole milliseconds with 1 <= firstDelayMs <= maxDelayMs <= ${MAX_DELAY_MS} ` +
        `(got ${first} and ${max})`,
    );
  }
  const staleAfter = options.authorizationStaleAfterMs ?? DEFAULT_PAYMENT_MACHINE_OPTIONS.authorizationStaleAfterMs;
  const worstCase = (resolved.retries + 1) * resolved.storageTimeoutMs + resolved.acquirerTimeoutMs;
  if (staleAfter < worstCase * 1.5) {
    throw new RangeError(
      `authorizationStaleAfterMs (${staleAfter} ms) must be at least 1.5 x the longest an authorization can take ` +
        `((retries + 1) x storage time-out + acquirer time-out = ${worstCase} ms)`,
    );
  }
  return resolved;
}

function resolveDefaults(options: PaymentEngineOptions): ResolvedEngineOptions {
  return {
    hostedPageUrl:
      options.hostedPageUrl ??
      ((payment) => `http://localhost:3000/pay/${payment.id}?token=${encodeURIComponent(payment.token)}`),
    acquirerTimeoutMs: options.timeouts?.acquirerMs ?? 30_000,
    threeDSTimeoutMs: options.timeouts?.threeDSMs ?? 10_000,
    storageTimeoutMs: options.timeouts?.storageMs ?? 10_000,
    eventSinkTimeoutMs: options.timeouts?.eventSinkMs ?? 10_000,
    retries: options.retries ?? 2,
    batchSize: options.batchSize ?? 100,
    batchesPerTick: options.batchesPerTick ?? 50,
    sweepConcurrency: options.sweepConcurrency ?? 8,
    deliveryFirstDelayMs: options.deliveryRetry?.firstDelayMs ?? 1000,
    deliveryMaxDelayMs: options.deliveryRetry?.maxDelayMs ?? 3_600_000,
  };
}
