import type { PaymentEngine } from '../../../src/engine/payment-engine.js';
import type { Clock } from '../../../src/ports/clock.js';
import type { CredentialStore } from '../../../src/ports/credential-store.js';
import type { Logger } from '../../../src/ports/logger.js';
import type { ChallengeDecision, SandboxThreeDSProvider } from '../../sandbox/index.js';

/** What the sandbox's pages (issuer, return page, hosted page) need of the sandbox app (`SandboxApp`). */
export interface SandboxPageDeps {
  /** The engine behind the API and the pages. */
  readonly engine: PaymentEngine;
  readonly credentials: CredentialStore;
  /** The clock the sandbox runs on. */
  readonly clock: Clock;
  /** The logger the sandbox writes to. */
  readonly logger: Logger;
  /** How long the API and the pages wait for the credential and idempotency stores, in ms. */
  readonly storeTimeoutMs: number;
  /** The simulated 3DS provider whose challenges the issuer page shows. */
  readonly threeDS: Pick<SandboxThreeDSProvider, 'challenge'>;
  /** Signs the simulated issuer's answer (`cres`) to a challenge, as the issuer page does. */
  challengeResponse(paymentId: string, transactionId: string, decision: ChallengeDecision): string;
  /** The server's base URL, as given: the sandbox's public origin, for the return page links. */
  readonly baseUrl: () => string;
  /** The key of the pages' CSRF tokens (instances given the same key share their pages). */
  readonly secrets: { readonly csrf: string };
}
