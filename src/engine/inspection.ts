import type { AnyActorRef, AnyEventObject, InspectionEvent, Observer } from 'xstate';
import type { PaymentMachine } from '../machine/payment-machine.js';
import type { LifecycleState, StepResult } from '../machine/step-payment.js';
import { restoreSnapshot } from '../machine/step-payment.js';

/**
 * What a host passes as `inspect`: the same as XState's `createActor(machine, { inspect })`. It
 * may be `async` (forward events to a remote inspector): a promise it returns is not awaited, and
 * its rejection is swallowed like a throw.
 */
export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

export interface Inspection {
  /** A payment was created: announce its actor and its first snapshot. */
  started(paymentId: string, event: AnyEventObject, step: StepResult): void;
  /**
   * A stored payment took an event, starting `from` there. A payment this inspection has no actor
   * for (it never saw it created, or has forgotten it) is announced first, at `from`.
   */
  stepped(paymentId: string, event: AnyEventObject, step: StepResult, from: LifecycleState | undefined): void;
}

/** How many payments' actors an inspection keeps; the one used longest ago goes first. */
export const INSPECTED_ACTORS = 1000;

type Snapshot = StepResult['snapshot'];

/** An actor ref as the inspector sees it, whose snapshot the engine moves on. */
interface InspectedActor {
  readonly ref: AnyActorRef;
  show(snapshot: Snapshot): void;
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
 * `inspectWhenStored`). Each payment's actor is announced (`@xstate.actor`) before its first
 * step this inspection reports: at its creation, or, for a payment it never saw created (created
 * by another instance or before a restart, or whose create write was stored though it could not be
 * confirmed) or has forgotten (it keeps `INSPECTED_ACTORS`, and none of a finished payment), at
 * the position the step starts from. Errors the inspector throws, and rejections of a promise it
 * returns, are swallowed: inspection never breaks a payment, nor the process.
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
  const actors = new Map<string, InspectedActor>();
  /** The payment's actor when it is kept, then kept as the one used last. */
  const known = (paymentId: string): InspectedActor | undefined => {
    const actor = actors.get(paymentId);
    if (actor !== undefined) {
      actors.delete(paymentId);
      actors.set(paymentId, actor);
    }
    return actor;
  };
  /** A new actor for the payment at `snapshot`, kept and announced to the inspector. */
  const announce = (paymentId: string, snapshot: Snapshot): InspectedActor => {
    let current = snapshot;
    const ref = {
      id: paymentId,
      sessionId: paymentId,
      src: machine,
      logic: machine,
      _parent: undefined,
      getSnapshot: () => current,
    } as unknown as AnyActorRef;
    const actor: InspectedActor = { ref, show: (next) => (current = next) };
    // Payments end; keep only a bounded number of actors for the ones in flight.
    if (actors.size >= INSPECTED_ACTORS) actors.delete(actors.keys().next().value as string);
    actors.set(paymentId, actor);
    emit({ type: '@xstate.actor', actorRef: ref, rootId: paymentId });
    return actor;
  };
  const report = (paymentId: string, event: AnyEventObject, step: StepResult, inspected: InspectedActor): void => {
    inspected.show(step.snapshot);
    const actor = inspected.ref;
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
    if (step.state === 'succeeded' || step.state === 'failed' || step.state === 'expired') actors.delete(paymentId);
  };
  return {
    started(paymentId, event, step) {
      report(paymentId, event, step, known(paymentId) ?? announce(paymentId, step.snapshot));
    },
    stepped(paymentId, event, step, from) {
      const actor =
        known(paymentId) ?? announce(paymentId, from === undefined ? step.snapshot : restoreSnapshot(machine, from));
      report(paymentId, event, step, actor);
    },
  };
}
