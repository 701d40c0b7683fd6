import type { AnyActorRef, AnyEventObject, InspectionEvent, Observer } from 'xstate';
import type { PaymentMachine } from '../machine/payment-machine.js';
import type { StepResult } from '../machine/step-payment.js';

/**
 * What a host passes as `inspect`: the same as XState's `createActor(machine, { inspect })`. It
 * may be `async` (forward events to a remote inspector): a promise it returns is not awaited, and
 * its rejection is swallowed like a throw.
 */
export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

export interface Inspection {
  /** A payment was created: announce its actor and its first snapshot. */
  started(paymentId: string, event: AnyEventObject, step: StepResult): void;
  /** A stored payment took an event. */
  stepped(paymentId: string, event: AnyEventObject, step: StepResult): void;
}

/** Swallows the rejection of what an inspector returned, when it is a promise or another thenable. */
function ignoreRejection(returned: unknown): void {
  if ((typeof returned !== 'object' && typeof returned !== 'function') || returned === null) return;
  if (typeof (returned as { then?: unknown }).then !== 'function') return;
  // `Promise.resolve` adopts any thenable, and a `then` that throws becomes a rejection too.
  Promise.resolve(returned as PromiseLike<unknown>).catch(() => undefined);
}

/**
 * Turns the engine's pure steps into XState inspection events, so a host can attach an
 * inspector (`@statelyai/inspect`, or any `(event) => void`). The engine runs no live actors:
 * each payment appears as one actor whose `sessionId` is the payment id, across commands and
 * processes. The engine reports a step only once the write that stores it has succeeded (see
 * `inspectWhenStored`). Errors the inspector throws, and rejections of a promise it returns, are
 * swallowed: inspection never breaks a payment, nor the process.
 */
export function createInspection(machine: PaymentMachine, inspect: Inspect | undefined): Inspection | undefined {
  if (inspect === undefined) return undefined;
  const emit = (event: InspectionEvent): void => {
    try {
      // An async inspector's promise is not awaited: the payment does not wait for it.
      const returned: unknown = typeof inspect === 'function' ? inspect(event) : inspect.next?.(event);
      ignoreRejection(returned);
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
