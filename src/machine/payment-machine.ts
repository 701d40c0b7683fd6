import { assign, setup } from 'xstate';
import type { FailureReason } from '../domain/failure-reason.js';
import type { PaymentFlow } from '../domain/payment-record.js';
import type { AuthorizationStatus } from '../domain/payment-state.js';
import type { DomainEventType } from '../domain/domain-event.js';
import { DEFAULT_INQUIRY_DELAYS, inquiryDelay } from './inquiry-schedule.js';
import type { PaymentMachineEvent } from './payment-machine-events.js';

/** The part of a payment the lifecycle decides on. The engine keeps it on the stored record. */
export interface PaymentMachineContext {
  readonly flow: PaymentFlow;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly failureReason: FailureReason | null;
  readonly authorizationStatus: AuthorizationStatus | null;
  readonly nextInquiryAt: number | null;
  readonly inquiryAttempts: number;
  readonly notFoundAnswers: number;
}

/** What a new payment's machine starts from: its flow and the time it was created (epoch ms). */
export interface PaymentMachineInput {
  readonly flow: PaymentFlow;
  readonly at: number;
}

/** Policy of the lifecycle. Every field has a default (docs/state-machine.md). */
export interface PaymentMachineOptions {
  /** How long a hosted payment waits for card data. Default 60 minutes. */
  readonly hostedPageTimeoutMs?: number;
  /** How long a 3DS challenge waits for the cardholder. Default 10 minutes. */
  readonly challengeTimeoutMs?: number;
  /** Authorize when 3DS could not be performed (transStatus U), without liability shift. Default true. */
  readonly authorizeWhenAuthenticationUnavailable?: boolean;
  /**
   * After this long without an answer, an authorization is treated as unknown and the sweeper
   * inquires (covers a process that died between the acquirer call and the commit). Default 2 minutes.
   */
  readonly authorizationStaleAfterMs?: number;
  /** Delays between inquiries about an unknown authorization; the last one repeats. */
  readonly inquiryDelaysMs?: readonly number[];
  /**
   * How many inquiries must have found nothing before "the acquirer never saw this payment" is
   * believed and the payment fails. Earlier `not_found` answers count as "not yet": an
   * authorization still in flight, or an acquirer whose inquiry index lags, must not turn a
   * charged card into a failed payment. Default 3 (at least 2 min 40 s after the first).
   */
  readonly notFoundIsFinalAfterInquiries?: number;
}

/** `PaymentMachineOptions` with every default filled in. */
export type ResolvedPaymentMachineOptions = Required<PaymentMachineOptions>;

/** The lifecycle policy a machine has when `PaymentMachineOptions` leaves a field out. */
export const DEFAULT_PAYMENT_MACHINE_OPTIONS: ResolvedPaymentMachineOptions = Object.freeze({
  hostedPageTimeoutMs: 60 * 60 * 1000,
  challengeTimeoutMs: 10 * 60 * 1000,
  authorizeWhenAuthenticationUnavailable: true,
  authorizationStaleAfterMs: 2 * 60 * 1000,
  inquiryDelaysMs: DEFAULT_INQUIRY_DELAYS,
  notFoundIsFinalAfterInquiries: 3,
});

/**
 * Side effects the machine asks for, as data. The engine performs them through ports:
 * - `startAuthentication`: run the 3DS lookup with the card data held in memory
 * - `authorize`: ask the acquirer to authorize (at most once per payment)
 * - `emitEvent`: record a domain event in the outbox with the state change
 */
export type PaymentMachineAction =
  | { readonly type: 'startAuthentication' }
  | { readonly type: 'authorize' }
  | { readonly type: 'emitEvent'; readonly event: DomainEventType };

const at = (event: PaymentMachineEvent): number => event.at;

/** A payment still waiting for the cardholder, canceled by the client: `failed` / `canceled` (docs/http-api.md, Captures). */
const CANCELED = {
  target: 'failed',
  actions: ['failCanceled', { type: 'emitEvent', params: { event: 'payment.canceled' } }],
} as const;

/** A duration of the policy: a finite number of milliseconds, at least 0. */
function milliseconds(name: string, value: number): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw new RangeError(`${name} needs a finite number of milliseconds of at least 0 (got ${String(value)})`);
}

/**
 * The policy: each option given, else its default. An option present but `undefined` (a caller
 * without `exactOptionalPropertyTypes`, or one that passes on a setting it does not have) takes
 * the default too: spread over the defaults it made every deadline `NaN`, and a payment with a
 * `NaN` deadline never expires. A `RangeError` for a duration that is not a finite number from 0,
 * or a count of inquiries that is not a whole number from 1.
 */
