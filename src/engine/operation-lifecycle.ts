import type { DomainEvent, DomainEventType } from '../domain/domain-event.js';
import { isoTime } from '../domain/iso-time.js';
import type { OperationKind, OperationRecord, PublicOperation } from '../domain/money-operation.js';
import { paymentPath } from '../domain/payment.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import { copyRecord } from '../domain/payment-record.js';
import { createOperationMachine, type OperationMachine, type OperationStep } from '../machine/operation-machine.js';
import type { EngineContext } from './engine-context.js';
import type { PaymentEngineOptions } from './engine-options.js';
import { toPublicPayment } from './to-public-payment.js';

/** One operation machine per kind, with the engine's inquiry policy. */
export function createOperationMachines(options: PaymentEngineOptions): Record<OperationKind, OperationMachine> {
  const policy = {
    ...(options.authorizationStaleAfterMs !== undefined && {
      operationStaleAfterMs: options.authorizationStaleAfterMs,
    }),
    ...(options.inquiryDelaysMs !== undefined && { inquiryDelaysMs: options.inquiryDelaysMs }),
    ...(options.notFoundIsFinalAfterInquiries !== undefined && {
      notFoundIsFinalAfterInquiries: options.notFoundIsFinalAfterInquiries,
    }),
  };
  return {
    capture: createOperationMachine('capture', policy),
    cancel: createOperationMachine('cancel', policy),
    refund: createOperationMachine('refund', policy),
  };
}

/** `capture_`, `cancel_` or `refund_` and 32 lowercase hex digits. */
export function isOperationId(kind: OperationKind, id: string): boolean {
  return new RegExp(`^${kind}_[0-9a-f]{32}$`).test(id);
}

/** The operation with a machine step folded in (not yet versioned: the write does that). */
export function withStep(operation: OperationRecord, step: OperationStep, at: number): OperationRecord {
  const { context } = step;
  return {
    ...operation,
    state: step.state,
    status: context.status,
    failureReason: context.failureReason,
    acquirerReference: context.acquirerReference,
    nextInquiryAt: context.nextInquiryAt,
    inquiryAttempts: context.inquiryAttempts,
    notFoundAnswers: context.notFoundAnswers,
    updatedAt: at,
  };
}

/** The payment with what a new `processing` operation reserves (or, for a cancel, closes). */
export function reserve(payment: PaymentRecord, operation: OperationRecord, at: number): PaymentRecord {
  const next = copyRecord(payment);
  if (operation.kind === 'capture') {
    next.captureReserved += operation.amount;
    if (operation.final) next.captureClosedBy = operation.id;
  } else if (operation.kind === 'cancel') next.captureClosedBy = operation.id;
  else next.refundReserved += operation.amount;
  next.updatedAt = at;
  return next;
}

/**
 * The payment once `operation` is final: a success moves its amount from reserved to done, a
 * failure releases the reservation (and reopens an authorization the operation had closed).
 */
export function settle(payment: PaymentRecord, operation: OperationRecord, at: number): PaymentRecord {
  const next = copyRecord(payment);
  const succeeded = operation.state === 'succeeded';
  if (operation.kind === 'capture') {
    if (succeeded) next.amountCaptured += operation.amount;
    else next.captureReserved -= operation.amount;
  } else if (operation.kind === 'refund') {
    if (succeeded) next.amountRefunded += operation.amount;
    else next.refundReserved -= operation.amount;
  }
  if (!succeeded && next.captureClosedBy === operation.id) next.captureClosedBy = null;
  if (!succeeded && next.captureClosedBy === null && operation.kind !== 'refund') {
    // An authorization that lapsed while the operation was out stays lapsed.
    if (next.authorizationExpiresAt !== null && next.authorizationExpiresAt <= at) next.captureClosedBy = 'expiry';
  }
  next.updatedAt = at;
  return next;
}

/** A capture or refund as the API returns it. */
export function toPublicOperation(operation: OperationRecord): PublicOperation {
  const payment = paymentPath(operation.partnerId, operation.profileId, operation.paymentId);
  const collection = operation.kind === 'refund' ? 'refunds' : 'captures';
  return Object.freeze({
    id: operation.id,
    payment_id: operation.paymentId,
    amount: operation.amount,
    currency: operation.currency,
    state: operation.state,
    ...(operation.state === 'failed' && operation.failureReason !== null
      ? { failure_reason: operation.failureReason }
      : {}),
    ...(operation.reference !== null ? { reference: operation.reference } : {}),
    ...(operation.description !== null ? { description: operation.description } : {}),
    created: isoTime(operation.createdAt),
    _links: Object.freeze({
      self: Object.freeze({ href: `${payment}/${collection}/${operation.id}`, type: 'application/json' as const }),
      payment: Object.freeze({ href: payment, type: 'application/json' as const }),
    }),
  });
}

/** The domain event `type` about `payment` (after the change) and, for captures and refunds, `operation`. */
export function operationEvent(
  ctx: EngineContext,
  type: DomainEventType,
  payment: PaymentRecord,
  operation: OperationRecord | null,
  at: number,
): DomainEvent {
  return Object.freeze({
    id: `evt_${ctx.ports.ids.hex128()}`,
    type,
    occurredAt: isoTime(at),
    paymentId: payment.id,
    partnerId: payment.partnerId,
    profileId: payment.profileId,
    payment: toPublicPayment(payment),
    ...(operation !== null && operation.kind !== 'cancel' ? { operation: toPublicOperation(operation) } : {}),
  });
}

/** What the operation machine needs of a stored operation to take its next event. */
export function lifecycleOf(operation: OperationRecord) {
  return {
    state: operation.state,
    context: {
      status: operation.status,
      failureReason: operation.failureReason,
      acquirerReference: operation.acquirerReference,
      nextInquiryAt: operation.nextInquiryAt,
      inquiryAttempts: operation.inquiryAttempts,
      notFoundAnswers: operation.notFoundAnswers,
    },
  };
}
