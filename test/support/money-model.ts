import { expect } from 'vitest';
import { amountCapturable } from '../../src/domain/money-counters.js';
import type { OperationRecord } from '../../src/domain/money-operation.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import { makeEngineHarness, type EngineHarness } from './engine-harness.js';
import { PROFILE, VISA } from './engine-helpers.js';
import { injectMoneyFaults, type MoneyKind } from './faulty-money-acquirer.js';

/** What the model knows of one payment: how it was made and the operations asked for on it. */
export interface ModelPayment {
  readonly id: string;
  readonly amount: number;
  readonly hosted: boolean;
  /** The first final state seen; never to change after. */
  final: string | null;
}

/** What the model knows of one operation: its command (for retries) and when it was first seen final. */
export interface ModelOperation {
  readonly id: string;
  readonly kind: MoneyKind;
  readonly paymentId: string;
  readonly body: Record<string, unknown> | undefined;
  /** The state first seen final, and the step it was seen at. */
  final: { state: string; step: number } | null;
}

const FINAL_STATES: readonly string[] = ['succeeded', 'failed', 'expired'];

const OPERATION_EVENTS: Record<string, { kind: MoneyKind; state: string } | undefined> = {
  'payment.captured': { kind: 'capture', state: 'succeeded' },
  'payment.capture_failed': { kind: 'capture', state: 'failed' },
  'refund.succeeded': { kind: 'refund', state: 'succeeded' },
  'refund.failed': { kind: 'refund', state: 'failed' },
};

/** An engine on memory adapters with fault injection, and the model the checks compare it with. */
export function makeModelWorld(seed: number) {
  const h = makeEngineHarness({ notFoundIsFinalAfterInquiries: 2 }, seed);
  const faults = injectMoneyFaults(h.acquirer);
  return { h, ...faults, payments: [] as ModelPayment[], operations: new Map<string, ModelOperation>(), step: 0 };
}

export type ModelWorld = ReturnType<typeof makeModelWorld>;

async function operationsOf(h: EngineHarness, paymentId: string): Promise<readonly OperationRecord[]> {
  return (await h.repository.listOperations({ paymentId, limit: 1_000 }))._unsafeUnwrap().items;
}

const sum = (operations: readonly OperationRecord[], keep: (op: OperationRecord) => boolean) =>
  operations.filter(keep).reduce((total, op) => total + op.amount, 0);

function checkCounters(record: PaymentRecord, operations: readonly OperationRecord[]): void {
  const captures = operations.filter((op) => op.kind === 'capture');
  const refunds = operations.filter((op) => op.kind === 'refund');
  const sale = record.captureMethod === 'automatic' && record.state === 'succeeded' ? record.amount : 0;
  // Counters agree with the operation records.
  expect(record.captureReserved).toBe(sale + sum(captures, (op) => op.state !== 'failed'));
  expect(record.amountCaptured).toBe(sale + sum(captures, (op) => op.state === 'succeeded'));
  expect(record.refundReserved).toBe(sum(refunds, (op) => op.state !== 'failed'));
  expect(record.amountRefunded).toBe(sum(refunds, (op) => op.state === 'succeeded'));
  // Captures not failed ≤ amount; refunds not failed ≤ amount_captured.
  expect(record.captureReserved).toBeLessThanOrEqual(record.amount);
  expect(record.refundReserved).toBeLessThanOrEqual(record.amountCaptured);
  if (record.captureMethod === 'automatic') expect(captures).toHaveLength(0);
  if (record.state !== 'succeeded') expect(captures.length + refunds.length).toBe(0);
  // What closed the authorization is an operation not failed, or expiry; one cancel not failed at most.
  const closer = operations.find((op) => op.id === record.captureClosedBy);
  if (record.captureClosedBy !== null && record.captureClosedBy !== 'expiry') expect(closer?.state).not.toBe('failed');
  expect(operations.filter((op) => op.kind === 'cancel' && op.state !== 'failed').length).toBeLessThanOrEqual(1);
}

/** Checks every invariant on every payment of the world, after step `world.step`. */
export async function checkInvariants(world: ModelWorld): Promise<void> {
  const { h } = world;
  expect((await h.engine.deliverEvents()).isOk()).toBe(true);
  const events = h.events.events();
  const allOperations: OperationRecord[] = [];
  for (const payment of world.payments) {
    const record = (await h.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
    const view = (await h.engine.getPayment({ paymentId: payment.id, profileId: PROFILE }))._unsafeUnwrap();
    const operations = await operationsOf(h, payment.id);
    allOperations.push(...operations);
    // Final payment states never change.
    if (payment.final !== null) expect(view.state).toBe(payment.final);
    else if (FINAL_STATES.includes(view.state)) payment.final = view.state;
    checkCounters(record, operations);
    expect(view.amount_capturable).toBe(amountCapturable(record));
    expect(view.amount_captured).toBe(record.amountCaptured);
    expect(view.amount_refunded).toBe(record.amountRefunded);

    for (const op of operations) {
      const known = world.operations.get(op.id);
      expect(known?.paymentId).toBe(payment.id);
      // At most one acquirer call per operation id.
      expect(world.calls.get(op.id) ?? 0).toBeLessThanOrEqual(1);
      if (known === undefined) continue;
      // Final operation states never change.
      if (known.final !== null) expect(op.state).toBe(known.final.state);
      else if (op.state !== 'processing') known.final = { state: op.state, step: world.step };
    }

    // Events: one per final capture or refund, of its state's type, none while processing, in order.
    const mine = events.filter((event) => event.paymentId === payment.id);
    const operationEvents = mine.filter((event) => OPERATION_EVENTS[event.type] !== undefined);
    for (const op of operations.filter((o) => o.kind !== 'cancel')) {
      const about = operationEvents.filter((event) => event.operation?.id === op.id);
      if (op.state === 'processing') expect(about).toHaveLength(0);
      else expect(about.map((event) => OPERATION_EVENTS[event.type])).toEqual([{ kind: op.kind, state: op.state }]);
    }
    expect(operationEvents.every((event) => operations.some((op) => op.id === event.operation?.id))).toBe(true);
    const steps = operationEvents.map((event) => world.operations.get(event.operation?.id ?? '')?.final?.step ?? -1);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    const canceled = mine.filter((event) => event.type === 'payment.canceled').length;
    const cancels = operations.filter((op) => op.kind === 'cancel' && op.state === 'succeeded').length;
    expect(canceled).toBe(cancels + (record.failureReason === 'canceled' ? 1 : 0));
    const expired = mine.filter((event) => event.type === 'payment.authorization_expired').length;
    expect(expired).toBe(record.captureClosedBy === 'expiry' ? 1 : 0);
  }

  // No card number or CVC in any record, operation, event or log line.
  const dump = JSON.stringify([h.repository.snapshot(), allOperations, events, h.logs]);
  expect(dump).not.toContain(VISA);
  expect(dump).not.toMatch(/"(cvc|number)"/);
}
