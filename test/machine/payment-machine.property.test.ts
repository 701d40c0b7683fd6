import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAILURE_REASONS, isFinalState, PUBLIC_STATES } from '../../src/domain/index.js';
import type { InquiryAnswer, PaymentMachineEvent } from '../../src/machine/index.js';
import {
  PAYMENT_MACHINE_EVENT_TYPES,
  cardholderMustAct,
  createPaymentMachine,
  DEFAULT_PAYMENT_MACHINE_OPTIONS,
  startPayment,
  stepPayment,
  toPublicState,
} from '../../src/machine/index.js';
import type { LifecycleState } from '../../src/machine/index.js';
import { NUM_RUNS } from '../support/property-runs.js';

const machine = createPaymentMachine();
const T0 = Date.UTC(2026, 0, 15, 12);
const MINUTE = 60_000;

const inquiryAnswer: fc.Arbitrary<InquiryAnswer> = fc.oneof(
  fc.constant({ kind: 'approved' } as const),
  fc.constantFrom(...FAILURE_REASONS).map((reason) => ({ kind: 'declined', reason }) as const),
  fc.constant({ kind: 'not_found' } as const),
  fc.constant({ kind: 'pending' } as const),
);

/** Any event, with a time offset from the start that may jump far ahead or lag behind (out of order). */
const eventArb: fc.Arbitrary<(at: number) => PaymentMachineEvent> = fc.oneof(
  fc
    .constantFrom(
      ...PAYMENT_MACHINE_EVENT_TYPES.filter((type) => type !== 'authorization.declined' && type !== 'inquiry.answered'),
    )
    .map((type) => (at: number) => ({ type, at }) as PaymentMachineEvent),
  fc
    .constantFrom(...FAILURE_REASONS)
    .map((reason) => (at: number) => ({ type: 'authorization.declined', at, reason }) as const),
  inquiryAnswer.map((outcome) => (at: number) => ({ type: 'inquiry.answered', at, outcome }) as const),
);

const timeStep = fc.oneof(
  fc.integer({ min: 0, max: 5_000 }),
  fc.integer({ min: 0, max: 120 * MINUTE }),
  fc.integer({ min: -10 * MINUTE, max: 0 }),
);

const scenario = fc.record({
  flow: fc.constantFrom('hosted' as const, 'direct' as const),
  steps: fc.array(fc.tuple(eventArb, timeStep), { maxLength: 40 }),
});

interface Trace {
  readonly states: LifecycleState[];
  readonly actions: string[][];
}

function run(
  flow: 'hosted' | 'direct',
  steps: ReadonlyArray<readonly [(at: number) => PaymentMachineEvent, number]>,
): Trace {
  let now = T0;
  const first = startPayment(machine, { flow, at: now });
  let current: LifecycleState = first;
  const states: LifecycleState[] = [first];
  const actions: string[][] = [first.actions.map((a) => (a.type === 'emitEvent' ? a.event : a.type))];
  for (const [make, dt] of steps) {
    now += dt;
    const step = stepPayment(machine, current, make(now));
    current = step;
    states.push(step);
    actions.push(step.actions.map((a) => (a.type === 'emitEvent' ? a.event : a.type)));
  }
  return { states, actions };
}

