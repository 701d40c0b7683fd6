import type { AnyActorRef, AnyEventObject, InspectionEvent, Observer } from 'xstate';
import type { PaymentMachine } from '../machine/payment-machine.js';
import type { StepResult } from '../machine/step-payment.js';

/** What a host passes as `inspect`: the same as XState's `createActor(machine, { inspect })`. */
export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

export interface Inspection {
  /** A payment was created: announce its actor and its first snapshot. */
  started(paymentId: string, event: AnyEventObject, step: StepResult): void;
  /** A stored payment took an event. */
  stepped(paymentId: string, event: AnyEventObject, step: StepResult): void;
}

/**
 * Turns the engine's pure steps into XState inspection events, so a host can attach an
 * inspector (`@statelyai/inspect`, or any `(event) => void`). The engine runs no live actors:
 * each payment appears as one actor whose `sessionId` is the payment id, across commands and
 * processes. Errors thrown by the inspector are swallowed: inspection never breaks a payment.
 */
export function createInspection(machine: PaymentMachine, inspect: Inspect | undefined): Inspection | undefined {
  if (inspect === undefined) return undefined;
  const emit = (event: InspectionEvent): void => {
    try {
      if (typeof inspect === 'function') inspect(event);
      else inspect.next?.(event);
    } catch {
      // An inspector's failure is not the payment's.
    }
  };
  const refs = new Map<string, AnyActorRef>();
  const refOf = (paymentId: string, step: StepResult): AnyActorRef => {
    let ref = refs.get(paymentId);
    if (ref === undefined) {
      let current = step.snapshot;
      ref = {
        id: paymentId,
        sessionId: paymentId,
        src: machine,
        logic: machine,
        _parent: undefined,
        getSnapshot: () => current,
        _update: (next: typeof current) => (current = next),
      } as unknown as AnyActorRef;
      // Payments end; keep only a bounded number of refs for the ones in flight.
      if (refs.size >= 1000) refs.delete(refs.keys().next().value as string);
      refs.set(paymentId, ref);
    }
    (ref as unknown as { _update(next: unknown): void })._update(step.snapshot);
    return ref;
  };
  const report = (paymentId: string, event: AnyEventObject, step: StepResult, actor: AnyActorRef): void => {
    emit({ type: '@xstate.event', actorRef: actor, rootId: paymentId, sourceRef: undefined, event });
    for (const action of step.actions) {
      emit({
        type: '@xstate.action',
        actorRef: actor,
        rootId: paymentId,
        action: { type: action.type, params: action.type === 'emitEvent' ? { event: action.event } : undefined },
      });
    }
    emit({ type: '@xstate.snapshot', actorRef: actor, rootId: paymentId, event, snapshot: step.snapshot });
    if (step.state === 'succeeded' || step.state === 'failed' || step.state === 'expired') refs.delete(paymentId);
  };
  return {
    started(paymentId, event, step) {
      const actor = refOf(paymentId, step);
      emit({ type: '@xstate.actor', actorRef: actor, rootId: paymentId });
      report(paymentId, event, step, actor);
    },
    stepped(paymentId, event, step) {
      report(paymentId, event, step, refOf(paymentId, step));
    },
  };
}
