import { err, ok } from 'neverthrow';
import type { Result } from 'neverthrow';
import { CARD_REGIONS, CARD_TYPES, type CardRegion, type CardType } from '../domain/card.js';
import { percentDecoded } from '../domain/card-number.js';
import { isCountryCode } from '../domain/country.js';
import { FAILURE_REASONS, type FailureReason } from '../domain/failure-reason.js';
import { redirectUrlProblem, type RedirectUrlProblem } from '../domain/redirect-url.js';
import {
  isAuthenticationValue,
  isEci,
  isThreeDSProtocolVersion,
  isThreeDSTransactionId,
  THREE_DS_PROTOCOL_VERSIONS,
} from '../domain/three-ds.js';
import { isWellFormedText } from '../schemas/text.js';
import type { AuthorizationOutcome, InquiryOutcome } from '../ports/acquirer.js';
import type { AuthenticationResult, ChallengeResult, ThreeDSAuthenticationData } from '../ports/three-ds-provider.js';
import type { EngineContext } from './engine-context.js';

/**
 * The check of every answer of the acquirer and the 3DS provider, at the engine's port boundary.
 * Adapters are written by hosts (a custom acquirer), so the engine does not take what one answers
 * on trust: a field that is not what the port's type and the domain say (a card number in `rrn`,
 * fees of `NaN`, an unknown `kind`, a `javascript:` challenge URL) would be stored, sent in events
 * or sent to the cardholder's browser. Each check reads every field of the answer once and builds
 * the value the engine goes on with from what it read, so that nothing else the answer holds (or
 * a getter that answers differently the second time) gets past it. Cheap hand-written checks:
 * `authorize` is on the path every payment takes.
 *
 * What a malformed answer counts as is the failure of the same call (docs/ports.md): for
 * `authorize` an unknown outcome (reconciled by inquiry, never authorized again), for `inquire` a
 * failed inquiry (asked again on the schedule), for `authenticate` and `resolveChallenge` their
 * failure. It is logged at error level with the field and what is wrong with it, never its value,
 * which may hold card data (`logMalformedAnswer`).
 */

/** Why an answer was not taken: the field (`fees.interchange`; `answer` for the whole) and what is wrong with it. */
export interface AnswerProblem {
  readonly field: string;
  readonly problem: string;
}

type Checked<T> = Result<T, AnswerProblem>;

/** ISO 8583 data element 37, the retrieval reference number: up to 12 letters and digits. */
const RRN = /^[A-Za-z0-9]{1,12}$/;
/** ISO 8583 data element 39, the response code: 2 letters or digits. */
const RESPONSE_CODE = /^[A-Za-z0-9]{2}$/;
/** A scheme's trace id (Visa transaction id, 15 digits; Mastercard trace id, 9 to 13 characters). */
const NETWORK_TRANSACTION_ID = /^[A-Za-z0-9]{1,32}$/;

/** A type guard for the values of a list, by a set of them. */
function oneOf<T>(values: readonly T[]): (value: unknown) => value is T {
  const set: ReadonlySet<unknown> = new Set(values);
  return (value): value is T => set.has(value);
}

const isFailureReason = oneOf<FailureReason>(FAILURE_REASONS);
const isCardType = oneOf<CardType>(CARD_TYPES);
const isCardRegion = oneOf<CardRegion>(CARD_REGIONS);

const notOneOf = (values: readonly string[]): string => `is not one of ${values.join(', ')}`;
const NOT_A_FAILURE_REASON = notOneOf(FAILURE_REASONS);
const NOT_A_CARD_TYPE = notOneOf(CARD_TYPES);
const NOT_A_CARD_REGION = notOneOf(CARD_REGIONS);

const malformed = (field: string, problem: string): Checked<never> => err({ field, problem });

type Fields = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

/** A non-negative safe integer: an amount in minor units. */
const isMinorUnits = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** An amount in minor units as kept: -0, which passes for non-negative, as 0 (stores and `Object.is` tell them apart). */
const minorUnits = (value: number): number => (value === 0 ? 0 : value);

const isString = (value: unknown): value is string => typeof value === 'string';

/**
 * The card number of the request, when the engine has it in hand (`authorize`, `authenticate`):
 * a field whose digits hold it, however they are written, is malformed whatever else it is.
 */
