import { assign, initialTransition, setup, transition } from 'xstate';
import type { DomainEventType } from '../domain/domain-event.js';
import type { FailureReason } from '../domain/failure-reason.js';
import type { OperationKind, OperationState, OperationStatus } from '../domain/money-operation.js';
import { DEFAULT_INQUIRY_DELAYS, inquiryDelay } from './inquiry-schedule.js';

/** The part of a capture, cancel or refund its lifecycle decides on; kept on the operation record. */
export interface OperationMachineContext {
  readonly status: OperationStatus | null;
  readonly failureReason: FailureReason | null;
  readonly acquirerReference: string | null;
  readonly nextInquiryAt: number | null;
  readonly inquiryAttempts: number;
  readonly notFoundAnswers: number;
}

/** What an operation inquiry found, as the machine takes it (`pending`: no final answer yet). */
export type OperationInquiryAnswer =
  | { readonly kind: 'succeeded'; readonly reference: string }
  | { readonly kind: 'declined'; readonly reason: FailureReason }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'pending' };

/** Everything that can happen to an operation; `at` is epoch ms from the clock port. */
export type OperationMachineEvent =
  | { readonly type: 'operation.succeeded'; readonly at: number; readonly reference: string }
  | { readonly type: 'operation.declined'; readonly at: number; readonly reason: FailureReason }
  | { readonly type: 'operation.unknown'; readonly at: number }
  | { readonly type: 'inquiry.answered'; readonly at: number; readonly outcome: OperationInquiryAnswer };

/** Policy of an operation's lifecycle; every field has a default. */
export interface OperationMachineOptions {
  /** After this long without an answer, the sweeper inquires (a process died mid-call). Default 2 minutes. */
  readonly operationStaleAfterMs?: number;
  /** Delays between inquiries about an unknown outcome; the last one repeats. */
  readonly inquiryDelaysMs?: readonly number[];
  /** `not_found` answers believed before the operation fails (`processing_error`). Default 3. */
  readonly notFoundIsFinalAfterInquiries?: number;
}

/** The domain events each kind's machine emits when it succeeds and when it fails (none: null). */
const EVENTS: Readonly<Record<OperationKind, { succeeded: DomainEventType; failed: DomainEventType | null }>> = {
  capture: { succeeded: 'payment.captured', failed: 'payment.capture_failed' },
  cancel: { succeeded: 'payment.canceled', failed: null },
  refund: { succeeded: 'refund.succeeded', failed: 'refund.failed' },
};

/**
 * The lifecycle of one kind of money operation: `processing` (`requested`, then `unknown` while
 * the outcome is unknown and inquiries run) until `succeeded` or `failed`, both final. Stepped
 * purely by the engine (`startOperation`, `stepOperation`), like the payment machine; the
 * acquirer call is the `callAcquirer` action, asked for once, on entry.
 */
