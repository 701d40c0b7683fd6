import type { PaymentEngine } from '../../../src/engine/payment-engine.js';
import type { Clock } from '../../../src/ports/clock.js';
import type { CredentialStore } from '../../../src/ports/credential-store.js';
import type { Logger } from '../../../src/ports/logger.js';
import type { ChallengeDecision, SandboxThreeDSProvider } from '../../sandbox/index.js';

/** What the sandbox's pages (issuer, return page, hosted page) need of the sandbox app. */
export interface SandboxPageDeps {
  readonly engine: PaymentEngine;
  readonly credentials: CredentialStore;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The deadline of each credential store call. */
  readonly storeTimeoutMs: number;
  /** The simulated 3DS provider whose challenges the issuer page shows. */
  readonly threeDS: Pick<SandboxThreeDSProvider, 'challenge'>;
  /** The signed challenge result the issuer page posts back for the cardholder's decision. */
  challengeResponse(paymentId: string, transactionId: string, decision: ChallengeDecision): string;
  /** The sandbox's public origin, for the return page links. */
  readonly baseUrl: () => string;
  /** The key of the pages' CSRF tokens (instances given the same key share their pages). */
  readonly secrets: { readonly csrf: string };
}