type CardNumber = string | undefined;

const NOT_AN_ASCII_DIGIT = /[^0-9]/g;

/**
 * The digits of a value in order, as a reader sees them: percent-encoding read, compatibility forms
 * folded (full-width digits), everything else dropped. So the card number split into groups
 * (`4242-4242-…`, a UUID's last two groups), or percent-encoded in a URL (`4242%204242…`), is
 * still found; a given number of 12 or more digits turns up by chance about never.
 */
const digitsOf = (value: string): string => percentDecoded(value).normalize('NFKC').replace(NOT_AN_ASCII_DIGIT, '');

const holdsCardNumber = (value: string, cardNumber: CardNumber): boolean =>
  cardNumber !== undefined && cardNumber.length >= 12 && digitsOf(value).includes(cardNumber);

const HOLDS_THE_CARD_NUMBER = 'holds the card number';

/**
 * Runs `check` on `answer`, which may be anything at all: an answer that is no object, or one
 * whose reading throws (a getter, a proxy), is malformed too.
 */
function checking<T>(
  answer: unknown,
  check: (answer: Fields, cardNumber: CardNumber) => Checked<T>,
  cardNumber?: string,
): Checked<T> {
  if (!isObject(answer)) return malformed('answer', 'is not an object');
  try {
    return check(answer, cardNumber);
  } catch {
    return malformed('answer', 'threw when read');
  }
}

// The acquirer

function approval(answer: Fields, cardNumber: CardNumber): Checked<AuthorizationOutcome> {
  const { rrn, responseCode, fees, card } = answer;
  if (!isString(rrn) || !RRN.test(rrn)) return malformed('rrn', 'is not 1 to 12 letters and digits');
  if (holdsCardNumber(rrn, cardNumber)) return malformed('rrn', HOLDS_THE_CARD_NUMBER);
  if (!isString(responseCode) || !RESPONSE_CODE.test(responseCode)) {
    return malformed('responseCode', 'is not 2 letters or digits');
  }
  if (!isObject(fees)) return malformed('fees', 'is not an object');
  const { interchange, assesment } = fees;
  if (!isMinorUnits(interchange)) return malformed('fees.interchange', 'is not a non-negative safe integer');
  if (!isMinorUnits(assesment)) return malformed('fees.assesment', 'is not a non-negative safe integer');
  if (!isObject(card)) return malformed('card', 'is not an object');
  const { type, region, issuingCountry } = card;
  if (!isCardType(type)) return malformed('card.type', NOT_A_CARD_TYPE);
  if (!isCardRegion(region)) return malformed('card.region', NOT_A_CARD_REGION);
  if (!isString(issuingCountry) || !isCountryCode(issuingCountry)) {
    return malformed('card.issuingCountry', 'is not an ISO 3166-1 alpha-2 country code');
  }
  const { networkTransactionId } = answer;
  if (networkTransactionId !== undefined) {
    if (!isString(networkTransactionId) || !NETWORK_TRANSACTION_ID.test(networkTransactionId)) {
      return malformed('networkTransactionId', 'is not 1 to 32 letters and digits');
    }
    if (holdsCardNumber(networkTransactionId, cardNumber))
      return malformed('networkTransactionId', HOLDS_THE_CARD_NUMBER);
  }
  return ok({
    kind: 'approved',
    rrn,
    responseCode,
    fees: { interchange: minorUnits(interchange), assesment: minorUnits(assesment) },
    card: { type, region, issuingCountry },
    ...(networkTransactionId !== undefined && { networkTransactionId }),
  });
}

function decline(answer: Fields): Checked<AuthorizationOutcome> {
  const { responseCode, reason } = answer;
  if (!isString(responseCode) || !RESPONSE_CODE.test(responseCode)) {
    return malformed('responseCode', 'is not 2 letters or digits');
  }
  if (!isFailureReason(reason)) return malformed('reason', NOT_A_FAILURE_REASON);
  return ok({ kind: 'declined', responseCode, reason });
}

function unknownOutcome(answer: Fields): Checked<AuthorizationOutcome> {
  const { detail } = answer;
  if (!isString(detail)) return malformed('detail', 'is not a string');
  return ok({ kind: 'unknown', detail });
}