export function createOperationMachine(kind: OperationKind, options: OperationMachineOptions = {}) {
  const staleAfter = options.operationStaleAfterMs ?? 2 * 60 * 1000;
  const delays = options.inquiryDelaysMs ?? DEFAULT_INQUIRY_DELAYS;
  const notFoundLimit = options.notFoundIsFinalAfterInquiries ?? 3;
  const events = EVENTS[kind];
  const settled = { status: null, nextInquiryAt: null } as const;
  return setup({
    types: {
      context: {} as OperationMachineContext,
      events: {} as OperationMachineEvent,
      input: {} as { readonly at: number },
    },
    actions: {
      callAcquirer: () => undefined,
      emitEvent: (_, _params: { event: DomainEventType }) => undefined,
      markUnknown: assign({
        status: 'unknown' as const,
        nextInquiryAt: ({ context, event }) => event.at + inquiryDelay(context.inquiryAttempts, delays),
        inquiryAttempts: ({ context }) => context.inquiryAttempts + 1,
      }),
      countNotFound: assign({ notFoundAnswers: ({ context }) => context.notFoundAnswers + 1 }),
      settleSucceeded: assign({
        ...settled,
        acquirerReference: ({ event }) =>
          event.type === 'operation.succeeded'
            ? event.reference
            : event.type === 'inquiry.answered' && event.outcome.kind === 'succeeded'
              ? event.outcome.reference
              : null,
      }),
      settleFailed: assign({
        ...settled,
        failureReason: ({ event }) =>
          event.type === 'operation.declined'
            ? event.reason
            : event.type === 'inquiry.answered' && event.outcome.kind === 'declined'
              ? event.outcome.reason
              : 'processing_error',
      }),
    },
    guards: {
      inquirySucceeded: ({ event }) => event.type === 'inquiry.answered' && event.outcome.kind === 'succeeded',
      inquiryDeclined: ({ event }) => event.type === 'inquiry.answered' && event.outcome.kind === 'declined',
      inquiryNotFound: ({ event }) => event.type === 'inquiry.answered' && event.outcome.kind === 'not_found',
      notFoundForGood: ({ context, event }) =>
        event.type === 'inquiry.answered' &&
        event.outcome.kind === 'not_found' &&
        context.notFoundAnswers + 1 >= notFoundLimit,
    },
  }).createMachine({
    id: kind,
    context: ({ input }) => ({
      status: 'requested',
      failureReason: null,
      acquirerReference: null,
      nextInquiryAt: input.at + staleAfter,
      inquiryAttempts: 0,
      notFoundAnswers: 0,
    }),
    initial: 'processing',
    states: {
      processing: {
        initial: 'requested',
        on: {
          'inquiry.answered': [
            { guard: 'inquirySucceeded', target: 'succeeded' },
            { guard: 'inquiryDeclined', target: 'failed' },
            { guard: 'notFoundForGood', target: 'failed' },
            {
              guard: 'inquiryNotFound',
              target: '.unknown',
              reenter: true,
              actions: 'countNotFound',
            },
            { target: '.unknown', reenter: true },
          ],
        },
        states: {
          requested: {
            entry: 'callAcquirer',
            on: {
              'operation.succeeded': '#' + kind + '.succeeded',
              'operation.declined': '#' + kind + '.failed',
              'operation.unknown': 'unknown',
            },
          },
          unknown: { entry: 'markUnknown' },
        },
      },
      succeeded: {
        type: 'final',
        entry: ['settleSucceeded', { type: 'emitEvent', params: { event: events.succeeded } }],
      },
      failed: {
        type: 'final',
        entry:
          events.failed === null
            ? ['settleFailed']
            : ['settleFailed', { type: 'emitEvent', params: { event: events.failed } }],
      },
    },
  });
}

/** An operation machine (`createOperationMachine`). */
export type OperationMachine = ReturnType<typeof createOperationMachine>;

/** What a step of an operation gives back: its state and context, and the actions asked for. */
export interface OperationStep {
  readonly state: OperationState;
  readonly context: OperationMachineContext;
  /** Whether the acquirer is to be called now (only on the first step). */
  readonly callAcquirer: boolean;
  /** Domain events to record with this step. */
  readonly events: readonly DomainEventType[];
  readonly changed: boolean;
}

type Snapshot = ReturnType<OperationMachine['resolveState']>;

function stepOf(
  snapshot: Snapshot,
  actions: ReadonlyArray<{ type: string; params?: unknown }>,
  changed: boolean,
): OperationStep {
  const value = snapshot.value;
  const state = (typeof value === 'string' ? value : 'processing') as OperationState;
  return {
    state,
    context: snapshot.context,
    callAcquirer: actions.some((action) => action.type === 'callAcquirer'),
    events: actions
      .filter((action) => action.type === 'emitEvent')
      .map((action) => (action.params as { event: DomainEventType }).event),
    changed,
  };
}

/** The first step of a new operation: `processing`, the acquirer to be called. Pure. */
export function startOperation(machine: OperationMachine, at: number): OperationStep {
  const [snapshot, actions] = initialTransition(machine, { at });
  return stepOf(snapshot, actions, true);
}

/** Applies one event to a stored operation's lifecycle. Pure. */
export function stepOperation(
  machine: OperationMachine,
  stored: { readonly state: OperationState; readonly context: OperationMachineContext },
  event: OperationMachineEvent,
): OperationStep {
  const value = stored.state === 'processing' ? { processing: stored.context.status ?? 'requested' } : stored.state;
  const before = machine.resolveState({ value, context: stored.context } as Parameters<
    OperationMachine['resolveState']
  >[0]);
  const [after, actions] = transition(machine, before, event);
  return stepOf(after, actions, after !== before);
}
