import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Payment } from '../../src/index.js';
import { type EngineHarness, makeEngineHarness } from '../support/engine-harness.js';
import { PROFILE, VISA } from '../support/engine-helpers.js';
import { authorized, current } from '../support/money-helpers.js';

// decisions.md section 8, as a model test: random sequences of captures, cancels, refunds,
// retries with the same id, concurrent pairs, acquirer faults, sweeps and clock jumps on one
// payment. After every step the amounts hold; at the end every operation is settled, the acquirer
// heard of each operation id at most once, the events match the operations, and no card number
// is anywhere.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const RUNS = 300;

type Op = { readonly id: string; readonly amount: number; readonly state: string };
type Step =
  | { readonly kind: 'capture'; readonly amount: number | undefined; readonly final: boolean; readonly retry: boolean }
  | { readonly kind: 'refund'; readonly amount: number | undefined; readonly retry: boolean }
  | { readonly kind: 'cancel' }
  | {
      readonly kind: 'fault';
      readonly on: 'capture' | 'refund' | 'cancel';
      readonly fault: 'unavailable' | 'answer_lost';
    }
  | { readonly kind: 'sweep'; readonly advanceMs: number }
  | { readonly kind: 'pair'; readonly first: Step; readonly second: Step };

const amountArb = fc.option(fc.integer({ min: 1, max: 12_000 }), { nil: undefined });
const single = fc.oneof(
  fc.record({ kind: fc.constant('capture' as const), amount: amountArb, final: fc.boolean(), retry: fc.boolean() }),
  fc.record({ kind: fc.constant('refund' as const), amount: amountArb, retry: fc.boolean() }),
  fc.constant({ kind: 'cancel' as const }),
  fc.record({
    kind: fc.constant('fault' as const),
    on: fc.constantFrom('capture' as const, 'refund' as const, 'cancel' as const),
    fault: fc.constantFrom('unavailable' as const, 'answer_lost' as const),
  }),
  fc.record({
    kind: fc.constant('sweep' as const),
    advanceMs: fc.constantFrom(0, MINUTE, 30 * MINUTE, 2 * DAY, 8 * DAY),
  }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: single },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pair' as const), first: single, second: single }) },
);

const strip = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/** Runs one step; a command's answer is checked for retries (same id, same operation). */
async function run(h: EngineHarness, paymentId: string, s: Step): Promise<void> {
  const target = { paymentId, profileId: PROFILE };
  switch (s.kind) {
    case 'capture': {
      const captureId = h.engine.newOperationId('capture');
      const command = { ...target, captureId, body: strip({ amount: s.amount, final: s.final }) };
      const first = await h.engine.capturePayment(command);
      if (s.retry && first.isOk()) {
        expect((await h.engine.capturePayment(command))._unsafeUnwrap().id).toBe(first.value.id);
      }
      return;
    }
    case 'refund': {
      const refundId = h.engine.newOperationId('refund');
      const command = { ...target, refundId, body: strip({ amount: s.amount }) };
      const first = await h.engine.refundPayment(command);
      if (s.retry && first.isOk()) {
        expect((await h.engine.refundPayment(command))._unsafeUnwrap().id).toBe(first.value.id);
      }
      return;
    }
    case 'cancel':
      await h.engine.cancelPayment(target);
      return;
    case 'fault':
      h.acquirer.failNextOperation(s.on, s.fault);
      return;
    case 'sweep':
      h.clock.advance(s.advanceMs);
      await h.engine.sweep();
      return;
    case 'pair':
      await Promise.all([run(h, paymentId, s.first), run(h, paymentId, s.second)]);
  }
}

async function operationsOf(h: EngineHarness, paymentId: string, kind: 'captures' | 'refunds'): Promise<Op[]> {
  const all: Op[] = [];
  let after: string | undefined;
  for (;;) {
    const query = { paymentId, profileId: PROFILE, limit: 100, ...(after !== undefined && { after }) };
    const page = (
      await (kind === 'captures' ? h.engine.listCaptures(query) : h.engine.listRefunds(query))
    )._unsafeUnwrap();
    all.push(...(page.items as unknown as Op[]));
    if (page.next_cursor === undefined) return all;
    after = page.next_cursor;
  }
}