/** `kind`: the answer's, when the caller has read it already (so that a getter is read once). */
function authorizationOutcome(
  answer: Fields,
  cardNumber: CardNumber,
  kind: unknown = answer.kind,
): Checked<AuthorizationOutcome> {
  switch (kind) {
    case 'approved':
      return approval(answer, cardNumber);
    case 'declined':
      return decline(answer);
    case 'unknown':
      return unknownOutcome(answer);
    default:
      return malformed('kind', 'is not approved, declined or unknown');
  }
}

const NOT_FOUND: InquiryOutcome = Object.freeze({ kind: 'not_found' });

function inquiryOutcome(answer: Fields): Checked<InquiryOutcome> {
  const { kind } = answer;
  switch (kind) {
    case 'not_found':
      return ok(NOT_FOUND);
    case 'approved':
    case 'declined':
    case 'unknown':
      return authorizationOutcome(answer, undefined, kind);
    default:
      return malformed('kind', 'is not approved, declined, unknown or not_found');
  }
}

/**
 * Checks `authorize`'s answer (`AuthorizationOutcome`), for the request of `cardNumber`: the
 * outcome to go on with, or what is wrong.
 */
export function checkAuthorizationOutcome(answer: unknown, cardNumber?: string): Checked<AuthorizationOutcome> {
  return checking(answer, authorizationOutcome, cardNumber);
}

/** Checks `inquire`'s answer (`InquiryOutcome`): the outcome to go on with, or what is wrong. */
export function checkInquiryOutcome(answer: unknown): Checked<InquiryOutcome> {
  return checking(answer, inquiryOutcome);
}

// The 3DS provider

/** What is wrong with a challenge URL, by `redirectUrlProblem`'s answer. */
const CHALLENGE_URL_PROBLEMS: Readonly<Record<RedirectUrlProblem, string>> = {
  too_long: 'is longer than 2048 characters',
  too_long_encoded: 'is longer than 2048 characters once percent-encoded',
  invalid_characters: 'holds spaces or control characters',
  not_absolute: 'is not an absolute URL',
  insecure: 'is not https (http only for localhost and loopback addresses)',
  credentials: 'holds a user name or password',
};

const NOT_A_TRANSACTION_ID = 'is not a UUID (EMV 3DS transaction id)';
const NOT_AN_ECI = 'is not 2 digits (an ECI)';

const NOT_REQUIRED: AuthenticationResult = Object.freeze({ kind: 'not_required' });

/** The fields an answer passes to the acquirer (docs/ports.md), each optional but checked when given (the value only where `withValue`). */
function authenticationData(
  answer: Fields,
  cardNumber: CardNumber,
  withValue: boolean,
): Checked<ThreeDSAuthenticationData> {
  const { authenticationValue, dsTransactionId, protocolVersion } = answer;
  if (authenticationValue !== undefined) {
    if (!withValue) return malformed('authenticationValue', 'is given where 3DS authenticated no one');
    if (!isString(authenticationValue) || !isAuthenticationValue(authenticationValue)) {
      return malformed('authenticationValue', 'is not 28 characters of base64 (a CAVV or AAV)');
    }
    if (holdsCardNumber(authenticationValue, cardNumber))
      return malformed('authenticationValue', HOLDS_THE_CARD_NUMBER);
  }
  if (dsTransactionId !== undefined && (!isString(dsTransactionId) || !isThreeDSTransactionId(dsTransactionId))) {
    return malformed('dsTransactionId', NOT_A_TRANSACTION_ID);
  }
  if (protocolVersion !== undefined && !isThreeDSProtocolVersion(protocolVersion)) {
    return malformed('protocolVersion', `is not one of ${THREE_DS_PROTOCOL_VERSIONS.join(', ')}`);
  }
  return ok({
    ...(authenticationValue !== undefined && { authenticationValue }),
    ...(dsTransactionId !== undefined && { dsTransactionId }),
    ...(protocolVersion !== undefined && { protocolVersion }),
  });
}

