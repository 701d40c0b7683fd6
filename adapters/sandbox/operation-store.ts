import { ok } from 'neverthrow';
import type { OperationOutcome } from '../../src/ports/acquirer.js';
import type { PortFailure, PortResult } from '../../src/ports/port-result.js';

/** The operations the simulated acquirer performs after an authorization. */
export type SandboxOperationKind = 'capture' | 'cancel' | 'refund';

/** A capture, cancel or refund the simulated acquirer decided, kept for inquiries and for the amount checks. */
export interface SandboxOperation {
  /** The engine's operation id: the key, one decision per id. */
  readonly operationId: string;
  readonly kind: SandboxOperationKind;
  readonly paymentId: string;
  /** Minor units: captured, voided or refunded. */
  readonly amount: number;
  readonly currency: string;
  /** Captures only: whether it released the rest of the authorization. False for the others. */
  readonly final: boolean;
  /** What the acquirer decided: `succeeded` or `declined`, never `unknown` (`inquire…` reports it). */
  readonly outcome: Exclude<OperationOutcome, { readonly kind: 'unknown' }>;
}

/** What `SandboxOperationStore.keep` answers. */
export interface KeptOperation {
  readonly record: SandboxOperation;
  readonly created: boolean;
}

/**
 * Decides the record to keep for a new operation id from the payment's operations kept so far
 * (oldest first). Pure and synchronous: a store may call it inside a transaction.
 */
export type SandboxOperationDecision = (history: readonly SandboxOperation[]) => SandboxOperation;

/**
 * Where the simulated acquirer keeps its captures, cancels and refunds, so that every instance
 * checks amounts against the same history and any instance answers an inquiry. In memory by
 * default; `createPostgresSandboxStores` (`paystate/postgres`) keeps them in the database.
 */
export interface SandboxOperationStore {
  /**
   * Keeps what `decide` makes of the payment's history under `operationId` (`created: true`), unless one
   * is kept there already (answered, `created: false`); atomic per payment, never deciding twice on one history.
   */
  keep(
    operationId: string,
    paymentId: string,
    decide: SandboxOperationDecision,
  ): PortResult<KeptOperation, PortFailure>;
  /** The operation kept under this id, or null. */
  find(operationId: string): PortResult<SandboxOperation | null, PortFailure>;
}

/** The in-memory `SandboxOperationStore`: one process, answered at once (no microtask). */
export function createMemorySandboxOperationStore(): SandboxOperationStore {
  const byId = new Map<string, SandboxOperation>();
  const byPayment = new Map<string, SandboxOperation[]>();
  return {
    keep(operationId, paymentId, decide) {
      const kept = byId.get(operationId);
      if (kept !== undefined) return ok({ record: kept, created: false });
      const history = byPayment.get(paymentId) ?? [];
      const record = decide([...history]);
      byId.set(operationId, record);
      byPayment.set(paymentId, [...history, record]);
      return ok({ record, created: true });
    },
    find: (operationId) => ok(byId.get(operationId) ?? null),
  };
}
