import type { FailureReason } from '../../src/domain/failure-reason.js';
import type { CaptureRequest, OperationRequest } from '../../src/ports/acquirer.js';
import type { SandboxAuthorization } from './authorization-store.js';
import type { SandboxOperation, SandboxOperationKind } from './operation-store.js';

/** ISO 8583 response codes the simulated acquirer gives when an operation does not fit what it knows. */
const INVALID_TRANSACTION = '12';
const INVALID_AMOUNT = '13';

const DECLINE_REASON: Readonly<Record<SandboxOperationKind, FailureReason>> = {
  capture: 'capture_declined',
  cancel: 'declined',
  refund: 'refund_declined',
};

/** What the simulated acquirer knows of a payment's money from its authorization and operations so far. */
export interface SandboxBalance {
  /** Succeeded captures; the whole amount of an approved automatic authorization (a sale). */
  readonly captured: number;
  /** Succeeded refunds. */
  readonly refunded: number;
  /** What is still capturable: 0 once canceled, finally captured, or for a sale. */
  readonly capturable: number;
}

const succeeded = (op: SandboxOperation, kind: SandboxOperationKind) =>
  op.kind === kind && op.outcome.kind === 'succeeded';
const sum = (ops: readonly SandboxOperation[]) => ops.reduce((total, op) => total + op.amount, 0);

/** The balance of an approved authorization after `history` (its operations, oldest first). */
export function sandboxBalance(
  authorization: SandboxAuthorization,
  history: readonly SandboxOperation[],
): SandboxBalance {
  const manual = authorization.captureMethod === 'manual';
  const captures = history.filter((op) => succeeded(op, 'capture'));
  const captured = manual ? sum(captures) : authorization.amount;
  const closed = !manual || captures.some((op) => op.final) || history.some((op) => succeeded(op, 'cancel'));
  return {
    captured,
    refunded: sum(history.filter((op) => succeeded(op, 'refund'))),
    capturable: closed ? 0 : authorization.amount - captured,
  };
}

/** A request for an operation of this kind (`final` for captures). */
export type SandboxOperationRequest =
  | { readonly kind: 'capture'; readonly request: CaptureRequest }
  | { readonly kind: 'cancel' | 'refund'; readonly request: OperationRequest };

/**
 * The response code that declines this operation, or null when it fits: an approved authorization
 * of the same currency, a positive amount within what is capturable (capture, cancel) or captured
 * and not yet refunded (refund), then the test card's own behaviour.
 */
function declineCode(
  { kind, request }: SandboxOperationRequest,
  authorization: SandboxAuthorization | null,
  history: readonly SandboxOperation[],
): string | null {
  if (authorization === null || authorization.outcome.kind !== 'approved') return INVALID_TRANSACTION;
  if (authorization.currency !== request.currency) return INVALID_TRANSACTION;
  if (!Number.isSafeInteger(request.amount) || request.amount <= 0) return INVALID_AMOUNT;
  const balance = sandboxBalance(authorization, history);
  if (kind === 'refund') {
    if (balance.refunded + request.amount > balance.captured) return INVALID_AMOUNT;
  } else {
    if (balance.capturable === 0) return INVALID_TRANSACTION;
    if (request.amount > balance.capturable) return INVALID_AMOUNT;
  }
  const behaviour = kind === 'cancel' ? undefined : authorization.operations?.[kind];
  return behaviour?.kind === 'declined' ? behaviour.responseCode : null;
}

/** The record the simulated acquirer keeps for a new operation id, with `reference` when it succeeds. */
export function decideSandboxOperation(
  operation: SandboxOperationRequest,
  authorization: SandboxAuthorization | null,
  history: readonly SandboxOperation[],
  reference: () => string,
): SandboxOperation {
  const { kind, request } = operation;
  const code = declineCode(operation, authorization, history);
  return {
    operationId: request.operationId,
    kind,
    paymentId: request.paymentId,
    amount: request.amount,
    currency: request.currency,
    final: operation.kind === 'capture' ? operation.request.final : false,
    outcome:
      code === null
        ? { kind: 'succeeded', reference: reference() }
        : { kind: 'declined', responseCode: code, reason: DECLINE_REASON[kind] },
  };
}
