import { err, ok } from 'neverthrow';
import { deepFreeze } from '../domain/immutable.js';
import { FAILURE_REASONS, type FailureReason } from '../domain/failure-reason.js';
import type { OperationRecord } from '../domain/money-operation.js';
import type { PaymentRecord } from '../domain/payment-record.js';
import { copyRecord } from '../domain/payment-record.js';
import { paymentError } from '../errors/payment-error.js';
import type { OperationMachineEvent, OperationInquiryAnswer, OperationStep } from '../machine/operation-machine.js';
import type { OperationInquiryOutcome, OperationOutcome, OperationRequest } from '../ports/acquirer.js';
import type { EngineContext } from './engine-context.js';
import { traced } from './engine-context.js';
import { operationEvent, settle, withStep } from './operation-lifecycle.js';
import type { Outcome } from './outcome.js';
import { awaitPort, toPaymentError } from './run-port.js';

const storage = (ctx: EngineContext, port: string, fields: Record<string, unknown>) => ({
  timeoutMs: ctx.options.storageTimeoutMs,
  retries: ctx.options.retries,
  ...traced(ctx, port, fields),
});

/** The stored operation `id`, or null. */
export async function loadOperation(ctx: EngineContext, id: string): Outcome<OperationRecord | null> {
  const loaded = await awaitPort(() => ctx.ports.repository.loadOperation(id), {
    ...storage(ctx, 'repository.loadOperation', { operationId: id }),
    retryTimeouts: true,
  });
  return loaded.isErr() ? err(toPaymentError('payment storage')(loaded.error)) : ok(loaded.value);
}

/** The stored payment `id`, or null. */
export async function loadPaymentRecord(ctx: EngineContext, id: string): Outcome<PaymentRecord | null> {
  const loaded = await awaitPort(() => ctx.ports.repository.load(id), {
    ...storage(ctx, 'repository.load', { paymentId: id }),
    retryTimeouts: true,
  });
  return loaded.isErr() ? err(toPaymentError('payment storage')(loaded.error)) : ok(loaded.value);
}

/** `record` as the next stored version, with a new write id. */
function nextPayment(ctx: EngineContext, record: PaymentRecord): PaymentRecord {
  const draft = copyRecord(record);
  draft.version = record.version + 1;
  draft.writeId = `wr_${ctx.ports.ids.hex128()}`;
  return deepFreeze(draft);
}

function nextOperation(ctx: EngineContext, operation: OperationRecord, version: number): OperationRecord {
  return deepFreeze({ ...operation, version, writeId: `wr_${ctx.ports.ids.hex128()}` });
}

/**
 * One atomic write of an operation, its payment and events (`insertOperation` / `updateOperation`).
 * `conflict` when another writer won (nothing written); a failure whose outcome is unknown is read
 * back: this write's `writeId` on the stored operation means it landed.
 */
async function write(
  ctx: EngineContext,
  mode: 'insert' | 'update',
  operation: OperationRecord,
  payment: PaymentRecord | null,
  events: ReturnType<typeof operationEvent>[],
): Outcome<'stored' | 'conflict'> {
  const { repository } = ctx.ports;
  const input = { operation, payment, events: Object.freeze(events) };
  const written = await awaitPort(
    () => (mode === 'insert' ? repository.insertOperation(input) : repository.updateOperation(input)),
    storage(ctx, `repository.${mode}Operation`, { operationId: operation.id, paymentId: operation.paymentId }),
  );
  if (written.isOk()) return ok('stored');
  if (written.error.kind === 'port' && written.error.error.code === 'conflict') {
    const stored = await loadOperation(ctx, operation.id);
    if (stored.isOk() && stored.value?.writeId === operation.writeId) return ok('stored');
    return ok('conflict');
  }
  const stored = await loadOperation(ctx, operation.id);
  if (stored.isOk() && stored.value?.writeId === operation.writeId) return ok('stored');
  const failed = toPaymentError('payment storage')(written.error);
  return err(
    stored.isErr() && failed.code === 'unavailable' ? paymentError.unavailable(failed.message, 'unknown') : failed,
  );
}

/** Stores a new `processing` operation with the payment's reservation, in one versioned write. */
export async function insertOperation(
  ctx: EngineContext,
  operation: OperationRecord,
  reserved: PaymentRecord,
): Outcome<{ readonly result: 'stored' | 'conflict'; readonly operation: OperationRecord }> {
  const stored = nextOperation(ctx, operation, 1);
  const written = await write(ctx, 'insert', stored, nextPayment(ctx, reserved), []);
  return written.isErr() ? err(written.error) : ok({ result: written.value, operation: stored });
}

const MAX_SETTLE_ATTEMPTS = 8;

/**
 * Stores a step of a stored operation: when it is final, with the payment settled (`settle`) and
 * the step's events, in one write; a concurrent change of the payment is read again and the
 * settlement redone. Answers the operation as stored (another writer's, if one settled it first).
 */