describe('payment machine (property)', () => {
  it('final states never change and emit nothing more', () => {
    fc.assert(
      fc.property(scenario, ({ flow, steps }) => {
        const { states, actions } = run(flow, steps);
        const firstFinal = states.findIndex((s) => isFinalState(s.state));
        if (firstFinal === -1) return;
        for (let i = firstFinal + 1; i < states.length; i++) {
          expect(states[i]?.state).toBe(states[firstFinal]?.state);
          expect(states[i]?.context).toEqual(states[firstFinal]?.context);
          expect(actions[i]).toEqual([]);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('the public state is always one of the four, and a deadline exists exactly when the cardholder must act', () => {
    fc.assert(
      fc.property(scenario, ({ flow, steps }) => {
        for (const s of run(flow, steps).states) {
          expect(PUBLIC_STATES).toContain(toPublicState(s.state));
          expect(s.context.expiresAt !== null).toBe(cardholderMustAct(s.state));
          expect(s.context.failureReason !== null).toBe(s.state === 'failed');
          expect(s.context.authorizationStatus !== null).toBe(s.state === 'authorizing');
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('asks to authorize at most once, and only after 3DS allowed it', () => {
    fc.assert(
      fc.property(scenario, ({ flow, steps }) => {
        const { states, actions } = run(flow, steps);
        const authorizeAt = actions.flatMap((list, i) => (list.includes('authorize') ? [i] : []));
        expect(authorizeAt.length).toBeLessThanOrEqual(1);
        for (const i of authorizeAt) {
          const before = states[i - 1]?.state;
          expect(['authenticating', 'awaiting_challenge']).toContain(before);
          expect(states[i]?.state).toBe('authorizing');
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('emits payment.created once at start and exactly one final event when a final state is reached', () => {
    fc.assert(
      fc.property(scenario, ({ flow, steps }) => {
        const { states, actions } = run(flow, steps);
        const all = actions.flat();
        expect(all.filter((a) => a === 'payment.created')).toHaveLength(1);
        const finals = all.filter(
          (a) => a === 'payment.succeeded' || a === 'payment.failed' || a === 'payment.expired',
        );
        const last = states[states.length - 1];
        expect(finals).toHaveLength(last !== undefined && isFinalState(last.state) ? 1 : 0);
        if (last !== undefined && isFinalState(last.state)) expect(finals[0]).toBe(`payment.${last.state}`);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('every waiting payment expires once its deadline has passed and the sweeper sends expiry.due', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: 24 * 60 * MINUTE }), ({ flow, steps }, extra) => {
        const { states } = run(flow, steps);
        const last = states[states.length - 1];
        if (last === undefined || !cardholderMustAct(last.state)) return;
        const deadline = last.context.expiresAt ?? 0;
        const early = stepPayment(machine, last, { type: 'expiry.due', at: deadline - 1 });
        expect(early.state).toBe(last.state);
        const due = stepPayment(machine, last, { type: 'expiry.due', at: deadline + extra });
        expect(due.state).toBe('expired');
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('payment machine (examples)', () => {
  const hosted = startPayment(machine, { flow: 'hosted', at: T0 });

  it('starts hosted payments awaiting card data with the hosted page deadline', () => {
    expect(hosted.state).toBe('awaiting_card_data');
    expect(hosted.context.expiresAt).toBe(T0 + DEFAULT_PAYMENT_MACHINE_OPTIONS.hostedPageTimeoutMs);
  });

  it('starts direct payments authenticating and asks for 3DS', () => {
    const direct = startPayment(machine, { flow: 'direct', at: T0 });
    expect(direct.state).toBe('authenticating');
    expect(direct.actions).toContainEqual({ type: 'startAuthentication' });
  });

  it('falls back to a challenge when frictionless data does not match, with the challenge deadline', () => {
    const submitted = stepPayment(machine, hosted, { type: 'card.submitted', at: T0 + 1000 });
    const challenged = stepPayment(machine, submitted, { type: 'authentication.data_mismatch', at: T0 + 2000 });
    expect(challenged.state).toBe('awaiting_challenge');
    expect(challenged.context.expiresAt).toBe(T0 + 2000 + DEFAULT_PAYMENT_MACHINE_OPTIONS.challengeTimeoutMs);
  });

  it('refuses a challenge accepted after its deadline: the payment expires instead', () => {
    const submitted = stepPayment(machine, hosted, { type: 'card.submitted', at: T0 + 1000 });
    const challenged = stepPayment(machine, submitted, { type: 'authentication.challenge_required', at: T0 + 2000 });
    const late = stepPayment(machine, challenged, { type: 'challenge.accepted', at: T0 + 2000 + 10 * MINUTE });
    expect(late.state).toBe('expired');
    expect(late.actions).not.toContainEqual({ type: 'authorize' });
  });

  it('believes "not found" only after enough inquiries found nothing', () => {
    const direct = startPayment(machine, { flow: 'direct', at: T0 });
    const authorizing = stepPayment(machine, direct, { type: 'authentication.not_required', at: T0 });
    let s = stepPayment(machine, authorizing, { type: 'authorization.unknown', at: T0 });
    const notFound = { kind: 'not_found' } as const;
    s = stepPayment(machine, s, { type: 'inquiry.answered', at: T0 + 10_000, outcome: notFound });
    expect(s.state).toBe('authorizing');
    s = stepPayment(machine, s, { type: 'inquiry.answered', at: T0 + 40_000, outcome: notFound });
    expect(s.state).toBe('authorizing');
    s = stepPayment(machine, s, { type: 'inquiry.answered', at: T0 + 160_000, outcome: notFound });
    expect(s.state).toBe('failed');
    expect(s.context.failureReason).toBe('processing_error');
  });

  it('treats 3DS unavailable (U) as authorizable by default and as rejected when the policy says so', () => {
    const strict = createPaymentMachine({ authorizeWhenAuthenticationUnavailable: false });
    const direct = startPayment(strict, { flow: 'direct', at: T0 });
    expect(stepPayment(strict, direct, { type: 'authentication.unavailable', at: T0 }).state).toBe('failed');
    const lenient = startPayment(machine, { flow: 'direct', at: T0 });
    expect(stepPayment(machine, lenient, { type: 'authentication.unavailable', at: T0 }).state).toBe('authorizing');
  });

  it('backs off inquiries about an unknown authorization and never asks to authorize again', () => {
    const direct = startPayment(machine, { flow: 'direct', at: T0 });
    const authorizing = stepPayment(machine, direct, { type: 'authentication.not_required', at: T0 });
    let s = stepPayment(machine, authorizing, { type: 'authorization.unknown', at: T0 + 1000 });
    const delays: number[] = [];
    let at = T0 + 1000;
    for (let i = 0; i < 4; i++) {
      delays.push((s.context.nextInquiryAt ?? 0) - at);
      at = s.context.nextInquiryAt ?? at;
      s = stepPayment(machine, s, { type: 'inquiry.answered', at, outcome: { kind: 'pending' } });
      expect(s.actions).toEqual([]);
    }
    expect(delays).toEqual([10_000, 30_000, 120_000, 300_000]);
    expect(stepPayment(machine, s, { type: 'inquiry.answered', at, outcome: { kind: 'approved' } }).state).toBe(
      'succeeded',
    );
  });
});
