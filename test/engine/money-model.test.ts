import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PaymentError } from '../../src/index.js';
import type { Result } from 'neverthrow';
import { compliantClient } from '../support/engine-harness.js';
import { MINUTE, PROFILE, VISA } from '../support/engine-helpers.js';
import type { MoneyFault, MoneyKind } from '../support/faulty-money-acquirer.js';
import { checkInvariants, makeModelWorld, type ModelPayment, type ModelWorld } from '../support/money-model.js';
import { directRequest, hostedRequest } from '../support/requests.js';

const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 300);

type Create = { readonly op: 'create'; readonly amount: number; readonly form: 'automatic' | 'manual' | 'hosted' };
type Money = {
  readonly op: MoneyKind;
  readonly payment: number;
  readonly amount: number | undefined;
  readonly final: boolean;
};
type Step =
  | Create
  | Money
  | { readonly op: 'retry'; readonly pick: number }
  | { readonly op: 'sweep' }
  | { readonly op: 'clock'; readonly ms: number }
  | { readonly op: 'fault'; readonly kind: MoneyKind; readonly fault: MoneyFault }
  | { readonly op: 'inquiries'; readonly down: boolean };
type Command = Step | { readonly op: 'pair'; readonly first: Step; readonly second: Step };

const create = fc.record({
  op: fc.constant('create' as const),
  amount: fc.constantFrom(100, 1_000, 1_999),
  form: fc.constantFrom('automatic' as const, 'manual' as const, 'manual' as const, 'hosted' as const),
});
const money = fc.record({
  op: fc.constantFrom<MoneyKind>('capture', 'capture', 'cancel', 'refund', 'refund'),
  payment: fc.nat(),
  amount: fc.option(fc.integer({ min: 1, max: 1_200 }), { nil: undefined }),
  final: fc.boolean(),
});
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: create, weight: 2 },
  { arbitrary: money, weight: 6 },
  { arbitrary: fc.record({ op: fc.constant('retry' as const), pick: fc.nat() }), weight: 2 },
  { arbitrary: fc.constant({ op: 'sweep' as const }), weight: 1 },
  {
    arbitrary: fc.record({ op: fc.constant('clock' as const), ms: fc.constantFrom(MINUTE, 2 * HOUR, 8 * DAY) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      op: fc.constant('fault' as const),
      kind: fc.constantFrom<MoneyKind>('capture', 'cancel', 'refund'),
      fault: fc.constantFrom<MoneyFault>('ok', 'ok', 'lost-before', 'lost-after', 'unknown-after', 'declined'),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ op: fc.constant('inquiries' as const), down: fc.boolean() }), weight: 1 },
);
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: step, weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('pair' as const), first: money, second: money }), weight: 1 },
);
const script = fc.tuple(
  fc.array(create, { minLength: 1, maxLength: 3 }),
  fc.array(command, { minLength: 5, maxLength: 25, size: 'max' }),
  fc.nat({ max: 1_000 }),
);

const target = (paymentId: string) => ({ paymentId, profileId: PROFILE });

/** Sends one capture, cancel or refund with this id and body; the answer's operation id or error code. */
async function send(world: ModelWorld, kind: MoneyKind, paymentId: string, id: string, body?: Record<string, unknown>) {
  const { engine } = world.h;
  const result: Result<{ id: string; state: string }, PaymentError> =
    kind === 'capture'
      ? await engine.capturePayment({ ...target(paymentId), captureId: id, ...(body && { body }) })
      : kind === 'refund'
        ? await engine.refundPayment({ ...target(paymentId), refundId: id, ...(body && { body }) })
        : await engine.cancelPayment({ ...target(paymentId), cancelId: id });
  return result.match(
    (answer) => ({ ok: true as const, state: kind === 'cancel' ? undefined : answer.state }),
    (error) => ({ ok: false as const, code: error.code }),
  );
}

const FRESH_STATE: Record<MoneyFault, string> = {
  ok: 'succeeded',
  declined: 'failed',
  'lost-before': 'processing',
  'lost-after': 'processing',
  'unknown-after': 'processing',
};

/**
 * The model's answer to a capture, cancel or refund sent alone, from the payment before it:
 * accepted exactly when the amount fits what is capturable or refundable (a cancel: while
 * something is capturable, or the cardholder has not acted); its state follows the fault.
 */
