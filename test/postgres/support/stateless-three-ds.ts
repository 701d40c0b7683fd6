import { err, ok } from 'neverthrow';
import { createSandboxThreeDSProvider, verifyChallengeResponse } from '../../../adapters/sandbox/index.js';
import type { ThreeDSProvider } from '../../../src/ports/three-ds-provider.js';
import { CHALLENGE_SECRET } from './postgres-engine.js';

/**
 * A 3DS provider whose challenge results are verified by their signature alone, so that a
 * challenge started by one process can be answered in another (the sandbox provider keeps
 * its challenges in memory). `authenticate` is the sandbox's.
 */
export function createStatelessThreeDS(): ThreeDSProvider {
  const sandbox = createSandboxThreeDSProvider({
    challengeUrl: (paymentId, transactionId) => `https://acs.sandbox.test/challenge/${paymentId}/${transactionId}`,
    secret: CHALLENGE_SECRET,
  });
  return {
    authenticate: (request) => sandbox.authenticate(request),
    async resolveChallenge(request) {
      const response = verifyChallengeResponse({ secret: CHALLENGE_SECRET, cres: request.cres });
      if (
        response === null ||
        response.paymentId !== request.paymentId ||
        response.transactionId !== request.transactionId
      ) {
        return err({
          code: 'invalid_challenge',
          message: 'The challenge result does not belong here',
          retryable: false,
        });
      }
      return ok(
        response.decision === 'authorise'
          ? { kind: 'accepted', transStatus: 'Y', eci: '05' }
          : { kind: 'refused', transStatus: 'N' },
      );
    },
  };
}
