import type { PaymentEngine } from '../../../src/engine/payment-engine.js';
import type { Clock } from '../../../src/ports/clock.js';
import type { CredentialStore } from '../../../src/ports/credential-store.js';
import type { Logger } from '../../../src/ports/logger.js';
import type { CsrfGuardOptions } from './csrf.js';
import type { TestCardHint } from './payment-form-page.js';

/** Options of `createHostedPageHandler`. */
export interface HostedPageOptions extends CsrfGuardOptions {
  /** The engine whose hosted-flow payments the page serves. */
  readonly engine: Pick<PaymentEngine, 'getHostedPageRecord' | 'getPaymentRecord' | 'submitCard'>;
  /** Where the merchant's name comes from (the payment's profile). */
  readonly credentials: Pick<CredentialStore, 'findProfile'>;
  readonly clock: Clock;
  /**
   * The client's IP address for 3DS. The fetch API does not carry the socket's address: a
   * node:http host calls `stampClientIp(req)` and passes `clientIpFromHeader`; a host behind a
   * proxy it trusts reads its forwarding header. When it returns nothing usable, `0.0.0.0` is sent.
   */
  readonly clientIp: (request: Request) => string | undefined;
  /**
   * One `info` line per page answer (payment id, outcome, ms, `requestId`); never card data or the
   * token. A logger that throws loses its line, never the answer.
   */
  readonly logger?: Logger;
  /** Path prefix of the pages as the handler sees it: `{basePath}/{payment_id}`. Default `/pay`. */
  readonly basePath?: string;
  /** Locale of the amount's symbol and separators (the decimals follow ISO 4217). Default `en`. */
  readonly locale?: string;
  /** Test mode: marks the page as such and lists these cards (for a sandbox only). */
  readonly testCards?: readonly TestCardHint[];
  /**
   * How long a repeated form post waits for the first one's 3DS and authorization to finish before
   * it sends the browser back to the merchant anyway. Default 15000 ms.
   */
  readonly settleTimeoutMs?: number;
  /**
   * How long a page waits for the credential store to name the merchant before it shows "the
   * merchant" instead (a stalled database must not hang the cardholder's page). Default 5000 ms
   * (`STORE_TIMEOUT_MS`); a `RangeError` unless a whole number of milliseconds of at least 1.
   */
  readonly storeTimeoutMs?: number;
  /**
   * Makes the request id when no `PageContext` gives one, with the rules of `ApiOptions.requestId`.
   * Default `req_` and 32 hex digits.
   */
  readonly requestId?: () => string;
}
