import { frozenSet } from './immutable.js';

/** The fine-grained lifecycle state of a payment, as the machine knows it. */
export const INTERNAL_STATES = Object.freeze([
  'awaiting_card_data',
  'authenticating',
  'awaiting_challenge',
  'authorizing',
  'succeeded',
  'failed',
  'expired',
] as const);
/** One of `INTERNAL_STATES`. */
export type InternalState = (typeof INTERNAL_STATES)[number];

/** The public `state` of a payment: always one of the four the API specification names. */
export const PUBLIC_STATES = Object.freeze(['processing', 'succeeded', 'failed', 'expired'] as const);
/** One of `PUBLIC_STATES`. */
export type PublicState = (typeof PUBLIC_STATES)[number];

/** The internal states a payment never leaves. */
export const FINAL_STATES: ReadonlySet<InternalState> = frozenSet(['succeeded', 'failed', 'expired']);

/** Whether a payment in `state` is done (`FINAL_STATES`). */
export function isFinalState(state: InternalState): boolean {
  return FINAL_STATES.has(state);
}

/** Where an authorization stands while the payment is `authorizing`. */
export type AuthorizationStatus = 'requested' | 'unknown';
