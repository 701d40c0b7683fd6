import type { CardData } from '../domain/card.js';
import type { BrowserData } from '../domain/contact.js';
import type { ThreeDSProtocolVersion } from '../domain/three-ds.js';
import type { PortFailure, PortResult } from './port-result.js';

/**
 * What an authentication gives on to the acquirer (docs/ports.md), each optional: the
 * authentication value (CAVV, AAV: 28 characters of base64; never stored), the directory server's
 * transaction id (a UUID) and the protocol version. The engine checks each one given.
 */
export interface ThreeDSAuthenticationData {
  readonly authenticationValue?: string;
  readonly dsTransactionId?: string;
  readonly protocolVersion?: ThreeDSProtocolVersion;
}

/** What the engine sends to authenticate a cardholder: the payment, the card and the browser data. */
export interface AuthenticationRequest {
  readonly paymentId: string;
  readonly profileId: string;
  readonly amount: number;
  readonly currency: string;
  readonly card: CardData;
  readonly browser: BrowserData;
}

/**
 * The outcome of `authenticate`: the kinds follow EMV 3DS `transStatus`. The engine checks every
 * answer (`src/engine/port-answers.ts`, docs/ports.md): `transactionId` a UUID in its canonical
 * form (as EMV 3DS transaction ids are), `eci` 2 digits, `transStatus` as the kind says. One that
 * breaks a rule, or has another `kind`, counts as a failure of the call (the payment fails with
 * `processing_error`) and is logged at error level, naming the field but never its value.
 */
export type AuthenticationResult =
  /** The issuer or scheme requires no SCA for this card. */
  | { readonly kind: 'not_required' }
  /** Frictionless: authenticated (Y) or attempted (A) without the cardholder. */
  | (ThreeDSAuthenticationData & {
      readonly kind: 'authenticated';
      readonly transStatus: 'Y' | 'A';
      readonly eci: string;
      readonly transactionId: string;
    })
  /**
   * The cardholder must act on the issuer's page. `reason` is `data_mismatch` when a frictionless
   * attempt fell back to the challenge because the data did not match the issuer's.
   */
  | {
      readonly kind: 'challenge';
      readonly reason: 'challenge_required' | 'data_mismatch';
      readonly transactionId: string;
      /**
       * The issuer's page, where the cardholder's browser is sent (`next.redirect`): absolute
       * `https` (`http` only for `localhost` and loopback addresses), at most 2048 characters, no
       * user name or password (`redirectUrlProblem`), and without the card number.
       */
      readonly challengeUrl: string;
    }
  /** Not authenticated (N) or rejected by the issuer (R): do not authorize. */
  | { readonly kind: 'rejected'; readonly transStatus: 'N' | 'R'; readonly transactionId: string }
  /** 3DS could not be performed (U); no authentication value. */
  | (Omit<ThreeDSAuthenticationData, 'authenticationValue'> & {
      readonly kind: 'unavailable';
      readonly transStatus: 'U';
      readonly transactionId: string;
    });

/**
 * The outcome of a challenge, read from the ACS result (`cres`) by `resolveChallenge`. Checked by
 * the engine (`eci` 2 digits, `transStatus` as the kind says): a malformed one counts as a failure
 * of the call (`unavailable`; the payment still awaits the challenge).
 */
export type ChallengeResult =
  | (ThreeDSAuthenticationData & { readonly kind: 'accepted'; readonly transStatus: 'Y' | 'A'; readonly eci: string })
  | { readonly kind: 'refused'; readonly transStatus: 'N' };

/**
 * - `unavailable`: the directory server / ACS could not be reached.
 * - `invalid_challenge`: a challenge result that does not belong to this payment and transaction.
 */
export type ThreeDSError = PortFailure<'unavailable' | 'invalid_challenge'>;

/** EMV 3-D Secure server (the 3DS Server / MPI the engine talks to). */
export interface ThreeDSProvider {
  /** Runs the 3DS lookup (AReq/ARes) for a payment: frictionless outcome, challenge or refusal. */
  authenticate(request: AuthenticationRequest): PortResult<AuthenticationResult, ThreeDSError>;
  /**
   * Verifies the ACS result (`cres`) for this payment and transaction and reads its outcome.
   * Resolving the same `cres` again must give the same answer (the engine retries after a
   * time-out, browsers re-post); the engine itself refuses a second completion once stored.
   */
  resolveChallenge(request: {
    readonly paymentId: string;
    readonly transactionId: string;
    readonly cres: string;
  }): PortResult<ChallengeResult, ThreeDSError>;
}