const sum = (ops: readonly Op[], keep: (op: Op) => boolean) =>
  ops.filter(keep).reduce((total, op) => total + op.amount, 0);

/** The invariants of section 8 on what the engine shows now. */
async function checkInvariants(h: EngineHarness, payment: Payment): Promise<{ captures: Op[]; refunds: Op[] }> {
  const now = await current(h, payment.id);
  const captures = await operationsOf(h, payment.id, 'captures');
  const refunds = await operationsOf(h, payment.id, 'refunds');
  expect(now.state).toBe('succeeded');
  const capturesNotFailed = sum(captures, (op) => op.state !== 'failed');
  expect(capturesNotFailed).toBeLessThanOrEqual(payment.amount);
  const captured =
    payment.capture_method === 'automatic' ? payment.amount : sum(captures, (op) => op.state === 'succeeded');
  expect(now.amount_captured).toBe(captured);
  expect(sum(refunds, (op) => op.state !== 'failed')).toBeLessThanOrEqual(now.amount_captured);
  expect(now.amount_refunded).toBe(sum(refunds, (op) => op.state === 'succeeded'));
  expect(now.amount_capturable).toBeLessThanOrEqual(payment.amount - capturesNotFailed);
  expect(now.amount_capturable).toBeGreaterThanOrEqual(0);
  for (const op of [...captures, ...refunds]) expect(h.acquirer.operationCalls(op.id)).toBeLessThanOrEqual(1);
  return { captures, refunds };
}

describe('captures, cancels and refunds: a model test', () => {
  it(`the amounts hold after every step of random sequences, and everything settles (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('manual' as const, 'automatic' as const),
        fc.integer({ min: 100, max: 10_000 }),
        fc.array(step, { minLength: 1, maxLength: 25 }),
        async (method, amount, steps) => {
          const h = makeEngineHarness({}, 1);
          const payment = await authorized(h, amount, method);
          for (const s of steps) {
            await run(h, payment.id, s);
            await checkInvariants(h, payment);
          }
          // Faults stop; the sweeper settles every unknown outcome by inquiry.
          for (let i = 0; i < 6; i += 1) {
            h.clock.advance(2 * 60 * MINUTE);
            await h.engine.sweep();
          }
          const { captures, refunds } = await checkInvariants(h, payment);
          for (const op of [...captures, ...refunds]) expect(op.state).not.toBe('processing');
          // Every operation id the acquirer heard of is one the engine stored.
          const stored = new Set([...captures, ...refunds].map((op) => op.id));
          for (const decided of h.acquirer.operations()) {
            if (!decided.operationId.startsWith('cancel_')) expect(stored.has(decided.operationId)).toBe(true);
          }
          // The events match the settled operations: one per final capture and refund.
          while ((await h.engine.deliverEvents())._unsafeUnwrap() > 0);
          const events = h.events.events().filter((event) => event.paymentId === payment.id);
          const count = (type: string) => events.filter((event) => event.type === type).length;
          expect(count('payment.captured')).toBe(captures.filter((op) => op.state === 'succeeded').length);
          expect(count('payment.capture_failed')).toBe(captures.filter((op) => op.state === 'failed').length);
          expect(count('refund.succeeded')).toBe(refunds.filter((op) => op.state === 'succeeded').length);
          expect(count('refund.failed')).toBe(refunds.filter((op) => op.state === 'failed').length);
          expect(count('payment.canceled') + count('payment.authorization_expired')).toBeLessThanOrEqual(1);
          // No card number in records, events or log lines.
          const everything = JSON.stringify([h.repository.snapshot(), events, h.logs]);
          expect(everything).not.toContain(VISA);
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);
});
