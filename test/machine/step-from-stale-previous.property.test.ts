import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LifecycleState, PaymentMachineContext, StepResult } from '../../src/machine/index.js';
import { createPaymentMachine, startPayment, stepPayment } from '../../src/machine/index.js';
import { machineEvent } from '../support/machine-events.js';
import { NUM_RUNS } from '../support/property-runs.js';

/**
 * `stepPayment(machine, lifecycle, event, previous)` reuses `previous`'s snapshot only when it
 * describes `lifecycle` exactly: a previous step that differs in any one context field must give
 * the same step as restoring the lifecycle. Written against a mutant (the comparison skipped
 * `expiresAt`) that no other test killed: a stale deadline would then decide expiry.
 */

const machine = createPaymentMachine({ hostedPageTimeoutMs: 5_000, challengeTimeoutMs: 3_000 });

const event = machineEvent;

/** Each context field, changed to another value of its type. */
const ALTER: Readonly<Record<keyof PaymentMachineContext, (c: PaymentMachineContext) => PaymentMachineContext>> = {
  flow: (c) => ({ ...c, flow: c.flow === 'hosted' ? 'direct' : 'hosted' }),
  createdAt: (c) => ({ ...c, createdAt: c.createdAt - 1 }),
  expiresAt: (c) => ({ ...c, expiresAt: c.expiresAt === null ? 1_000 : c.expiresAt - 2_500 }),
  failureReason: (c) => ({ ...c, failureReason: c.failureReason === 'declined' ? 'expired_card' : 'declined' }),
  authorizationStatus: (c) => ({
    ...c,
    authorizationStatus: c.authorizationStatus === 'unknown' ? 'requested' : 'unknown',
  }),
  nextInquiryAt: (c) => ({ ...c, nextInquiryAt: (c.nextInquiryAt ?? 0) + 7 }),
  inquiryAttempts: (c) => ({ ...c, inquiryAttempts: c.inquiryAttempts + 3 }),
  notFoundAnswers: (c) => ({ ...c, notFoundAnswers: c.notFoundAnswers + 2 }),
};

const FIELDS = Object.keys(ALTER) as Array<keyof PaymentMachineContext>;

describe('stepPayment with a previous step of another lifecycle', () => {
  it('gives the same step as restoring, whichever single context field differs', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('hosted' as const, 'direct' as const),
        fc.array(event, { maxLength: 20 }),
        fc.constantFrom(...FIELDS),
        event,
        (flow, events, field, next) => {
          let previous: StepResult = startPayment(machine, { flow, at: 0 });
          for (const e of events) previous = stepPayment(machine, previous, e, previous);
          const lifecycle: LifecycleState = { state: previous.state, context: ALTER[field](previous.context) };
          const restored = stepPayment(machine, lifecycle, next);
          const reused = stepPayment(machine, lifecycle, next, previous);
          expect(reused.state).toBe(restored.state);
          expect(reused.context).toEqual(restored.context);
          expect(reused.actions).toEqual(restored.actions);
          expect(reused.changed).toBe(restored.changed);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('a stored deadline earlier than the previous step’s decides expiry', () => {
    const previous = startPayment(machine, { flow: 'hosted', at: 0 });
    expect(previous.context.expiresAt).toBe(5_000);
    const moved: LifecycleState = { state: previous.state, context: { ...previous.context, expiresAt: 1_000 } };
    expect(stepPayment(machine, moved, { type: 'expiry.due', at: 2_000 }, previous).state).toBe('expired');
  });
});