function authenticationResult(answer: Fields, cardNumber: CardNumber): Checked<AuthenticationResult> {
  const { kind } = answer;
  if (kind === 'not_required') return ok(NOT_REQUIRED);
  if (kind !== 'authenticated' && kind !== 'challenge' && kind !== 'rejected' && kind !== 'unavailable') {
    return malformed('kind', 'is not not_required, authenticated, challenge, rejected or unavailable');
  }
  const { transactionId } = answer;
  if (!isString(transactionId) || !isThreeDSTransactionId(transactionId)) {
    return malformed('transactionId', NOT_A_TRANSACTION_ID);
  }
  if (holdsCardNumber(transactionId, cardNumber)) return malformed('transactionId', HOLDS_THE_CARD_NUMBER);
  switch (kind) {
    case 'authenticated': {
      const { transStatus, eci } = answer;
      if (transStatus !== 'Y' && transStatus !== 'A') return malformed('transStatus', 'is not Y or A');
      if (!isString(eci) || !isEci(eci)) return malformed('eci', NOT_AN_ECI);
      return authenticationData(answer, cardNumber, true).map((data) => ({
        kind,
        transStatus,
        eci,
        transactionId,
        ...data,
      }));
    }
    case 'challenge': {
      const { reason, challengeUrl } = answer;
      if (reason !== 'challenge_required' && reason !== 'data_mismatch') {
        return malformed('reason', 'is not challenge_required or data_mismatch');
      }
      if (!isString(challengeUrl)) return malformed('challengeUrl', 'is not a string');
      const problem = redirectUrlProblem(challengeUrl);
      if (problem !== null) return malformed('challengeUrl', CHALLENGE_URL_PROBLEMS[problem]);
      // A lone surrogate: a store would keep another text than the one checked (as for `session.redirect_url`).
      if (!isWellFormedText(challengeUrl)) return malformed('challengeUrl', 'is not well-formed Unicode');
      if (holdsCardNumber(challengeUrl, cardNumber)) return malformed('challengeUrl', HOLDS_THE_CARD_NUMBER);
      return ok({ kind, reason, transactionId, challengeUrl });
    }
    case 'rejected': {
      const { transStatus } = answer;
      if (transStatus !== 'N' && transStatus !== 'R') return malformed('transStatus', 'is not N or R');
      return ok({ kind, transStatus, transactionId });
    }
    case 'unavailable': {
      const { transStatus } = answer;
      if (transStatus !== 'U') return malformed('transStatus', 'is not U');
      return authenticationData(answer, cardNumber, false).map((data) => ({
        kind,
        transStatus,
        transactionId,
        ...data,
      }));
    }
  }
}

const REFUSED: ChallengeResult = Object.freeze({ kind: 'refused', transStatus: 'N' });

function challengeResult(answer: Fields): Checked<ChallengeResult> {
  const { kind, transStatus } = answer;
  switch (kind) {
    case 'accepted': {
      if (transStatus !== 'Y' && transStatus !== 'A') return malformed('transStatus', 'is not Y or A');
      const { eci } = answer;
      if (!isString(eci) || !isEci(eci)) return malformed('eci', NOT_AN_ECI);
      return authenticationData(answer, undefined, true).map((data) => ({ kind, transStatus, eci, ...data }));
    }
    case 'refused':
      return transStatus === 'N' ? ok(REFUSED) : malformed('transStatus', 'is not N');
    default:
      return malformed('kind', 'is not accepted or refused');
  }
}

/**
 * Checks `authenticate`'s answer (`AuthenticationResult`), for the request of `cardNumber`: the
 * result to go on with, or what is wrong.
 */
export function checkAuthenticationResult(answer: unknown, cardNumber?: string): Checked<AuthenticationResult> {
  return checking(answer, authenticationResult, cardNumber);
}

/** Checks `resolveChallenge`'s answer (`ChallengeResult`): the result to go on with, or what is wrong. */
export function checkChallengeResult(answer: unknown): Checked<ChallengeResult> {
  return checking(answer, challengeResult);
}

/**
 * Logs a malformed answer at error level: the port call, the field and what is wrong with it, never
 * the field's value (an adapter's bug may have put card data anywhere). `message` says what the
 * engine does instead.
 */
export function logMalformedAnswer(
  ctx: EngineContext,
  port: string,
  paymentId: string,
  problem: AnswerProblem,
  message: string,
): void {
  ctx.logger.error({ paymentId, port, field: problem.field, problem: problem.problem }, message);
}
