import { ok } from 'neverthrow';
import type { CardScheme } from '../../src/domain/card.js';
import type { ThreeDSProtocolVersion } from '../../src/domain/three-ds.js';
import type { PortFailure, PortResult } from '../../src/ports/port-result.js';

/** A challenge the simulated 3DS server started, as the issuer page may show it. */
export interface SandboxChallenge {
  readonly paymentId: string;
  readonly transactionId: string;
  readonly reason: 'challenge_required' | 'data_mismatch';
  readonly amount: number;
  readonly currency: string;
  readonly scheme: CardScheme;
  readonly last4: string;
  /** The directory server's transaction id and the protocol version of the lookup, given again with the result. */
  readonly dsTransactionId: string;
  readonly protocolVersion: ThreeDSProtocolVersion;
  readonly status: 'pending' | 'authorised' | 'refused';
}

/** What the cardholder's answer makes of a pending challenge. */
export type SandboxChallengeAnswer = 'authorised' | 'refused';

/**
 * Where the simulated issuer keeps its challenges, so that any instance serves the page and takes
 * the answer. In memory by default; `createPostgresSandboxStores` (`paystate/postgres`) shares them.
 */
export interface SandboxChallengeStore {
  /** Keeps a new challenge (its transaction id is new). */
  keep(challenge: SandboxChallenge): PortResult<void, PortFailure>;
  /** The challenge of a transaction, or null. */
  find(transactionId: string): PortResult<SandboxChallenge | null, PortFailure>;
  /**
   * Moves a pending challenge to `status` in one step; answers the challenge as kept afterwards
   * (unchanged when it was no longer pending: the first answer wins), or null when there is none.
   */
  resolve(transactionId: string, status: SandboxChallengeAnswer): PortResult<SandboxChallenge | null, PortFailure>;
}

/** The in-memory `SandboxChallengeStore`: one process, answered at once. */
export function createMemorySandboxChallengeStore(): SandboxChallengeStore {
  const challenges = new Map<string, SandboxChallenge>();
  return {
    keep(challenge) {
      challenges.set(challenge.transactionId, challenge);
      return ok(undefined);
    },
    find: (transactionId) => ok(challenges.get(transactionId) ?? null),
    resolve(transactionId, status) {
      const kept = challenges.get(transactionId);
      if (kept === undefined || kept.status !== 'pending') return ok(kept ?? null);
      const resolved = { ...kept, status };
      challenges.set(transactionId, resolved);
      return ok(resolved);
    },
  };
}
