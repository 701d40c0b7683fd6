import type { DomainEventType } from '../domain/domain-event.js';
import type { InternalState } from '../domain/payment-state.js';
import type {
  PaymentMachine,
  PaymentMachineAction,
  PaymentMachineContext,
  PaymentMachineInput,
} from './payment-machine.js';
import type { PaymentMachineEvent } from './payment-machine-events.js';
import { createPureTransitions } from './pure-transition.js';
import type { PureTransitions } from './pure-transition.js';

/** A payment's lifecycle position: what the engine stores and hands back to the machine. */
export interface LifecycleState {
  readonly state: InternalState;
  readonly context: PaymentMachineContext;
}

/** What one `stepPayment` (or `startPayment`) gives back: the next state and context, the actions to carry out, the snapshot. */
export interface StepResult extends LifecycleState {
  /** Effects to perform, in order. */
  readonly actions: readonly PaymentMachineAction[];
  /** False when the machine ignored the event (nothing to store). */
  readonly changed: boolean;
  /** The XState snapshot after the step (for inspection). */
  readonly snapshot: Snapshot;
}

type Snapshot = ReturnType<PaymentMachine['resolveState']>;

function stateOf(snapshot: Snapshot): InternalState {
  const value = snapshot.value;
  return (typeof value === 'string' ? value : Object.keys(value)[0]) as InternalState;
}

function actionsOf(executable: ReadonlyArray<{ type: string; params?: unknown }>): PaymentMachineAction[] {
  const actions: PaymentMachineAction[] = [];
  for (const action of executable) {
    if (action.type === 'startAuthentication' || action.type === 'authorize') {
      actions.push({ type: action.type });
    } else if (action.type === 'emitEvent') {
      actions.push({ type: 'emitEvent', event: (action.params as { event: DomainEventType }).event });
    }
  }
  return actions;
}

type Same<T, U> = [T] extends [U] ? ([U] extends [T] ? true : false) : false;
/** `sameLifecycle` compares every context field: adding one to the machine fails to compile here. */
const comparesEveryField: Same<
  keyof PaymentMachineContext,
  | 'flow'
  | 'createdAt'
  | 'expiresAt'
  | 'failureReason'
  | 'authorizationStatus'
  | 'nextInquiryAt'
  | 'inquiryAttempts'
  | 'notFoundAnswers'
> = true;
void comparesEveryField;

function sameLifecycle(a: LifecycleState, b: LifecycleState): boolean {
  if (a.state !== b.state) return false;
  const x = a.context;
  const y = b.context;
  return (
    x.flow === y.flow &&
    x.createdAt === y.createdAt &&
    x.expiresAt === y.expiresAt &&
    x.failureReason === y.failureReason &&
    x.authorizationStatus === y.authorizationStatus &&
    x.nextInquiryAt === y.nextInquiryAt &&
    x.inquiryAttempts === y.inquiryAttempts &&
    x.notFoundAnswers === y.notFoundAnswers
  );
}

/** Rebuilds the machine snapshot of a stored payment without replaying its history. */
export function restoreSnapshot(machine: PaymentMachine, lifecycle: LifecycleState): Snapshot {
  const value =
    lifecycle.state === 'authorizing'
      ? { authorizing: lifecycle.context.authorizationStatus ?? 'requested' }
      : lifecycle.state;
  return machine.resolveState({ value, context: lifecycle.context } as Parameters<PaymentMachine['resolveState']>[0]);
}

const transitions = new WeakMap<PaymentMachine, PureTransitions>();

function transitionsOf(machine: PaymentMachine): PureTransitions {
  let pure = transitions.get(machine);
  if (pure === undefined) {
    pure = createPureTransitions(machine);
    transitions.set(machine, pure);
  }
  return pure;
}

/** The first step of a new payment: the initial state and its actions. Pure. */
export function startPayment(machine: PaymentMachine, input: PaymentMachineInput): StepResult {
  const [snapshot, executable] = transitionsOf(machine).initial(input);
  return {
    state: stateOf(snapshot),
    context: snapshot.context,
    actions: actionsOf(executable),
    changed: true,
    snapshot,
  };
}

/** Applies one event to a stored lifecycle. Pure: returns the next lifecycle and the actions as data. */
export function stepPayment(
  machine: PaymentMachine,
  lifecycle: LifecycleState,
  event: PaymentMachineEvent,
  previous?: StepResult,
): StepResult {
  // The snapshot of the step that led here, when it is this lifecycle: no need to rebuild it.
  const before =
    previous !== undefined && sameLifecycle(previous, lifecycle)
      ? previous.snapshot
      : restoreSnapshot(machine, lifecycle);
  const [after, executable] = transitionsOf(machine).next(before, event);
  const actions = actionsOf(executable);
  const state = stateOf(after);
  return {
    state,
    context: after.context,
    actions,
    changed: state !== lifecycle.state || after.context !== before.context || actions.length > 0,
    snapshot: after,
  };
}
