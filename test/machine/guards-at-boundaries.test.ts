import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAILURE_REASONS, isFinalState } from '../../src/domain/index.js';
import type { InquiryAnswer, LifecycleState, PaymentMachineEvent } from '../../src/machine/index.js';
import { createPaymentMachine, startPayment, stepPayment } from '../../src/machine/index.js';
import { NUM_RUNS } from '../support/property-runs.js';

/**
 * Behaviour of the lifecycle machine at the edges of its policy and in the fields the other
 * machine tests leave alone; each test here was written against a mutant that no other test
 * killed (a hand-made mutation run over the core).
 */

const T0 = Date.UTC(2026, 0, 15, 12);
const machine = createPaymentMachine();

/** A direct payment whose authorization outcome is unknown (the acquirer did not answer). */
function unknownAuthorization(m = machine, at = T0): LifecycleState {
  const direct = startPayment(m, { flow: 'direct', at });
  const authorizing = stepPayment(m, direct, { type: 'authentication.not_required', at });
  return stepPayment(m, authorizing, { type: 'authorization.unknown', at });
}

describe('policy durations: "a finite number of milliseconds of at least 0" includes 0', () => {
  it('accepts 0 for every duration and for each inquiry delay, and still refuses -1', () => {
    const zero = {
      hostedPageTimeoutMs: 0,
      challengeTimeoutMs: 0,
      authorizationStaleAfterMs: 0,
      inquiryDelaysMs: [0],
    };
    expect(() => createPaymentMachine(zero)).not.toThrow();
    for (const name of Object.keys(zero) as Array<keyof typeof zero>) {
      const bad = name === 'inquiryDelaysMs' ? { inquiryDelaysMs: [-1] } : { [name]: -1 };
      expect(() => createPaymentMachine(bad), name).toThrow(RangeError);
    }
  });

  it('a hosted page deadline of 0 ms makes the payment due at once', () => {
    const m = createPaymentMachine({ hostedPageTimeoutMs: 0 });
    const hosted = startPayment(m, { flow: 'hosted', at: T0 });
    expect(hosted.context.expiresAt).toBe(T0);
    expect(stepPayment(m, hosted, { type: 'expiry.due', at: T0 }).state).toBe('expired');
  });

  it('an empty inquiry schedule backs off an hour between inquiries, never 0 ms (an acquirer asked at every sweep)', () => {
    const m = createPaymentMachine({ inquiryDelaysMs: [] });
    const unknown = unknownAuthorization(m);
    expect(unknown.context.nextInquiryAt).toBe(T0 + 3_600_000);
    const again = stepPayment(m, unknown, {
      type: 'inquiry.answered',
      at: T0 + 3_600_000,
      outcome: { kind: 'pending' },
    });
    expect(again.context.nextInquiryAt).toBe(T0 + 2 * 3_600_000);
  });

  it('accepts notFoundIsFinalAfterInquiries 1: the first not_found answer fails the payment', () => {
    const m = createPaymentMachine({ notFoundIsFinalAfterInquiries: 1 });
    const step = stepPayment(m, unknownAuthorization(m), {
      type: 'inquiry.answered',
      at: T0 + 10_000,
      outcome: { kind: 'not_found' },
    });
    expect(step.state).toBe('failed');
    expect(step.context.failureReason).toBe('processing_error');
  });
});

describe('failure reasons of 3DS outcomes', () => {
  it('3DS unavailable (U) under a policy that does not authorize it fails as authentication_rejected', () => {
    const strict = createPaymentMachine({ authorizeWhenAuthenticationUnavailable: false });
    const direct = startPayment(strict, { flow: 'direct', at: T0 });
    const step = stepPayment(strict, direct, { type: 'authentication.unavailable', at: T0 });
    expect(step.state).toBe('failed');
    expect(step.context.failureReason).toBe('authentication_rejected');
    expect(step.actions).not.toContainEqual({ type: 'authorize' });
  });
});

const inquiryAnswer: fc.Arbitrary<InquiryAnswer> = fc.oneof(
  fc.constant({ kind: 'approved' } as const),
  fc.constantFrom(...FAILURE_REASONS).map((reason) => ({ kind: 'declined', reason }) as const),
  fc.constant({ kind: 'not_found' } as const),
  fc.constant({ kind: 'pending' } as const),
);

/** The events that can reach a payment whose authorization is unknown or requested. */
const authorizingEvent: fc.Arbitrary<(at: number) => PaymentMachineEvent> = fc.oneof(
  inquiryAnswer.map((outcome) => (at: number) => ({ type: 'inquiry.answered', at, outcome }) as const),
  fc.constant((at: number) => ({ type: 'authorization.approved', at }) as const),
  fc
    .constantFrom(...FAILURE_REASONS)
    .map((reason) => (at: number) => ({ type: 'authorization.declined', at, reason }) as const),
  fc.constant((at: number) => ({ type: 'authorization.unknown', at }) as const),
  fc.constant((at: number) => ({ type: 'expiry.due', at }) as const),
);

describe('inquiry bookkeeping (property)', () => {
  it('a payment has a next inquiry time exactly while it is authorizing: a settled one is never asked about again', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.tuple(authorizingEvent, fc.integer({ min: 0, max: 3_600_000 })), { maxLength: 12 }),
        (lostAnswer, events) => {
          const direct = startPayment(machine, { flow: 'direct', at: T0 });
          let s: LifecycleState = stepPayment(machine, direct, { type: 'authentication.not_required', at: T0 });
          if (lostAnswer) s = stepPayment(machine, s, { type: 'authorization.unknown', at: T0 });
          let at = T0;
          for (const [make, dt] of events) {
            at += dt;
            s = stepPayment(machine, s, make(at));
            expect(s.context.nextInquiryAt !== null, s.state).toBe(s.state === 'authorizing');
            if (isFinalState(s.state)) expect(s.context.authorizationStatus).toBeNull();
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('an inquiry that finds the payment declined keeps the reason and clears the inquiry schedule', () => {
    for (const reason of FAILURE_REASONS) {
      const step = stepPayment(machine, unknownAuthorization(), {
        type: 'inquiry.answered',
        at: T0 + 10_000,
        outcome: { kind: 'declined', reason },
      });
      expect(step.state).toBe('failed');
      expect(step.context).toMatchObject({ failureReason: reason, nextInquiryAt: null, authorizationStatus: null });
    }
  });
});
