import type { InternalState, PublicState } from '../domain/payment-state.js';

const PUBLIC_STATE: Readonly<Record<InternalState, PublicState>> = {
  awaiting_card_data: 'processing',
  authenticating: 'processing',
  awaiting_challenge: 'processing',
  authorizing: 'processing',
  succeeded: 'succeeded',
  failed: 'failed',
  expired: 'expired',
};

/** Maps an internal state to the public `state` of docs/state-machine.md. */
export function toPublicState(state: InternalState): PublicState {
  return PUBLIC_STATE[state];
}

/** True exactly when the cardholder must act, i.e. when a payment carries `next.redirect`. */
export function cardholderMustAct(state: InternalState): boolean {
  return state === 'awaiting_card_data' || state === 'awaiting_challenge';
}