async function expectedOutcome(world: ModelWorld, s: Money, payment: ModelPayment) {
  const view = (await world.h.engine.getPayment(target(payment.id)))._unsafeUnwrap();
  const record = (await world.h.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
  const open = view.state !== 'succeeded' && view.state !== 'failed' && view.state !== 'expired';
  const room =
    s.op === 'capture'
      ? view.amount_capturable
      : s.op === 'refund' && view.state === 'succeeded'
        ? record.amountCaptured - record.refundReserved
        : 0;
  const accepted =
    s.op === 'cancel' ? view.amount_capturable > 0 || (payment.hosted && open) : room > 0 && (s.amount ?? room) <= room;
  if (!accepted) return { ok: false, state: undefined };
  return { ok: true, state: s.op === 'cancel' ? undefined : FRESH_STATE[world.faults[s.op]] };
}

async function run(world: ModelWorld, s: Step, solo = false): Promise<void> {
  const { h } = world;
  switch (s.op) {
    case 'create': {
      const body =
        s.form === 'hosted'
          ? hostedRequest({ amount: s.amount, capture_method: 'manual' })
          : directRequest(VISA, { amount: s.amount, capture_method: s.form });
      const payment = (
        await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body })
      )._unsafeUnwrap();
      world.payments.push({ id: payment.id, amount: s.amount, hosted: s.form === 'hosted', final: null });
      return;
    }
    case 'capture':
    case 'cancel':
    case 'refund': {
      const payment = world.payments[s.payment % Math.max(1, world.payments.length)];
      if (payment === undefined) return;
      const id = h.engine.newOperationId(s.op);
      const body =
        s.op === 'cancel'
          ? undefined
          : { ...(s.amount !== undefined && { amount: s.amount }), ...(s.op === 'capture' && { final: s.final }) };
      world.operations.set(id, { id, kind: s.op, paymentId: payment.id, body, final: null });
      const expected = solo ? await expectedOutcome(world, s, payment) : undefined;
      const answer = await send(world, s.op, payment.id, id, body);
      if (expected !== undefined)
        expect({ ok: answer.ok, state: answer.ok ? answer.state : undefined }).toEqual(expected);
      if (!answer.ok) {
        expect(answer.code).toMatch(
          /^(payment_not_(capturable|cancelable|refundable)|amount_exceeds_(capturable|refundable))$/,
        );
        world.operations.delete(id);
      }
      return;
    }
    case 'retry': {
      const known = [...world.operations.values()];
      const op = known[s.pick % Math.max(1, known.length)];
      if (op === undefined) return;
      const answer = await send(world, op.kind, op.paymentId, op.id, op.body);
      // A cancel retried on a payment it closed answers the payment; captures and refunds their own record.
      if (op.kind !== 'cancel') expect(answer.ok).toBe(true);
      return;
    }
    case 'sweep':
      expect((await h.engine.sweep()).isOk()).toBe(true);
      return;
    case 'clock':
      h.clock.advance(s.ms);
      expect((await h.engine.sweep()).isOk()).toBe(true);
      return;
    case 'fault':
      world.faults[s.kind] = s.fault;
      return;
    case 'inquiries':
      world.state.inquiriesDown = s.down;
      return;
  }
}

/** Faults stop; the clock moves on and the sweeper runs until no operation is left processing. */
async function settle(world: ModelWorld): Promise<void> {
  world.faults.capture = world.faults.cancel = world.faults.refund = 'ok';
  world.state.inquiriesDown = false;
  for (let round = 0; round < 40; round++) {
    world.h.clock.advance(2 * HOUR);
    expect((await world.h.engine.sweep()).isOk()).toBe(true);
  }
  for (const payment of world.payments) {
    const operations = (
      await world.h.repository.listOperations({ paymentId: payment.id, limit: 1_000 })
    )._unsafeUnwrap();
    expect(operations.items.filter((op) => op.state === 'processing').map((op) => op.id)).toEqual([]);
  }
}

describe('captures, cancels and refunds against a model (property)', () => {
  it('keeps the money invariants, final states, one acquirer call per operation and matching events', async () => {
    await fc.assert(
      fc.asyncProperty(script, async ([creates, commands, seed]) => {
        const world = makeModelWorld(seed);
        for (const c of creates) await run(world, c);
        for (const c of commands) {
          world.step += 1;
          if (c.op === 'pair') await Promise.all([run(world, c.first), run(world, c.second)]);
          else await run(world, c, true);
          await checkInvariants(world);
        }
        world.step += 1;
        await settle(world);
        await checkInvariants(world);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);
});
