import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SANDBOX_TEST_CARDS } from '../../adapters/sandbox/index.js';
import type { Payment, PaymentError } from '../../src/index.js';
import { isFinalState, PUBLIC_STATES } from '../../src/index.js';
import { cardholderMustAct } from '../../src/machine/index.js';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import type { EngineHarness } from '../support/engine-harness.js';
import { NUM_RUNS } from '../support/property-runs.js';
import { cardSubmission, directRequest, hostedRequest } from '../support/requests.js';

const MINUTE = 60_000;
const NUMBERS = SANDBOX_TEST_CARDS.map((card) => card.number);
const PROFILE = 'profile_0001';

type Command =
  | { readonly kind: 'createHosted' }
  | { readonly kind: 'createDirect'; readonly card: string }
  | { readonly kind: 'submit'; readonly target: number; readonly card: string; readonly goodToken: boolean }
  | {
      readonly kind: 'challenge';
      readonly target: number;
      readonly decision: 'authorise' | 'refuse';
      readonly tamper: boolean;
    }
  | { readonly kind: 'advance'; readonly ms: number }
  | { readonly kind: 'sweep' }
  | { readonly kind: 'deliver' }
  | { readonly kind: 'acquirerFault'; readonly fault: 'unavailable' | 'answer_lost' }
  | { readonly kind: 'together'; readonly first: Command; readonly second: Command };

const single: fc.Arbitrary<Command> = fc.oneof(
  fc.constant({ kind: 'createHosted' } as const),
  fc.constantFrom(...NUMBERS).map((card) => ({ kind: 'createDirect', card }) as const),
  fc.record({
    kind: fc.constant('submit' as const),
    target: fc.nat(20),
    card: fc.constantFrom(...NUMBERS),
    goodToken: fc.oneof({ arbitrary: fc.constant(true), weight: 5 }, { arbitrary: fc.constant(false), weight: 1 }),
  }),
  fc.record({
    kind: fc.constant('challenge' as const),
    target: fc.nat(20),
    decision: fc.constantFrom('authorise' as const, 'refuse' as const),
    tamper: fc.boolean(),
  }),
  fc
    .oneof(fc.integer({ min: 0, max: 2 * MINUTE }), fc.integer({ min: 9 * MINUTE, max: 70 * MINUTE }))
    .map((ms) => ({ kind: 'advance', ms }) as const),
  fc.constant({ kind: 'sweep' } as const),
  fc.constant({ kind: 'deliver' } as const),
  fc
    .constantFrom('unavailable' as const, 'answer_lost' as const)
    .map((fault) => ({ kind: 'acquirerFault', fault }) as const),
);

/** Commands, some of them issued concurrently in pairs (duplicates and races included). */
const commands = fc.array(
  fc.oneof(
    { arbitrary: single, weight: 4 },
    {
      arbitrary: fc.tuple(single, single).map(([first, second]) => ({ kind: 'together', first, second }) as const),
      weight: 1,
    },
  ),
  { maxLength: 25 },
);

interface World {
  readonly h: EngineHarness;
  readonly created: Payment[];
  readonly errors: PaymentError[];
  /** Every public view observed, per payment, in order. */
  readonly seen: Map<string, Payment[]>;
}

function observe(world: World, payment: Payment): void {
  const list = world.seen.get(payment.id) ?? [];
  list.push(payment);
  world.seen.set(payment.id, list);
}

