import { randomUUID } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import type { CardScheme } from '../../src/domain/card.js';
import type {
  AuthenticationRequest,
  AuthenticationResult,
  ChallengeResult,
  ThreeDSError,
  ThreeDSProvider,
} from '../../src/ports/three-ds-provider.js';
import { verifyChallengeResponse } from './challenge-response.js';
import { eciFor } from './eci.js';
import { afterLatency } from './latency.js';
import { sandboxCardBehaviour } from './test-cards.js';

/** A call to the simulated 3DS server, as the `failWith` hook sees it (never with card data). */
export type SandboxThreeDSCall =
  | { readonly operation: 'authenticate'; readonly paymentId: string }
  | { readonly operation: 'resolveChallenge'; readonly paymentId: string; readonly transactionId: string };

/** Options of `createSandboxThreeDSProvider`: where the issuer page is, and the key its results are signed with. */
export interface SandboxThreeDSOptions {
  /** URL of the simulated issuer (ACS) page for a challenge. */
  readonly challengeUrl: (paymentId: string, transactionId: string) => string;
  /** HMAC key shared with the issuer page, which signs its results with `createChallengeResponse`. */
  readonly secret: string;
  /**
   * 3DS transaction ids; default a random UUID (version 4, lower case), the format of EMV 3DS
   * transaction ids (`threeDSServerTransID`, `acsTransID`, `dsTransID`).
   */
  readonly transactionId?: () => string;
  /**
   * Delay before every answer, in milliseconds (simulated network latency). Without it (0, the
   * default) every answer is a plain `Result`, given at once.
   */
  readonly latencyMs?: number;
  /** Fault injection: return an error to answer the call with it instead (nothing is recorded then). */
  readonly failWith?: (call: SandboxThreeDSCall) => ThreeDSError | undefined;
}

/** A challenge the simulated 3DS server started, as the issuer page may show it. */
export interface SandboxChallenge {
  readonly paymentId: string;
  readonly transactionId: string;
  readonly reason: 'challenge_required' | 'data_mismatch';
  readonly amount: number;
  readonly currency: string;
  readonly scheme: CardScheme;
  readonly last4: string;
  readonly status: 'pending' | 'authorised' | 'refused';
}

/** The sandbox 3DS provider: the port, plus what the simulated issuer page needs to know. */
export interface SandboxThreeDSProvider extends ThreeDSProvider {
  /**
   * The challenge of transaction `transactionId`, if it was started for `paymentId`. Like a real
   * 3DS server, every `authenticate` is its own transaction: a second lookup for the same payment
   * does not void the first (the engine decides which one the payment follows).
   */
  challenge(paymentId: string, transactionId: string): SandboxChallenge | undefined;
}

function invalidChallenge(message: string): ThreeDSError {
  return { code: 'invalid_challenge', message, retryable: false };
}

/**
 * Simulated EMV 3DS server and issuer ACS. Outcomes are decided by the card number
 * (`SANDBOX_TEST_CARDS`); other numbers need no 3DS. Challenges live in memory; their result
 * (`cres`) must be signed with `secret` and belong to the payment and transaction it resolves,
 * and is accepted once.
 */
export function createSandboxThreeDSProvider(options: SandboxThreeDSOptions): SandboxThreeDSProvider {
  if (options.secret.length === 0) throw new TypeError('createSandboxThreeDSProvider: secret must not be empty');
  const nextTransactionId = options.transactionId ?? (() => randomUUID());
  const latencyMs = options.latencyMs ?? 0;
  const challenges = new Map<string, SandboxChallenge>();

  function authenticateNow(request: AuthenticationRequest): AuthenticationResult {
    const { card } = request;
    const behaviour = sandboxCardBehaviour(card.number).threeDS;
    if (behaviour === 'not_required') return { kind: 'not_required' };

    const transactionId = nextTransactionId();
    switch (behaviour) {
      case 'frictionless':
        return { kind: 'authenticated', transStatus: 'Y', eci: eciFor(card.scheme, 'Y'), transactionId };
      case 'rejected':
        return { kind: 'rejected', transStatus: 'R', transactionId };
      case 'unavailable':
        return { kind: 'unavailable', transStatus: 'U', transactionId };
      case 'challenge':
      case 'frictionless_mismatch': {
        const reason = behaviour === 'challenge' ? 'challenge_required' : 'data_mismatch';
        challenges.set(transactionId, {
          paymentId: request.paymentId,
          transactionId,
          reason,
          amount: request.amount,
          currency: request.currency,
          scheme: card.scheme,
          last4: card.number.slice(-4),
          status: 'pending',
        });
        return {
          kind: 'challenge',
          reason,
          transactionId,
          challengeUrl: options.challengeUrl(request.paymentId, transactionId),
        };
      }
    }
  }

  function resolveNow(request: {
    readonly paymentId: string;
    readonly transactionId: string;
    readonly cres: string;
  }): Result<ChallengeResult, ThreeDSError> {
    const response = verifyChallengeResponse({ secret: options.secret, cres: request.cres });
    if (response === null) {
      return err(invalidChallenge('The challenge result is malformed or its signature is invalid'));
    }
    if (response.paymentId !== request.paymentId || response.transactionId !== request.transactionId) {
      return err(invalidChallenge('The challenge result belongs to another payment or transaction'));
    }
    const started = challenges.get(request.transactionId);
    if (started === undefined || started.paymentId !== request.paymentId) {
      return err(invalidChallenge('No challenge was started for this payment and transaction'));
    }
    if (started.status !== 'pending') {
      // The same result posted again (a browser re-post, or an engine retry after a time-out)
      // gets the same answer; a different decision for a resolved challenge does not.
      const same = (started.status === 'authorised') === (response.decision === 'authorise');
      if (!same) return err(invalidChallenge('This challenge was already resolved'));
      return ok(
        started.status === 'authorised'
          ? { kind: 'accepted', transStatus: 'Y', eci: eciFor(started.scheme, 'Y') }
          : { kind: 'refused', transStatus: 'N' },
      );
    }

    if (response.decision === 'authorise') {
      challenges.set(request.transactionId, { ...started, status: 'authorised' });
      return ok({ kind: 'accepted', transStatus: 'Y', eci: eciFor(started.scheme, 'Y') });
    }
    challenges.set(request.transactionId, { ...started, status: 'refused' });
    return ok({ kind: 'refused', transStatus: 'N' });
  }

  return {
    authenticate(request) {
      const failure = options.failWith?.({ operation: 'authenticate', paymentId: request.paymentId });
      // Decide before the simulated latency, so that concurrent calls see each other's state.
      const result: Result<AuthenticationResult, ThreeDSError> =
        failure === undefined ? ok(authenticateNow(request)) : err(failure);
      return afterLatency(latencyMs, result);
    },

    resolveChallenge(request) {
      const failure = options.failWith?.({
        operation: 'resolveChallenge',
        paymentId: request.paymentId,
        transactionId: request.transactionId,
      });
      const result: Result<ChallengeResult, ThreeDSError> = failure === undefined ? resolveNow(request) : err(failure);
      return afterLatency(latencyMs, result);
    },

    challenge(paymentId, transactionId) {
      const started = challenges.get(transactionId);
      return started?.paymentId === paymentId ? started : undefined;
    },
  };
}
