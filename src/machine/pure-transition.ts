import { createActor } from 'xstate';
import type { ActorScope, ExecutableActionObject } from 'xstate';
import type { PaymentMachine, PaymentMachineInput } from './payment-machine.js';
import type { PaymentMachineEvent } from './payment-machine-events.js';

type Snapshot = ReturnType<PaymentMachine['resolveState']>;
type Scope = ActorScope<Snapshot, PaymentMachineEvent>;

/** Pure transition functions for one machine, equivalent to XState's `initialTransition` / `transition`. */
export interface PureTransitions {
  initial(input: PaymentMachineInput): [Snapshot, ExecutableActionObject[]];
  next(snapshot: Snapshot, event: PaymentMachineEvent): [Snapshot, ExecutableActionObject[]];
}

/**
 * XState's `transition(logic, snapshot, event)` builds a throwaway actor on every call, and
 * building an actor computes the machine's initial snapshot: most of the cost of a step. This
 * builds that inert scope once per machine and reuses it, collecting the actions into a fresh
 * array per call, exactly as XState's own functions do. It is sound for this machine because it
 * spawns no child actors and schedules no delayed events (nothing ever uses the scope's system),
 * and because transitions are synchronous. `test/machine/pure-transition.property.test.ts`
 * checks it against XState's functions.
 */
export function createPureTransitions(machine: PaymentMachine): PureTransitions {
  const self = createActor(machine, { input: { flow: 'hosted', at: 0 } });
  let collected: ExecutableActionObject[] = [];
  const scope = {
    self,
    defer: () => undefined,
    id: '',
    logger: () => undefined,
    sessionId: '',
    stopChild: () => undefined,
    system: self.system,
    emit: () => undefined,
    actionExecutor: (action: ExecutableActionObject) => {
      collected.push(action);
    },
  } as unknown as Scope;
  const collect = <T>(run: () => T): [T, ExecutableActionObject[]] => {
    collected = [];
    const result = run();
    const actions = collected;
    collected = [];
    return [result, actions];
  };
  return {
    initial: (input) => collect(() => machine.getInitialSnapshot(scope as never, input)),
    next: (snapshot, event) => collect(() => machine.transition(snapshot, event, scope as never)),
  };
}
