import type { ResultAsync } from 'neverthrow';
import type { Capture, OperationKind, Refund } from '../domain/money-operation.js';
import type { Payment } from '../domain/payment.js';
import type { PaymentError } from '../errors/payment-error.js';
import { cancelPayment, type CancelPaymentCommand } from './cancel-payment.js';
import { capturePayment, type CapturePaymentCommand } from './capture-payment.js';
import type { EngineContext } from './engine-context.js';
import {
  getOperation,
  listOperations,
  type GetOperationQuery,
  type ListOperationsQuery,
  type OperationList,
} from './query-operations.js';
import { refundPayment, type RefundPaymentCommand } from './refund-payment.js';
import { runCommand } from './run-command.js';

const identity = <T>(value: T): T => value;

/** The engine's commands after authorization: captures, cancels and refunds (docs/http-api.md, Captures). */
export interface MoneyCommands {
  /**
   * Captures (part of) a succeeded manual payment: 201-like answer, the capture. Idempotent by
   * `captureId`: an existing capture is answered as it stands, never made twice (docs/http-api.md, Captures).
   */
  capturePayment(command: CapturePaymentCommand): ResultAsync<Capture, PaymentError>;
  /** Cancels a manual authorization, or a payment still waiting for the cardholder; the payment after it. */
  cancelPayment(command: CancelPaymentCommand): ResultAsync<Payment, PaymentError>;
  /** Refunds (part of) what a payment captured; idempotent by `refundId` like `capturePayment`. */
  refundPayment(command: RefundPaymentCommand): ResultAsync<Refund, PaymentError>;
  /** One capture of a payment of the profile; `not_found` as `getPayment`. */
  getCapture(query: GetOperationQuery): ResultAsync<Capture, PaymentError>;
  /** A payment's captures, oldest first. */
  listCaptures(query: ListOperationsQuery): ResultAsync<OperationList, PaymentError>;
  /** One refund of a payment of the profile; `not_found` as `getPayment`. */
  getRefund(query: GetOperationQuery): ResultAsync<Refund, PaymentError>;
  /** A payment's refunds, oldest first. */
  listRefunds(query: ListOperationsQuery): ResultAsync<OperationList, PaymentError>;
  /**
   * A new operation id (`capture_`, `cancel_` or `refund_` + 32 hex) from the id port, for the
   * commands' `captureId` / `cancelId` / `refundId`: the HTTP API reserves one per `Idempotency-Key`.
   */
  newOperationId(kind: OperationKind): string;
}

/** `MoneyCommands` on the engine's context, each through the command boundary (`runCommand`). */
export function moneyCommands(ctx: EngineContext): MoneyCommands {
  return {
    newOperationId: (kind: OperationKind) => `${kind}_${ctx.ports.ids.hex128()}`,
    capturePayment: (command) =>
      runCommand(
        ctx,
        'capturePayment',
        command,
        () => ({ paymentId: command.paymentId }),
        (run) => capturePayment(run, command),
        identity,
      ),
    cancelPayment: (command) =>
      runCommand(
        ctx,
        'cancelPayment',
        command,
        () => ({ paymentId: command.paymentId }),
        (run) => cancelPayment(run, command),
        identity,
      ),
    refundPayment: (command) =>
      runCommand(
        ctx,
        'refundPayment',
        command,
        () => ({ paymentId: command.paymentId }),
        (run) => refundPayment(run, command),
        identity,
      ),
    getCapture: (query) =>
      runCommand(
        ctx,
        'getCapture',
        query,
        () => ({ paymentId: query.paymentId }),
        (run) => getOperation(run, 'capture', query),
        identity,
      ),
    listCaptures: (query) =>
      runCommand(
        ctx,
        'listCaptures',
        query,
        () => ({ paymentId: query.paymentId }),
        (run) => listOperations(run, 'capture', query),
        identity,
      ),
    getRefund: (query) =>
      runCommand(
        ctx,
        'getRefund',
        query,
        () => ({ paymentId: query.paymentId }),
        (run) => getOperation(run, 'refund', query),
        identity,
      ),
    listRefunds: (query) =>
      runCommand(
        ctx,
        'listRefunds',
        query,
        () => ({ paymentId: query.paymentId }),
        (run) => listOperations(run, 'refund', query),
        identity,
      ),
  };
}
