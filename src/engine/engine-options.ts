import type { PaymentMachineOptions } from '../machine/payment-machine.js';

/** Tuning of the engine. Every field has a default. */
export interface PaymentEngineOptions extends PaymentMachineOptions {
  /**
   * URL of the hosted payment page for a payment, given its id and its secret page token.
   * Default: `http://localhost:3000/pay/{id}?token={token}`.
   */
  readonly hostedPageUrl?: (payment: { readonly id: string; readonly token: string }) => string;
  /** Time limits of port calls, in milliseconds. */
  readonly timeouts?: {
    readonly acquirerMs?: number;
    readonly threeDSMs?: number;
    readonly storageMs?: number;
    readonly eventSinkMs?: number;
  };
  /** Bounded retries of transient failures (storage, inquiries, event delivery). Default 2. */
  readonly retries?: number;
  /** How many due payments or outbox events one sweeper tick handles at most. Default 100. */
  readonly batchSize?: number;
  /** How many due payments are handled at once in a tick. Default 8. */
  readonly sweepConcurrency?: number;
}

export interface ResolvedEngineOptions {
  readonly hostedPageUrl: (payment: { readonly id: string; readonly token: string }) => string;
  readonly acquirerTimeoutMs: number;
  readonly threeDSTimeoutMs: number;
  readonly storageTimeoutMs: number;
  readonly eventSinkTimeoutMs: number;
  readonly retries: number;
  readonly batchSize: number;
  readonly sweepConcurrency: number;
}

export function resolveEngineOptions(options: PaymentEngineOptions): ResolvedEngineOptions {
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
    sweepConcurrency: options.sweepConcurrency ?? 8,
  };
}
