import type { CardData } from '../domain/card.js';
import type { PortFailure, PortResult } from './port-result.js';

/** `unavailable`: the vault could not be reached; `retryable` says whether the same call may succeed. */
export type CardVaultError = PortFailure<'unavailable'>;

/**
 * Holds raw card data between 3DS and authorization when a challenge sits in between.
 * PCI DSS 3.3.1.2 forbids keeping the CVC after authorization; `take` removes what it returns,
 * and implementations must drop entries at `expiresAt`. In production back it with a PCI DSS
 * compliant vault; the in-memory adapter keeps it in process memory only.
 */
export interface CardVault {
  /** Keeps the card of `paymentId` until `take` or `expiresAt` (epoch ms), replacing any it held. */
  put(paymentId: string, card: CardData, expiresAt: number): PortResult<void, CardVaultError>;
  /** Returns and forgets the card, or null when it is gone (expired, taken, process restarted). */
  take(paymentId: string): PortResult<CardData | null, CardVaultError>;
  /**
   * Optional: deletes every card whose `expiresAt` is at or before `now`, answering how many. The
   * sweeper calls it once per sweep, so a vault that outlives processes drops abandoned cards.
   */
  purgeExpired?(now: number): PortResult<number, CardVaultError>;
}
