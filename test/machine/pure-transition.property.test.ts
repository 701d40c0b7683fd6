import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { createPaymentMachine, createPureTransitions } from '../../src/machine/index.js';
import type { StepResult } from '../../src/machine/step-payment.js';
import { startPayment, stepPayment } from '../../src/machine/step-payment.js';
import { machineEvent } from '../support/machine-events.js';
import { NUM_RUNS } from '../support/property-runs.js';

const machine = createPaymentMachine({ hostedPageTimeoutMs: 5_000, challengeTimeoutMs: 3_000 });

const event = machineEvent;

const view = (actions: ReadonlyArray<{ type: string; params?: unknown }>) =>
  actions.map((a) => ({ type: a.type, params: a.params }));

describe('createPureTransitions', () => {
  it('gives the same snapshots and actions as XState initialTransition/transition', () => {
    const pure = createPureTransitions(machine);
    fc.assert(
      fc.property(
        fc.constantFrom('hosted' as const, 'direct' as const),
        fc.array(event, { maxLength: 30 }),
        (flow, events) => {
          let [expected, expectedActions] = initialTransition(machine, { flow, at: 0 });
          let [actual, actualActions] = pure.initial({ flow, at: 0 });
          expect(actual.value).toEqual(expected.value);
          expect(actual.context).toEqual(expected.context);
          expect(view(actualActions)).toEqual(view(expectedActions));
          for (const e of events) {
            [expected, expectedActions] = transition(machine, expected, e);
            [actual, actualActions] = pure.next(actual, e);
            expect(actual.value).toEqual(expected.value);
            expect(actual.context).toEqual(expected.context);
            expect(actual.status).toBe(expected.status);
            expect(view(actualActions)).toEqual(view(expectedActions));
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('stepPayment from the previous step', () => {
  it('gives the same step as restoring the stored lifecycle', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('hosted' as const, 'direct' as const),
        fc.array(event, { maxLength: 30 }),
        (flow, events) => {
          let chained: StepResult = startPayment(machine, { flow, at: 0 });
          for (const e of events) {
            const lifecycle = { state: chained.state, context: chained.context };
            const restored = stepPayment(machine, lifecycle, e);
            const reused = stepPayment(machine, lifecycle, e, chained);
            expect(reused.state).toBe(restored.state);
            expect(reused.context).toEqual(restored.context);
            expect(reused.actions).toEqual(restored.actions);
            expect(reused.changed).toBe(restored.changed);
            chained = reused;
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('restores instead when the previous step is of another lifecycle', () => {
    const hosted = startPayment(machine, { flow: 'hosted', at: 0 });
    const direct = startPayment(machine, { flow: 'direct', at: 0 });
    const step = stepPayment(machine, hosted, { type: 'card.submitted', at: 1 }, direct);
    expect(step.state).toBe('authenticating');
    expect(step.changed).toBe(true);
  });
});
