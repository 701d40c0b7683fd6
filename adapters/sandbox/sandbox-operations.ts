import { err, ok, type Result } from 'neverthrow';
import type {
  Acquirer,
  AcquirerError,
  OperationInquiry,
  OperationInquiryOutcome,
  OperationOutcome,
} from '../../src/ports/acquirer.js';
import type { PortResult } from '../../src/ports/port-result.js';
import type { SandboxAuthorizationStore } from './authorization-store.js';
import { chain, type Eventually } from './chain.js';
import { decideSandboxOperation, type SandboxOperationRequest } from './operation-decision.js';
import type { SandboxOperation, SandboxOperationKind, SandboxOperationStore } from './operation-store.js';
import { answerWith, unavailable, type SandboxFault } from './sandbox-fault.js';

/** A fault for the next call of one kind (`failNextOperation`). */
export type SandboxOperationFault = SandboxFault;

/** The acquirer's capture, cancel and refund methods, with their inquiries. */
export type SandboxOperationMethods = Pick<
  Acquirer,
  'capture' | 'inquireCapture' | 'cancel' | 'inquireCancel' | 'refund' | 'inquireRefund'
>;

/** The operation methods and what tests need to look at and break them. */
export interface SandboxOperations extends SandboxOperationMethods {
  /** How many times capture, cancel or refund was called with this operation id (failed calls too). */
  operationCalls(operationId: string): number;
  /** The operations this instance decided, in order (one per operation id). */
  operations(): readonly SandboxOperation[];
  /** Makes the next call of `kind` fail this way; calls queue up, one fault per call. */
  failNextOperation(kind: SandboxOperationKind, fault: SandboxOperationFault): void;
  /** Makes the next inquiry of `kind` (`inquireCapture`, …) fail with `unavailable`; calls queue up. */
  failNextOperationInquiry(kind: SandboxOperationKind): void;
}

/** What `createSandboxOperations` works with: the acquirer's stores, references and latency. */
export interface SandboxOperationsDependencies {
  readonly authorizations: SandboxAuthorizationStore;
  readonly operations: SandboxOperationStore;
  /** The reference of a succeeded operation (a retrieval reference number, like an authorization's). */
  readonly reference: () => string;
  readonly latencyMs: number;
}

const TIMEOUT_DETAIL = 'Acquirer time-out: no answer within 30 s; the outcome is unknown, inquire later';

/**
 * The simulated acquirer's captures, cancels and refunds: each operation id decided once
 * (`decideSandboxOperation`), a repeated id answering the kept outcome, as inquiries do (or `not_found`).
 */
export function createSandboxOperations(deps: SandboxOperationsDependencies): SandboxOperations {
  const { latencyMs } = deps;
  const decided: SandboxOperation[] = [];
  const calls = new Map<string, number>();
  const faults: Record<SandboxOperationKind, SandboxOperationFault[]> = { capture: [], cancel: [], refund: [] };
  const inquiryFaults: Record<SandboxOperationKind, number> = { capture: 0, cancel: 0, refund: 0 };

  /** Decides (once per operation id) and returns what this call answers. */
  function process(operation: SandboxOperationRequest): Eventually<Result<OperationOutcome, AcquirerError>> {
    const { request } = operation;
    return chain(deps.authorizations.find(request.paymentId), (found) => {
      if (found.isErr()) return err(unavailable(`The acquirer could not look the payment up: ${found.error.message}`));
      const authorization = found.value;
      const decide = (history: readonly SandboxOperation[]) =>
        decideSandboxOperation(operation, authorization, history, deps.reference);
      return chain(deps.operations.keep(request.operationId, request.paymentId, decide), (kept) => {
        if (kept.isErr()) {
          return err(unavailable(`The acquirer could not record the ${operation.kind}: ${kept.error.message}`));
        }
        const { record, created } = kept.value;
        if (!created) return ok(record.outcome);
        decided.push(record);
        const behaviour = operation.kind === 'cancel' ? undefined : authorization?.operations?.[operation.kind];
        const timesOut = behaviour?.kind === 'timeout_then_succeeded' && record.outcome.kind === 'succeeded';
        return ok(timesOut ? { kind: 'unknown', detail: TIMEOUT_DETAIL } : record.outcome);
      });
    });
  }

  function act(operation: SandboxOperationRequest): PortResult<OperationOutcome, AcquirerError> {
    const { operationId } = operation.request;
    calls.set(operationId, (calls.get(operationId) ?? 0) + 1);
    return answerWith(faults[operation.kind].shift(), latencyMs, () => process(operation));
  }

  function inquire(
    kind: SandboxOperationKind,
    { operationId }: OperationInquiry,
  ): PortResult<OperationInquiryOutcome, AcquirerError> {
    const fault = inquiryFaults[kind] > 0 ? 'unavailable' : undefined;
    if (fault !== undefined) inquiryFaults[kind] -= 1;
    return answerWith(fault, latencyMs, () =>
      chain(deps.operations.find(operationId), (found): Result<OperationInquiryOutcome, AcquirerError> => {
        if (found.isErr())
          return err(unavailable(`The acquirer could not look the ${kind} up: ${found.error.message}`));
        // An id kept for another kind of operation is not this kind's.
        return ok(found.value?.kind === kind ? found.value.outcome : { kind: 'not_found' });
      }),
    );
  }

  return {
    capture: (request) => act({ kind: 'capture', request }),
    inquireCapture: (request) => inquire('capture', request),
    cancel: (request) => act({ kind: 'cancel', request }),
    inquireCancel: (request) => inquire('cancel', request),
    refund: (request) => act({ kind: 'refund', request }),
    inquireRefund: (request) => inquire('refund', request),
    operationCalls: (operationId) => calls.get(operationId) ?? 0,
    operations: () => [...decided],
    failNextOperation(kind, fault) {
      faults[kind].push(fault);
    },
    failNextOperationInquiry(kind) {
      inquiryFaults[kind] += 1;
    },
  };
}