function resolvePolicy(options: PaymentMachineOptions): ResolvedPaymentMachineOptions {
  const defaults = DEFAULT_PAYMENT_MACHINE_OPTIONS;
  const notFoundIsFinalAfterInquiries = options.notFoundIsFinalAfterInquiries ?? defaults.notFoundIsFinalAfterInquiries;
  if (!Number.isSafeInteger(notFoundIsFinalAfterInquiries) || notFoundIsFinalAfterInquiries < 1) {
    throw new RangeError(
      `notFoundIsFinalAfterInquiries needs a whole number of at least 1 (got ${String(notFoundIsFinalAfterInquiries)})`,
    );
  }
  return {
    hostedPageTimeoutMs: milliseconds(
      'hostedPageTimeoutMs',
      options.hostedPageTimeoutMs ?? defaults.hostedPageTimeoutMs,
    ),
    challengeTimeoutMs: milliseconds('challengeTimeoutMs', options.challengeTimeoutMs ?? defaults.challengeTimeoutMs),
    authorizeWhenAuthenticationUnavailable:
      options.authorizeWhenAuthenticationUnavailable ?? defaults.authorizeWhenAuthenticationUnavailable,
    authorizationStaleAfterMs: milliseconds(
      'authorizationStaleAfterMs',
      options.authorizationStaleAfterMs ?? defaults.authorizationStaleAfterMs,
    ),
    inquiryDelaysMs: (options.inquiryDelaysMs ?? defaults.inquiryDelaysMs).map((delay) =>
      milliseconds('inquiryDelaysMs', delay),
    ),
    notFoundIsFinalAfterInquiries,
  };
}

/**
 * Builds the payment lifecycle machine. It is never run as a live actor by the engine: the
 * engine steps it with XState's pure `initialTransition` / `transition`, persists the result,
 * and performs the actions it returns.
 */
