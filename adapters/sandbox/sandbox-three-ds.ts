import { randomBytes, randomUUID } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import type {
  AuthenticationRequest,
  AuthenticationResult,
  ChallengeResult,
  ThreeDSError,
  ThreeDSProvider,
} from '../../src/ports/three-ds-provider.js';
import type { PortFailure, PortResult } from '../../src/ports/port-result.js';
import type { ThreeDSProtocolVersion } from '../../src/domain/three-ds.js';
import { afterLatency, chain, type Eventually } from './chain.js';
import { verifyChallengeResponse } from './challenge-response.js';
import {
  createMemorySandboxChallengeStore,
  type SandboxChallenge,
  type SandboxChallengeStore,
} from './challenge-store.js';
import { eciFor } from './eci.js';
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
   * default) every answer is given as soon as the store answers: at once, as a plain `Result`, from
   * the in-memory one.
   */
  readonly latencyMs?: number;
  /**
   * Where the challenges are kept. Default in memory, for this process alone; several instances
   * share one (`createPostgresSandboxStores` of `paystate/postgres`).
   */
  readonly store?: SandboxChallengeStore;
  /** Fault injection: return an error to answer the call with it instead (nothing is recorded then). */
  readonly failWith?: (call: SandboxThreeDSCall) => ThreeDSError | undefined;
}

/** The sandbox 3DS provider: the port, plus what the simulated issuer page needs to know. */
export interface SandboxThreeDSProvider extends ThreeDSProvider {
  /**
   * The challenge of transaction `transactionId`, or null when none was started for `paymentId`.
   * Like a real 3DS server, every `authenticate` is its own transaction: a second lookup for the
   * same payment does not void the first (the engine decides which one the payment follows).
   */
  challenge(paymentId: string, transactionId: string): PortResult<SandboxChallenge | null, ThreeDSError>;
}

/** The EMV 3DS version the simulated 3DS server speaks. */
const PROTOCOL_VERSION: ThreeDSProtocolVersion = '2.2.0';

/** A CAVV as an ACS makes one: 20 random bytes, base64 (28 characters). */
function authenticationValue(): string {
  return randomBytes(20).toString('base64');
}

function invalidChallenge(message: string): ThreeDSError {
  return { code: 'invalid_challenge', message, retryable: false };
}

function storeFailure(failure: PortFailure): ThreeDSError {
  return { code: 'unavailable', message: `The 3DS server's store failed: ${failure.message}`, retryable: true };
}

/**
 * Simulated EMV 3DS server and issuer ACS, deciding by card number (`SANDBOX_TEST_CARDS`; others need
 * no 3DS). A challenge's result must be signed with `secret`, match its payment and transaction, and is taken once.
 */
export function createSandboxThreeDSProvider(options: SandboxThreeDSOptions): SandboxThreeDSProvider {
  if (options.secret.length === 0) throw new TypeError('createSandboxThreeDSProvider: secret must not be empty');
  const nextTransactionId = options.transactionId ?? (() => randomUUID());
  const latencyMs = options.latencyMs ?? 0;
  const store = options.store ?? createMemorySandboxChallengeStore();

  function authenticateNow(request: AuthenticationRequest): Eventually<Result<AuthenticationResult, ThreeDSError>> {
    const { card } = request;
    const behaviour = sandboxCardBehaviour(card.number).threeDS;
    if (behaviour === 'not_required') return ok({ kind: 'not_required' });

    const transactionId = nextTransactionId();
    const directory = { dsTransactionId: randomUUID(), protocolVersion: PROTOCOL_VERSION };
    switch (behaviour) {
      case 'frictionless':
        return ok({
          kind: 'authenticated',
          transStatus: 'Y',
          eci: eciFor(card.scheme, 'Y'),
          transactionId,
          authenticationValue: authenticationValue(),
          ...directory,
        });
      case 'rejected':
        return ok({ kind: 'rejected', transStatus: 'R', transactionId });
      case 'unavailable':
        return ok({ kind: 'unavailable', transStatus: 'U', transactionId, ...directory });
      case 'challenge':
      case 'frictionless_mismatch': {
        const reason = behaviour === 'challenge' ? 'challenge_required' : 'data_mismatch';
        const kept = store.keep({
          paymentId: request.paymentId,
          transactionId,
          reason,
          amount: request.amount,
          currency: request.currency,
          scheme: card.scheme,
          last4: card.number.slice(-4),
          ...directory,
          status: 'pending',
        });
        return chain(kept, (done) =>
          done.isErr()
            ? err(storeFailure(done.error))
            : ok({
                kind: 'challenge',
                reason,
                transactionId,
                challengeUrl: options.challengeUrl(request.paymentId, transactionId),
              }),
        );
      }
    }
  }

  function resolveNow(request: {
    readonly paymentId: string;
    readonly transactionId: string;
    readonly cres: string;
  }): Eventually<Result<ChallengeResult, ThreeDSError>> {
    const response = verifyChallengeResponse({ secret: options.secret, cres: request.cres });
    if (response === null) {
      return err(invalidChallenge('The challenge result is malformed or its signature is invalid'));
    }
    if (response.paymentId !== request.paymentId || response.transactionId !== request.transactionId) {
      return err(invalidChallenge('The challenge result belongs to another payment or transaction'));
    }
    const answer = response.decision === 'authorise' ? 'authorised' : 'refused';
    return chain(store.find(request.transactionId), (started) => {
      if (started.isErr()) return err(storeFailure(started.error));
      const { value } = started;
      if (value === null || value.paymentId !== request.paymentId) {
        return err(invalidChallenge('No challenge was started for this payment and transaction'));
      }
      // The first answer wins, on whichever instance; the same answer posted again (a browser
      // re-post, or an engine retry after a time-out) gets the same result, a different one does not.
      return chain(store.resolve(request.transactionId, answer), (resolved) => {
        if (resolved.isErr()) return err(storeFailure(resolved.error));
        if (resolved.value?.status !== answer) return err(invalidChallenge('This challenge was already resolved'));
        return ok<ChallengeResult>(
          answer === 'authorised'
            ? {
                kind: 'accepted',
                transStatus: 'Y',
                eci: eciFor(value.scheme, 'Y'),
                authenticationValue: authenticationValue(),
                dsTransactionId: value.dsTransactionId,
                protocolVersion: value.protocolVersion,
              }
            : { kind: 'refused', transStatus: 'N' },
        );
      });
    });
  }

  return {
    authenticate(request) {
      const failure = options.failWith?.({ operation: 'authenticate', paymentId: request.paymentId });
      // Decide before the simulated latency, so that concurrent calls see each other's state.
      const result = failure === undefined ? authenticateNow(request) : err(failure);
      return chain(result, (ready) => afterLatency(latencyMs, ready));
    },

    resolveChallenge(request) {
      const failure = options.failWith?.({
        operation: 'resolveChallenge',
        paymentId: request.paymentId,
        transactionId: request.transactionId,
      });
      const result = failure === undefined ? resolveNow(request) : err(failure);
      return chain(result, (ready) => afterLatency(latencyMs, ready));
    },

    challenge(paymentId, transactionId) {
      return chain(store.find(transactionId), (started) =>
        started.isErr()
          ? err(storeFailure(started.error))
          : ok(started.value?.paymentId === paymentId ? started.value : null),
      );
    },
  };
}
