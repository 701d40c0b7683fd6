import { containsCardNumber } from '../../src/domain/card-number.js';
import { describeDefect } from '../../src/engine/describe-defect.js';
import { loggableId, MAX_LOGGED_REQUEST_ID_LENGTH } from '../../src/engine/loggable-id.js';
import { guardLogger, silentLogger, withLogFields, type Logger } from '../../src/ports/logger.js';
import type { PageContext } from './page-context.js';

/** The response header that carries the request's id (lower case, as answers spell headers). */
export const REQUEST_ID_HEADER = 'request-id';

/** The longest request id a host's `requestId` may make: 200 characters. */
export const MAX_REQUEST_ID_LENGTH = MAX_LOGGED_REQUEST_ID_LENGTH;

/** The character codes of the lowercase hex digits. */
const HEX_DIGITS = new TextEncoder().encode('0123456789abcdef');
const PREFIX = 'req_';
/** The id being written: `req_` then 32 hex digits, read out as text once written. */
const ID = new Uint8Array(PREFIX.length + 32);
ID.set(new TextEncoder().encode(PREFIX));
const ascii = new TextDecoder();

/** Random bytes for 64 ids, drawn in one call and used up 16 at a time. */
const POOL = new Uint8Array(16 * 64);
let drawn = POOL.length;

/** Decimal digits in a row that could start to read as a card number (`containsCardNumber` needs 12). */
const DIGIT_RUN = 12;

/**
 * A new request id: `req_` and 32 lowercase hex digits from Web Crypto, drawn again when it holds
 * 12 decimal digits in a row (a log would redact it as a card number).
 */
export function defaultRequestId(): string {
  for (;;) {
    if (drawn === POOL.length) {
      globalThis.crypto.getRandomValues(POOL);
      drawn = 0;
    }
    let digits = 0;
    let longest = 0;
    for (let at = PREFIX.length; at < ID.length; at += 2) {
      // Each byte gives two hex digits, its high half first.
      const byte = POOL[drawn++] as number;
      const high = byte >> 4;
      const low = byte & 15;
      ID[at] = HEX_DIGITS[high] as number;
      ID[at + 1] = HEX_DIGITS[low] as number;
      digits = high < 10 ? digits + 1 : 0;
      if (digits > longest) longest = digits;
      digits = low < 10 ? digits + 1 : 0;
      if (digits > longest) longest = digits;
    }
    if (longest < DIGIT_RUN) return ascii.decode(ID);
  }
}

/** 1 to 200 visible ASCII characters: what an HTTP header value carries as it is. */
const HEADER_TOKEN = new RegExp(`^[\\x21-\\x7e]{1,${MAX_REQUEST_ID_LENGTH}}$`);

/** Whether `id` can go in a `Request-Id` header as it is: 1 to 200 visible ASCII characters. */
export function isRequestIdToken(id: string): boolean {
  return HEADER_TOKEN.test(id);
}

/** Host generators already reported as failing: each is reported once per process. */
const reported = new WeakSet<object>();

/**
 * The request ids of one handler: `generator()`'s when it gives 1 to 200 visible ASCII characters
 * without a card number, else `defaultRequestId()` (the generator's first failure logged once).
 */
export function requestIdSource(generator: (() => string) | undefined, logger: Logger = silentLogger): () => string {
  if (generator === undefined) return defaultRequestId;
  const warnings = guardLogger(logger);
  const fallBack = (fields: Record<string, unknown>): string => {
    if (!reported.has(generator)) {
      reported.add(generator);
      warnings.warn(
        fields,
        'the requestId option gave no usable request id (1 to 200 visible ASCII characters, no card number); the default ids are used instead',
      );
    }
    return defaultRequestId();
  };
  return () => {
    let id: unknown;
    try {
      id = generator();
    } catch (error) {
      return fallBack({ reason: 'threw', cause: describeDefect(error) });
    }
    if (typeof id !== 'string') return fallBack({ reason: 'not a string', type: typeof id });
    if (!HEADER_TOKEN.test(id)) return fallBack({ reason: 'not 1 to 200 visible ASCII characters', length: id.length });
    if (containsCardNumber(id)) return fallBack({ reason: 'holds a card number', length: id.length });
    return id;
  };
}

/** What an upstream `X-Request-Id` may be to be logged: 1 to 128 of `A-Z a-z 0-9 . _ : -`. */
const UPSTREAM_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A gateway's `X-Request-Id`, for the log line only: 1 to 128 of `A-Z a-z 0-9 . _ : -` and no card
 * number, else undefined. Never answered.
 */
export function upstreamRequestId(header: string | null): string | undefined {
  return header !== null && UPSTREAM_ID.test(header) && !containsCardNumber(header) ? header : undefined;
}

/**
 * Serves one page request under the `PageContext`'s id, else a new one the answer then carries;
 * `serve` gets the id and a logger that puts it on every line.
 */
export async function servePageRequest(
  context: PageContext | undefined,
  requestIds: () => string,
  logger: Logger,
  serve: (requestId: string, log: Logger) => Promise<Response>,
): Promise<Response> {
  const requestId = context?.requestId ?? requestIds();
  const log = withLogFields(logger, { requestId: loggableId(requestId, MAX_LOGGED_REQUEST_ID_LENGTH) });
  const response = await serve(requestId, log);
  if (context === undefined) response.headers.set(REQUEST_ID_HEADER, requestId);
  return response;
}
