import { detectScheme, luhnValid } from '../../src/domain/card-number.js';
import type { PaymentError, PaymentErrorCode, ValidationIssue } from '../../src/errors/payment-error.js';
import type { HttpAnswer } from './http-answer.js';

/** Every `code` a problem document of the API can carry (docs/http-api.md, Errors). */
export type ProblemCode =
  | PaymentErrorCode
  | 'invalid_json'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'rate_limited';

/** What went wrong, before it is rendered: the HTTP layer passes these around as values. */
export interface Problem {
  readonly code: ProblemCode;
  readonly detail: string;
  /** Validation issues (`validation_failed`), each with the path of the offending field. */
  readonly errors?: readonly ValidationIssue[];
  /** Extra response headers (`Allow`, `WWW-Authenticate`, `Retry-After`). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A create whose payment may have been stored though the answer is an error (storage took the
   * write and lost its answer): the document carries `payment_may_exist: true`.
   */
  readonly paymentMayExist?: true;
}

/** An RFC 9457 problem document as the API sends it. */
export interface ProblemDocument {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: ProblemCode;
  readonly errors?: readonly ValidationIssue[];
  /**
   * Present (`true`) only on a create's `503` when the payment may have been created: look it up
   * (the list) before retrying without the same `Idempotency-Key`.
   */
  readonly payment_may_exist?: true;
}

/** The HTTP status and title of each problem code, in the order `PROBLEM_STATUS` lists them. */
const CATALOG: Readonly<Record<ProblemCode, readonly [status: number, title: string]>> = {
  invalid_json: [400, 'The request body is not valid JSON'],
  validation_failed: [400, 'The request is invalid'],
  unauthorized: [401, 'Authentication required'],
  forbidden_profile: [403, 'Profile not accessible'],
  direct_flow_not_permitted: [403, 'Direct flow not permitted'],
  not_found: [404, 'Not found'],
  method_not_allowed: [405, 'Method not allowed'],
  not_acceptable: [406, 'Not acceptable'],
  conflict: [409, 'Conflict'],
  invalid_state: [409, 'Invalid state'],
  payment_not_capturable: [409, 'Payment not capturable'],
  payment_not_cancelable: [409, 'Payment not cancelable'],
  payment_not_refundable: [409, 'Payment not refundable'],
  amount_exceeds_capturable: [409, 'Amount exceeds what is capturable'],
  amount_exceeds_refundable: [409, 'Amount exceeds what is refundable'],
  idempotency_in_progress: [409, 'Request in progress'],
  payload_too_large: [413, 'Payload too large'],
  unsupported_media_type: [415, 'Unsupported media type'],
  idempotency_key_reused: [422, 'Idempotency key reused'],
  rate_limited: [429, 'Too many requests'],
  internal_error: [500, 'Internal error'],
  unavailable: [503, 'Service unavailable'],
};

/** The HTTP status of each problem code. */
export const PROBLEM_STATUS: Readonly<Record<ProblemCode, number>> = Object.freeze(
  Object.fromEntries(Object.entries(CATALOG).map(([code, [status]]) => [code, status])) as Record<ProblemCode, number>,
);

/** Default prefix of the `type` URI; the code is appended (`urn:paystate:problem:not_found`). */
export const DEFAULT_PROBLEM_TYPE_BASE = 'urn:paystate:problem:';

/**
 * Codes the server layer answers before any route (unparsable HTTP, a bad `Expect`, a method no
 * fetch `Request` carries): no API operation answers them, so they are not `ProblemCode`s.
 */
export type ServerProblemCode =
  | 'malformed_request'
  | 'request_timeout'
  | 'payload_too_large'
  | 'expectation_failed'
  | 'headers_too_large'
  | 'method_not_implemented';

/** The HTTP status and title of each server-layer problem code. */
const SERVER_CATALOG: Readonly<Record<ServerProblemCode, readonly [status: number, title: string]>> = {
  malformed_request: [400, 'Malformed request'],
  request_timeout: [408, 'Request timeout'],
  payload_too_large: CATALOG.payload_too_large,
  expectation_failed: [417, 'Expectation failed'],
  headers_too_large: [431, 'Request header fields too large'],
  method_not_implemented: [501, 'Method not implemented'],
};

/** The RFC 9457 document of a server-layer problem (same shape as the API's, `type` ending in the code). */
export interface ServerProblemDocument {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: ServerProblemCode;
}

export function serverProblemDocument(
  code: ServerProblemCode,
  detail: string,
  typeBase: string = DEFAULT_PROBLEM_TYPE_BASE,
): ServerProblemDocument {
  return {
    type: `${typeBase}${code}`,
    title: SERVER_CATALOG[code][1],
    status: SERVER_CATALOG[code][0],
    detail: safeText(detail),
    code,
  };
}

/** Seconds a client should wait before retrying a `503` or an in-progress `409`. */
export const RETRY_AFTER_SECONDS = 1;

/** The `Retry-After` header of a `503` or an in-progress `409` (`RETRY_AFTER_SECONDS`). */
export const RETRY_LATER: Readonly<Record<string, string>> = { 'retry-after': String(RETRY_AFTER_SECONDS) };