async function perform(world: World, command: Command): Promise<void> {
  const { h } = world;
  const pick = (target: number) => world.created[target % Math.max(1, world.created.length)];
  const settle = (result: Awaited<ReturnType<typeof h.engine.getPayment>>) => {
    if (result.isOk()) observe(world, result.value);
    else world.errors.push(result.error);
  };
  switch (command.kind) {
    case 'createHosted':
    case 'createDirect': {
      const body = command.kind === 'createHosted' ? hostedRequest() : directRequest(command.card);
      const result = await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body });
      if (result.isOk()) world.created.push(result.value);
      settle(result);
      return;
    }
    case 'submit': {
      const payment = pick(command.target);
      if (payment === undefined) return;
      const token = command.goodToken ? h.hostedToken(payment) : 'not-the-token';
      settle(await h.engine.submitCard({ paymentId: payment.id, token, body: cardSubmission(command.card) }));
      return;
    }
    case 'challenge': {
      const payment = pick(command.target);
      if (payment === undefined) return;
      const answer = await h.challengeAnswer(payment.id, command.decision);
      settle(await h.engine.completeChallenge(command.tamper ? { ...answer, cres: `${answer.cres}x` } : answer));
      return;
    }
    case 'advance':
      h.clock.advance(command.ms);
      return;
    case 'sweep':
      expect((await h.engine.sweep()).isOk()).toBe(true);
      return;
    case 'deliver':
      expect((await h.engine.deliverEvents()).isOk()).toBe(true);
      return;
    case 'acquirerFault':
      h.acquirer.failNextAuthorize(command.fault);
      return;
    case 'together':
      await Promise.all([perform(world, command.first), perform(world, command.second)]);
      return;
  }
}

async function runScenario(script: readonly Command[]): Promise<World> {
  const world: World = { h: makeEngineHarness(), created: [], errors: [], seen: new Map() };
  for (const command of script) await perform(world, command);
  return world;
}

/** Lets every deadline and every inquiry back-off pass, sweeping as a background worker would. */
async function drain(world: World): Promise<void> {
  for (let i = 0; i < 12; i++) {
    world.h.clock.advance(6 * 60 * MINUTE);
    expect((await world.h.engine.sweep()).isOk()).toBe(true);
  }
  expect((await world.h.engine.deliverEvents()).isOk()).toBe(true);
}

describe('engine (property)', () => {
  it('keeps every invariant under random commands, races and clock jumps', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (script) => {
        const world = await runScenario(script);
        const { h } = world;
        const records = h.repository.snapshot();

        for (const record of records) {
          // The acquirer is asked to authorize a payment at most once.
          expect(h.acquirer.authorizeCalls(record.id)).toBeLessThanOrEqual(1);
        }
        for (const views of world.seen.values()) {
          let final: string | null = null;
          for (const view of views) {
            expect(PUBLIC_STATES).toContain(view.state);
            // Once final, a payment never shows another state.
            if (final !== null) expect(view.state).toBe(final);
            if (view.state !== 'processing') final = view.state;
          }
        }
        for (const record of records) {
          const view = (await h.engine.getPayment({ paymentId: record.id, profileId: PROFILE }))._unsafeUnwrap();
          // next.redirect is present exactly when the cardholder must act.
          expect(view.next !== undefined).toBe(cardholderMustAct(record.state));
        }

        // Every payment reaches a final state once the clock passes the time-outs and the sweeper runs.
        await drain(world);
        const finalRecords = h.repository.snapshot();
        for (const record of finalRecords) expect(isFinalState(record.state)).toBe(true);

        // Events agree with states: one created and one final event per payment, of the final state's type.
        const events = h.events.events();
        for (const record of finalRecords) {
          const types = events.filter((e) => e.paymentId === record.id).map((e) => e.type);
          expect(types.filter((t) => t === 'payment.created')).toHaveLength(1);
          const finals = types.filter(
            (t) => t === 'payment.succeeded' || t === 'payment.failed' || t === 'payment.expired',
          );
          expect(finals).toEqual([`payment.${record.state}`]);
        }

        // No card number or CVC in any stored record, event, error or log.
        const dump = JSON.stringify([finalRecords, events, world.errors, h.logs, h.acquirer.authorizations()]);
        for (const number of NUMBERS) expect(dump).not.toContain(number);
        expect(dump).not.toMatch(/"(cvc|number)"/);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