export function createPaymentMachine(options: PaymentMachineOptions = {}) {
  const policy = resolvePolicy(options);

  return setup({
    types: {
      context: {} as PaymentMachineContext,
      events: {} as PaymentMachineEvent,
      input: {} as PaymentMachineInput,
    },
    actions: {
      startAuthentication: () => undefined,
      authorize: () => undefined,
      emitEvent: (_, _params: { event: DomainEventType }) => undefined,
      clearDeadline: assign({ expiresAt: null }),
      startHostedDeadline: assign({
        expiresAt: ({ context }) => context.createdAt + policy.hostedPageTimeoutMs,
      }),
      startChallengeDeadline: assign({
        expiresAt: ({ event }) => at(event) + policy.challengeTimeoutMs,
      }),
      markAuthorizationRequested: assign({
        expiresAt: null,
        authorizationStatus: 'requested' as const,
        nextInquiryAt: ({ event }) => at(event) + policy.authorizationStaleAfterMs,
      }),
      markAuthorizationUnknown: assign({
        authorizationStatus: 'unknown' as const,
        nextInquiryAt: ({ context, event }) =>
          at(event) + inquiryDelay(context.inquiryAttempts, policy.inquiryDelaysMs),
        inquiryAttempts: ({ context }) => context.inquiryAttempts + 1,
      }),
      countNotFound: assign({ notFoundAnswers: ({ context }) => context.notFoundAnswers + 1 }),
      settleAuthorization: assign({ authorizationStatus: null, nextInquiryAt: null, expiresAt: null }),
      failAuthenticationRefused: assign({
        failureReason: 'authentication_refused' as const,
        expiresAt: null,
        authorizationStatus: null,
        nextInquiryAt: null,
      }),
      failAuthenticationRejected: assign({
        failureReason: 'authentication_rejected' as const,
        expiresAt: null,
        authorizationStatus: null,
        nextInquiryAt: null,
      }),
      failProcessingError: assign({
        failureReason: 'processing_error' as const,
        expiresAt: null,
        authorizationStatus: null,
        nextInquiryAt: null,
      }),
      failAuthorizationDeclined: assign({
        failureReason: ({ event }) =>
          event.type === 'authorization.declined'
            ? event.reason
            : event.type === 'inquiry.answered' && event.outcome.kind === 'declined'
              ? event.outcome.reason
              : 'declined',
        authorizationStatus: null,
        nextInquiryAt: null,
      }),
      failCanceled: assign({ failureReason: 'canceled' as const, expiresAt: null }),
      expire: assign({ expiresAt: null }),
    },
    guards: {
      isHosted: ({ context }) => context.flow === 'hosted',
      isPastDeadline: ({ context, event }) => context.expiresAt !== null && at(event) >= context.expiresAt,
      authorizeWhenUnavailable: () => policy.authorizeWhenAuthenticationUnavailable,
      inquiryApproved: ({ event }) => event.type === 'inquiry.answered' && event.outcome.kind === 'approved',
      inquiryDeclined: ({ event }) => event.type === 'inquiry.answered' && event.outcome.kind === 'declined',
      inquiryNotFound: ({ event }) => event.type === 'inquiry.answered' && event.outcome.kind === 'not_found',
      // This answer included. Failed inquiries and pending answers do not count: an outage
      // followed by one lagging `not_found` must not fail a payment the acquirer approved.
      inquiryNotFoundForGood: ({ context, event }) =>
        event.type === 'inquiry.answered' &&
        event.outcome.kind === 'not_found' &&
        context.notFoundAnswers + 1 >= policy.notFoundIsFinalAfterInquiries,
    },
  }).createMachine({
    id: 'payment',
    context: ({ input }) => ({
      flow: input.flow,
      createdAt: input.at,
      expiresAt: null,
      failureReason: null,
      authorizationStatus: null,
      nextInquiryAt: null,
      inquiryAttempts: 0,
      notFoundAnswers: 0,
    }),
    initial: 'created',
    entry: [{ type: 'emitEvent', params: { event: 'payment.created' } }],
    states: {
      created: {
        always: [
          { guard: 'isHosted', target: 'awaiting_card_data', actions: 'startHostedDeadline' },
          { target: 'authenticating' },
        ],
      },
      awaiting_card_data: {
        on: {
          'card.submitted': [
            { guard: 'isPastDeadline', target: 'expired' },
            { target: 'authenticating', actions: 'clearDeadline' },
          ],
          'expiry.due': { guard: 'isPastDeadline', target: 'expired' },
          'cancel.requested': CANCELED,
        },
      },
      authenticating: {
        entry: 'startAuthentication',
        on: {
          'authentication.not_required': 'authorizing',
          'authentication.succeeded': 'authorizing',
          'authentication.unavailable': [
            { guard: 'authorizeWhenUnavailable', target: 'authorizing' },
            { target: 'failed', actions: 'failAuthenticationRejected' },
          ],
          'authentication.challenge_required': { target: 'awaiting_challenge' },
          'authentication.data_mismatch': { target: 'awaiting_challenge' },
          'authentication.rejected': { target: 'failed', actions: 'failAuthenticationRejected' },
          'authentication.error': { target: 'failed', actions: 'failProcessingError' },
        },
      },
      awaiting_challenge: {
        entry: ['startChallengeDeadline', { type: 'emitEvent', params: { event: 'payment.action_required' } }],
        on: {
          'challenge.accepted': [
            { guard: 'isPastDeadline', target: 'expired' },
            { target: 'authorizing', actions: 'clearDeadline' },
          ],
          'challenge.refused': [
            { guard: 'isPastDeadline', target: 'expired' },
            { target: 'failed', actions: 'failAuthenticationRefused' },
          ],
          'expiry.due': { guard: 'isPastDeadline', target: 'expired' },
          'cancel.requested': CANCELED,
        },
      },
      authorizing: {
        initial: 'requested',
        on: {
          'inquiry.answered': [
            { guard: 'inquiryApproved', target: 'succeeded' },
            { guard: 'inquiryDeclined', target: 'failed', actions: 'failAuthorizationDeclined' },
            { guard: 'inquiryNotFoundForGood', target: 'failed', actions: 'failProcessingError' },
            { guard: 'inquiryNotFound', target: '.unknown', reenter: true, actions: 'countNotFound' },
            { target: '.unknown', reenter: true },
          ],
        },
        states: {
          requested: {
            entry: ['markAuthorizationRequested', 'authorize'],
            on: {
              'authorization.approved': '#payment.succeeded',
              'authorization.declined': { target: '#payment.failed', actions: 'failAuthorizationDeclined' },
              'authorization.unknown': 'unknown',
            },
          },
          unknown: {
            entry: 'markAuthorizationUnknown',
          },
        },
      },
      succeeded: {
        type: 'final',
        entry: ['settleAuthorization', { type: 'emitEvent', params: { event: 'payment.succeeded' } }],
      },
      failed: {
        type: 'final',
        entry: { type: 'emitEvent', params: { event: 'payment.failed' } },
      },
      expired: {
        type: 'final',
        entry: ['expire', { type: 'emitEvent', params: { event: 'payment.expired' } }],
      },
    },
  });
}

/** The lifecycle machine `createPaymentMachine` builds (an XState v5 `StateMachine`). */
export type PaymentMachine = ReturnType<typeof createPaymentMachine>;

/** The machine with default policy (used for the diagram and by default in the engine). */
export const paymentMachine: PaymentMachine = createPaymentMachine();