export async function storeStep(
  ctx: EngineContext,
  operation: OperationRecord,
  step: OperationStep,
  at: number,
): Outcome<OperationRecord> {
  let current = operation;
  for (let attempt = 0; attempt < MAX_SETTLE_ATTEMPTS; attempt += 1) {
    const next = nextOperation(ctx, withStep(current, step, at), current.version + 1);
    let payment: PaymentRecord | null = null;
    let lapsed = false;
    if (step.state !== 'processing') {
      const loaded = await loadPaymentRecord(ctx, current.paymentId);
      if (loaded.isErr()) return err(loaded.error);
      if (loaded.value === null) return err(paymentError.internal('The payment of an operation is gone'));
      payment = nextPayment(ctx, settle(loaded.value, next, at));
      // A failed operation that reopens a lapsed authorization closes it by expiry: say so, as the sweeper would.
      lapsed = loaded.value.captureClosedBy !== 'expiry' && payment.captureClosedBy === 'expiry';
    }
    const shown = payment;
    const events =
      shown === null
        ? []
        : [
            ...step.events.map((type) => operationEvent(ctx, type, shown, next, at)),
            ...(lapsed ? [operationEvent(ctx, 'payment.authorization_expired', shown, null, at)] : []),
          ];
    const written = await write(ctx, 'update', next, payment, events);
    if (written.isErr()) return err(written.error);
    if (written.value === 'stored') return ok(next);
    const reloaded = await loadOperation(ctx, current.id);
    if (reloaded.isErr()) return err(reloaded.error);
    if (reloaded.value === null) return err(paymentError.internal('A stored operation is gone'));
    // Another writer (the sweeper, a retry) moved the operation on: its version stands.
    if (reloaded.value.version !== current.version) return ok(reloaded.value);
    current = reloaded.value;
  }
  return err(paymentError.conflict());
}

const REFERENCE = /^[A-Za-z0-9_-]{1,32}$/;
const RESPONSE_CODE = /^[A-Za-z0-9]{2}$/;
const isFailureReason = (value: unknown): value is FailureReason =>
  typeof value === 'string' && (FAILURE_REASONS as readonly string[]).includes(value);

/**
 * An acquirer's answer as the machine takes it; a malformed one (checked as docs/ports.md says)
 * is `null`: an unknown outcome, logged without its values.
 */
export function checkOperationAnswer(
  ctx: EngineContext,
  operationId: string,
  answer: OperationInquiryOutcome,
): OperationInquiryAnswer | null {
  const value = answer as { kind?: unknown; reference?: unknown; responseCode?: unknown; reason?: unknown };
  if (typeof value !== 'object' || value === null) return null;
  if (value.kind === 'succeeded' && typeof value.reference === 'string' && REFERENCE.test(value.reference)) {
    return { kind: 'succeeded', reference: value.reference };
  }
  if (value.kind === 'declined' && typeof value.responseCode === 'string' && RESPONSE_CODE.test(value.responseCode)) {
    return { kind: 'declined', reason: isFailureReason(value.reason) ? value.reason : 'processing_error' };
  }
  if (value.kind === 'not_found') return { kind: 'not_found' };
  if (value.kind !== 'unknown') ctx.logger.error({ operationId }, 'acquirer answered a malformed operation outcome');
  return null;
}

/** Asks the acquirer, once, to do `operation`; any failure or malformed answer is an unknown outcome. */
export async function callAcquirer(
  ctx: EngineContext,
  operation: OperationRecord,
  payment: PaymentRecord,
  at: () => number,
): Promise<OperationMachineEvent> {
  const { acquirer } = ctx.ports;
  const request: OperationRequest = {
    operationId: operation.id,
    paymentId: operation.paymentId,
    profileId: operation.profileId,
    amount: operation.amount,
    currency: operation.currency,
    authorization: {
      rrn: payment.authorization?.rrn ?? '',
      ...(payment.authorization?.networkTransactionId !== undefined && {
        networkTransactionId: payment.authorization.networkTransactionId,
      }),
    },
  };
  const answer = await awaitPort<OperationOutcome, { code: 'unavailable'; message: string; retryable: boolean }>(
    () =>
      operation.kind === 'capture'
        ? acquirer.capture({ ...request, final: operation.final })
        : operation.kind === 'cancel'
          ? acquirer.cancel(request)
          : acquirer.refund(request),
    {
      timeoutMs: ctx.options.acquirerTimeoutMs,
      ...traced(ctx, `acquirer.${operation.kind}`, { operationId: operation.id }),
    },
  );
  const checked = answer.isOk() ? checkOperationAnswer(ctx, operation.id, answer.value) : null;
  if (checked?.kind === 'succeeded') return { type: 'operation.succeeded', at: at(), reference: checked.reference };
  if (checked?.kind === 'declined') return { type: 'operation.declined', at: at(), reason: checked.reason };
  return { type: 'operation.unknown', at: at() };
}
