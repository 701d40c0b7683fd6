/** The fine-grained lifecycle state of a payment, as the machine knows it. */
export const INTERNAL_STATES = [
  'awaiting_card_data',
  'authenticating',
  'awaiting_challenge',
  'authorizing',
  'succeeded',
  'failed',
  'expired',
] as const;
export type InternalState = (typeof INTERNAL_STATES)[number];

/** The public `state` of a payment: always one of the four the API specification names. */
export const PUBLIC_STATES = ['processing', 'succeeded', 'failed', 'expired'] as const;
export type PublicState = (typeof PUBLIC_STATES)[number];

export const FINAL_STATES: ReadonlySet<InternalState> = new Set(['succeeded', 'failed', 'expired']);

export function isFinalState(state: InternalState): boolean {
  return FINAL_STATES.has(state);
}

/** Where an authorization stands while the payment is `authorizing`. */
export type AuthorizationStatus = 'requested' | 'unknown';
