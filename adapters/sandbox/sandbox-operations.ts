import { ok, type Result } from 'neverthrow';
import type {
  Acquirer,
  AcquirerError,
  OperationInquiryOutcome,
  OperationOutcome,
  OperationRequest,
} from '../../src/ports/acquirer.js';
import { afterLatency } from './latency.js';

/** The acquirer's capture, cancel and refund methods, with their inquiries. */
export type SandboxOperationMethods = Pick<
  Acquirer,
  'capture' | 'inquireCapture' | 'cancel' | 'inquireCancel' | 'refund' | 'inquireRefund'
>;

/**
 * A minimal sandbox for captures, cancels and refunds: every operation is approved with a
 * reference of its own, once per operation id (a repeated id gets the first answer), in this
 * process's memory; inquiries answer what was decided, `not_found` for an unknown id.
 */
export function createSandboxOperations(latencyMs: number): SandboxOperationMethods {
  const decided = new Map<string, OperationOutcome>();
  let count = 0;

  const act = (request: OperationRequest, prefix: string): Result<OperationOutcome, AcquirerError> => {
    let outcome = decided.get(request.operationId);
    if (outcome === undefined) {
      count += 1;
      outcome = Object.freeze({ kind: 'succeeded', reference: `${prefix}${String(count).padStart(10, '0')}` });
      decided.set(request.operationId, outcome);
    }
    return ok(outcome);
  };
  const inquire = (operationId: string): Result<OperationInquiryOutcome, AcquirerError> =>
    ok(decided.get(operationId) ?? { kind: 'not_found' });

  return {
    capture: (request) => afterLatency(latencyMs, act(request, 'cap')),
    inquireCapture: (request) => afterLatency(latencyMs, inquire(request.operationId)),
    cancel: (request) => afterLatency(latencyMs, act(request, 'can')),
    inquireCancel: (request) => afterLatency(latencyMs, inquire(request.operationId)),
    refund: (request) => afterLatency(latencyMs, act(request, 'ref')),
    inquireRefund: (request) => afterLatency(latencyMs, inquire(request.operationId)),
  };
}