// A card number, possibly split by a few separators: 12+ digits. Never let one reach a body.
const CARD_LIKE = /\d(?:[^0-9A-Za-z]{0,3}\d){11,}/g;
const MAX_DETAIL = 500;
/** An amount written with thousands separators ("999,999,999,999", a bound in our own messages), left as it is unless its digits hide a card number. */
const THOUSANDS = /^\d{1,3}(?:,\d{3})+$/;
/** A list of small numbers ("1, 4, 8, 15, 16, 24, 30, 32, 48", the colour depths of our own message), left as it is unless its digits hide a card number. */
const SMALL_NUMBERS = /^\d{1,3}(?:, \d{1,3})+$/;

/**
 * Whether the digits of a run, joined, hold a card number anywhere: 12 to 19 consecutive digits,
 * Luhn-valid and of a known scheme, starting at any digit (not only where a group starts, so
 * that "14, 242, 424, …" cannot hide 4242… behind a leading digit).
 */
function hidesCardNumber(run: string): boolean {
  const digits = run.replace(/\D/g, '');
  for (let start = 0; start + 12 <= digits.length; start++) {
    for (let length = 12; length <= 19 && start + length <= digits.length; length++) {
      const candidate = digits.slice(start, start + length);
      if (luhnValid(candidate) && detectScheme(candidate) !== null) return true;
    }
  }
  return false;
}

/** A digit run that is one of our own kinds of numbers (an amount, a list of small numbers), not a card number. */
function isHarmlessRun(run: string): boolean {
  return (THOUSANDS.test(run) || SMALL_NUMBERS.test(run)) && !hidesCardNumber(run);
}

/**
 * Text that is safe to put in a problem body: card-number-like digit runs masked, length
 * capped. Problem texts are our own, but some quote a port's message; this is the last guard.
 */
export function safeText(text: string): string {
  const masked = text.replace(CARD_LIKE, (run) => (isHarmlessRun(run) ? run : '[redacted]'));
  return masked.length <= MAX_DETAIL ? masked : `${masked.slice(0, MAX_DETAIL - 1)}…`;
}

export function problem(
  code: ProblemCode,
  detail: string,
  extra: {
    readonly errors?: readonly ValidationIssue[];
    readonly headers?: Readonly<Record<string, string>>;
    readonly paymentMayExist?: true;
  } = {},
): Problem {
  return { code, detail, ...extra };
}

/**
 * The `503` of a keyless create whose outcome is unknown: `payment_may_exist: true`, look the
 * payment up first, and no `Retry-After`, on purpose (http-api.md, "Idempotency").
 */
export function paymentMayExistProblem(): Problem {
  return problem(
    'unavailable',
    "Storage is unavailable and the payment may have been created. Look it up in the list of the profile's payments " +
      'before you retry: a retry without an Idempotency-Key may create a second payment. Send an Idempotency-Key to retry safely',
    { paymentMayExist: true },
  );
}

/** The problem for an engine error. Messages that could quote a request value are replaced by fixed texts. */
export function problemFromPaymentError(error: PaymentError): Problem {
  switch (error.code) {
    case 'validation_failed':
      return problem('validation_failed', error.message, { errors: error.errors });
    case 'forbidden_profile':
      return problem('forbidden_profile', 'This client may not act on this profile');
    case 'not_found':
      return problem('not_found', error.message);
    case 'unavailable':
      return error.outcome === 'unknown'
        ? paymentMayExistProblem()
        : problem('unavailable', 'A service the payment depends on is unavailable; retry later', {
            headers: RETRY_LATER,
          });
    case 'idempotency_in_progress':
      return problem(error.code, error.message, { headers: RETRY_LATER });
    case 'internal_error':
      return problem('internal_error', 'An unexpected error occurred');
    default:
      return problem(error.code, error.message);
  }
}

/** The RFC 9457 document of a problem. */
export function problemDocument(value: Problem, typeBase: string = DEFAULT_PROBLEM_TYPE_BASE): ProblemDocument {
  const [status, title] = CATALOG[value.code];
  return {
    type: `${typeBase}${value.code}`,
    title,
    status,
    detail: safeText(value.detail),
    code: value.code,
    ...(value.errors !== undefined && {
      errors: value.errors.map((issue) => ({ path: safeText(issue.path), message: safeText(issue.message) })),
    }),
    ...(value.paymentMayExist === true && { payment_may_exist: true as const }),
  };
}

/** A problem document as an `application/problem+json` answer, with the problem's extra headers. */
function problemJson(
  document: ProblemDocument | ServerProblemDocument,
  headers?: Readonly<Record<string, string>>,
): HttpAnswer {
  return {
    status: document.status,
    headers: {
      'content-type': 'application/problem+json',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...headers,
    },
    body: JSON.stringify(document),
  };
}

/** A problem as an `application/problem+json` answer. */
export function problemAnswer(value: Problem, typeBase: string = DEFAULT_PROBLEM_TYPE_BASE): HttpAnswer {
  return problemJson(problemDocument(value, typeBase), value.headers);
}

/** A problem as a fetch `Response`, for hosts that answer outside the handler (e.g. a body-parser error). */
export function problemResponse(value: Problem, typeBase: string = DEFAULT_PROBLEM_TYPE_BASE): Response {
  const answer = problemAnswer(value, typeBase);
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** A server-layer problem (`serverProblemDocument`) as an `application/problem+json` answer. */
export function serverProblemAnswer(
  code: ServerProblemCode,
  detail: string,
  typeBase: string = DEFAULT_PROBLEM_TYPE_BASE,
): HttpAnswer {
  return problemJson(serverProblemDocument(code, detail, typeBase));
}
