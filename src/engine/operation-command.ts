import { err, ok, type Result } from 'neverthrow';
import type { OperationKind, OperationRecord } from '../domain/money-operation.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import { paymentError, type PaymentError } from '../errors/payment-error.js';
import { startOperation, stepOperation } from '../machine/operation-machine.js';
import type { EngineContext } from './engine-context.js';
import { loadPayment } from './load-payment.js';
import { isOperationId, lifecycleOf, reserve, withStep } from './operation-lifecycle.js';
import { callAcquirer, insertOperation, loadOperation, loadPaymentRecord, storeStep } from './operation-writes.js';
import type { Outcome } from './outcome.js';

/** Which payment a capture, cancel or refund command acts on, and who may see it. */
export interface OperationTarget {
  /** The payment. */
  readonly paymentId: string;
  /** The profile it must belong to (else `not_found`); the caller checks that the client holds it. */
  readonly profileId: string;
  /** When given, the payment must also belong to this partner. */
  readonly partnerId?: string;
  /** The id of the request this command serves: on every log line, nowhere else (as for payments). */
  readonly requestId?: string;
}

/** What a new operation will move, decided on the payment as it stands. */
export interface OperationPlan {
  readonly amount: number;
  readonly final: boolean;
  readonly reference: string | null;
  readonly description: string | null;
}

/** The payment of `target`, or `not_found` when it is another profile's or partner's. */
export async function loadTargetPayment(ctx: EngineContext, target: OperationTarget): Outcome<PaymentRecord> {
  const loaded = await loadPayment(ctx, target.paymentId);
  if (loaded.isErr()) return err(loaded.error);
  const record = loaded.value;
  const owned =
    record.profileId === target.profileId && (target.partnerId === undefined || record.partnerId === target.partnerId);
  return owned ? ok(record) : err(paymentError.notFound('Payment'));
}

/** An operation id a caller gave: `validation_failed` unless it is `{kind}_` and 32 hex digits. */
export function checkOperationId(kind: OperationKind, name: string, id: string | undefined): PaymentError | null {
  if (id === undefined || isOperationId(kind, id)) return null;
  return paymentError.validation([
    { path: name, message: `Must be ${kind}_ followed by 32 lowercase hexadecimal digits` },
  ]);
}

/** The operation `id` when it exists: it must be of `kind` and of the target's payment. */
export async function existingOperation(
  ctx: EngineContext,
  kind: OperationKind,
  id: string,
  paymentId: string,
): Outcome<OperationRecord | null> {
  const found = await loadOperation(ctx, id);
  if (found.isErr() || found.value === null) return found;
  return found.value.kind === kind && found.value.paymentId === paymentId
    ? found
    : err(paymentError.validation([{ path: `${kind}Id`, message: `Names a ${kind} of another payment` }]));
}

const MAX_RESERVE_ATTEMPTS = 8;

/**
 * Runs a new operation: plans it on the payment, stores it `processing` with the reservation in one
 * versioned write (another writer first: the payment is read again and the plan redone; the same
 * id stored first: that operation is the answer), asks the acquirer once, stores the outcome.
 */
export async function runNewOperation(
  ctx: EngineContext,
  kind: OperationKind,
  id: string,
  given: PaymentRecord,
  plan: (payment: PaymentRecord) => Result<OperationPlan, PaymentError>,
): Outcome<OperationRecord> {
  const machine = ctx.operationMachines[kind];
  let payment = given;
  for (let attempt = 0; attempt < MAX_RESERVE_ATTEMPTS; attempt += 1) {
    const planned = plan(payment);
    if (planned.isErr()) return err(planned.error);
    const at = ctx.ports.clock.now();
    const step = startOperation(machine, at);
    const draft: OperationRecord = withStep(
      {
        id,
        kind,
        paymentId: payment.id,
        partnerId: payment.partnerId,
        profileId: payment.profileId,
        currency: payment.currency,
        ...planned.value,
        state: 'processing',
        failureReason: null,
        acquirerReference: null,
        status: null,
        nextInquiryAt: null,
        inquiryAttempts: 0,
        notFoundAnswers: 0,
        version: 0,
        writeId: null,
        createdAt: at,
        updatedAt: at,
      },
      step,
      at,
    );
    const inserted = await insertOperation(ctx, draft, reserve(payment, draft, at));
    if (inserted.isErr()) return err(inserted.error);
    if (inserted.value.result === 'stored') {
      const stored = inserted.value.operation;
      const event = await callAcquirer(ctx, stored, payment, () => ctx.ports.clock.now());
      const answered = stepOperation(machine, lifecycleOf(stored), event);
      return storeStep(ctx, stored, answered, event.at);
    }
    const same = await existingOperation(ctx, kind, id, payment.id);
    if (same.isErr() || same.value !== null) return same.isErr() ? err(same.error) : ok(same.value as OperationRecord);
    const reloaded = await loadPaymentRecord(ctx, payment.id);
    if (reloaded.isErr()) return err(reloaded.error);
    if (reloaded.value === null) return err(paymentError.notFound('Payment'));
    payment = reloaded.value;
  }
  return err(paymentError.conflict());
}
