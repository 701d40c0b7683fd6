import { containsCardNumber } from '../../src/domain/card-number.js';
import type { PaymentEngine } from '../../src/engine/payment-engine.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Client, CredentialStore } from '../../src/ports/credential-store.js';
import type { IdempotencyStore } from '../../src/ports/idempotency-store.js';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';
import { guardLogger, logsAt, silentLogger, withLogFields, type Logger } from '../../src/ports/logger.js';
import { authenticate } from './auth.js';
import { stripBasePath } from './base-path.js';
import { acceptsJson, notAcceptable } from './content-negotiation.js';
import type { HttpAnswer } from './http-answer.js';
import type { HttpRequest } from './http-request.js';
import { IDEMPOTENCY_STALE_AFTER_MS, IDEMPOTENCY_TTL_MS } from './idempotency.js';
import { DEFAULT_PROBLEM_TYPE_BASE, problem, problemAnswer, type Problem } from './problem-details.js';
import type { HttpDeps, RouteHandler } from './route-context.js';
import { createRouter, pathSegments } from './router.js';
import { ROUTES } from './routes/route-table.js';
import { millisecondsOption } from './milliseconds-option.js';
import { checkRateLimit } from './rate-limit.js';
import { REQUEST_ID_HEADER, requestIdSource, upstreamRequestId } from './request-id.js';
import { STORE_TIMEOUT_MS } from './store-deadline.js';

/** The ports and settings of the v1 API. */
export interface ApiOptions {
  readonly engine: PaymentEngine;
  /** Resolves bearer tokens; the only port called before a request is authorized. */
  readonly credentials: CredentialStore;
  /** Where `Idempotency-Key` answers are kept (24 hours). */
  readonly idempotency: IdempotencyStore;
  readonly clock: Clock;
  /** One `info` line per API request (route, status, duration, client); errors. Default silent. */
  readonly logger?: Logger;
  /** Prefix of the problem `type` URIs; the code is appended. Default `urn:paystate:problem:`. */
  readonly problemTypeBase?: string;
  /**
   * How long an `Idempotency-Key` answer is kept. Default 24 hours (`IDEMPOTENCY_TTL_MS`). A
   * `RangeError` unless a whole number of milliseconds of at least 1 (a safe integer), and unless
   * longer than `idempotencyStaleAfterMs` (default 5 minutes; give both to raise that above 24
   * hours): a key forgotten by the time its crashed request is presumed dead would let a retry
   * with that key create a second payment instead of taking over the first.
   */
  readonly idempotencyTtlMs?: number;
  /**
   * How long after its start a request that has not settled its `Idempotency-Key` is presumed
   * dead, so that a retry with the same key and body takes the key over (and answers the payment
   * that request reserved, creating it if it was not stored). Must be longer than the engine's
   * longest create: with its default time-outs and retries about 3 minutes. Default 5 minutes
   * (`IDEMPOTENCY_STALE_AFTER_MS`); a `RangeError` unless a whole number of milliseconds of at
   * least 1 (a safe integer), and unless shorter than `idempotencyTtlMs`.
   */
  readonly idempotencyStaleAfterMs?: number;
  /**
   * How long one call of the credential store or of the idempotency store may take before the
   * request gives up on it (a stalled database or a network black hole answers nothing at all):
   * the request then answers `503 unavailable` with `Retry-After`, or, when the call was the one
   * that stores the answer of a payment already created, that answer (the key stays in progress
   * and is taken over once stale). Default 5 seconds (`STORE_TIMEOUT_MS`); a `RangeError` unless a
   * whole number of milliseconds of at least 1 (a safe integer).
   */
  readonly storeTimeoutMs?: number;
  /**
   * Makes the id of each request, sent back in the `Request-Id` header of every answer and put
   * on every log line written for the request (`requestId`), by the API and by the engine command
   * it runs. Default: `req_` and 32 lowercase hex digits from Web Crypto (`defaultRequestId`).
   * Whatever it gives must be 1 to 200 visible ASCII characters holding no card number; when it
   * throws or gives anything else, that request gets a default id (the first such failure is
   * logged as a warning), never an error.
   */
  readonly requestId?: () => string;
  /**
   * Limits how often each client may call the API (`createMemoryRateLimiter` of `paystate/memory`,
   * or one on a store several instances share): every authenticated request takes one turn, before
   * its body is read; a client over its limit is answered `429 rate_limited` with `Retry-After`.
   * A limiter that fails or does not answer within `storeTimeoutMs` lets the request through
   * (logged). Default none: no limit.
   */
  readonly rateLimit?: RateLimiter;
}

/**
 * The API on plain data: the answer to a request under `/v1` (below `basePath`), or null for
 * any other path (pages, the host's own routes) without touching the request. Never rejects.
 *
 * `requestId`: the id the caller made for this request (paystate's entry points make one per
 * request, whatever its path, and write the `Request-Id` header as they write the answer): the
 * answer then comes without that header. Without it the API makes one and the answer carries it.
 * Either way every log line of the request carries it as `requestId`.
 */
export type ApiHandler = (request: HttpRequest, basePath: string, requestId?: string) => Promise<HttpAnswer | null>;

const ORIGIN = 'http://localhost';
const TOKEN_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Whether a store's `tokenId` may go on a log line: a short id of safe characters that is not the
 * token, nor any part of the header that carried it (a store that gave the token itself), nor a
 * run of digits that reads as a card number.
 */
function isLoggableTokenId(tokenId: unknown, authorization: string | null): tokenId is string {
  return (
    typeof tokenId === 'string' &&
    TOKEN_ID.test(tokenId) &&
    !(authorization ?? '').includes(tokenId) &&
    !containsCardNumber(tokenId)
  );
}

/** The API path of a request target (`/v1/...`), or null when the target is not under `/v1`. */
export function apiPath(target: string, basePath: string): string | null {
  if (!target.startsWith('/')) return null;
  const end = target.search(/[?#]/);
  const path = stripBasePath(end === -1 ? target : target.slice(0, end), basePath);
  return path === '/v1' || path.startsWith('/v1/') ? path : null;
}

/**
 * The `Idempotency-Key` limits, checked. The key must outlive the stale limit: once it expires a
 * retry begins afresh with a new payment id, so a key expiring before (or as) its crashed request
 * is presumed dead would let the retry create a second payment where it should take the first over.
 */
function idempotencyLimits(options: ApiOptions): { readonly ttlMs: number; readonly staleAfterMs: number } {
  const staleAfterMs = millisecondsOption(
    'idempotencyStaleAfterMs',
    options.idempotencyStaleAfterMs,
    IDEMPOTENCY_STALE_AFTER_MS,
  );
  const ttlMs = millisecondsOption('idempotencyTtlMs', options.idempotencyTtlMs, IDEMPOTENCY_TTL_MS);
  if (ttlMs <= staleAfterMs) {
    const ttl = options.idempotencyTtlMs === undefined ? `the default ${ttlMs}` : String(ttlMs);
    throw new RangeError(
      `idempotencyTtlMs (${ttl}) must be longer than idempotencyStaleAfterMs (${staleAfterMs}): a key ` +
        'must not be forgotten before its crashed request is presumed dead',
    );
  }
  return { ttlMs, staleAfterMs };
}

/** Builds the v1 API (decisions.md sections 2 to 6) on plain requests and answers. */
export function createApiHandler(options: ApiOptions): ApiHandler {
  // A logger that throws loses its line, never the answer (a payment created and answered 500).
  const logger = guardLogger(options.logger ?? silentLogger);
  const limits = idempotencyLimits(options);
  const requestIds = requestIdSource(options.requestId, logger);
  const deps: HttpDeps = {
    engine: options.engine,
    credentials: options.credentials,
    idempotency: options.idempotency,
    clock: options.clock,
    logger,
    problemTypeBase: options.problemTypeBase ?? DEFAULT_PROBLEM_TYPE_BASE,
    idempotencyTtlMs: limits.ttlMs,
    idempotencyStaleAfterMs: limits.staleAfterMs,
    storeTimeoutMs: millisecondsOption('storeTimeoutMs', options.storeTimeoutMs, STORE_TIMEOUT_MS),
  };
  const router = createRouter<RouteHandler>(ROUTES);
  const { rateLimit } = options;
  if (rateLimit !== undefined && typeof (rateLimit as Partial<RateLimiter> | null)?.take !== 'function') {
    throw new TypeError('rateLimit must be a RateLimiter: an object with a take(clientId, now) method');
  }
  const answerOf = (value: Problem): HttpAnswer => problemAnswer(value, deps.problemTypeBase);

  interface Handled {
    readonly answer: HttpAnswer;
    readonly route: string;
    /** The client the request authenticated as, for its log line. */
    readonly client?: Client;
  }

  async function route(
    request: HttpRequest,
    path: string,
    basePath: string,
    requestId: string,
    log: Logger,
  ): Promise<Handled> {
    const segments = pathSegments(path);
    const match = segments === null ? ({ kind: 'not_found' } as const) : router.match(request.method, segments);
    if (match.kind === 'not_found') {
      return { answer: answerOf(problem('not_found', 'No such resource')), route: 'not found' };
    }
    if (match.kind === 'method_not_allowed') {
      const allow = match.allow.join(', ');
      return {
        answer: answerOf(problem('method_not_allowed', `This resource allows ${allow}`, { headers: { allow } })),
        route: 'method not allowed',
      };
    }
    const name = match.route.name;
    const client = await authenticate(deps, request.header('authorization'), log);
    if (client.isErr()) return { answer: answerOf(client.error), route: name };
    if (rateLimit !== undefined) {
      const limited = await checkRateLimit(rateLimit, client.value, deps, log);
      if (limited !== null) return { answer: answerOf(limited), route: name, client: client.value };
    }
    if (!acceptsJson(request.header('accept'))) {
      return { answer: answerOf(notAcceptable()), route: name, client: client.value };
    }
    const result = await match.route.handler({
      deps,
      request,
      url: new URL(`${ORIGIN}${request.target}`),
      path,
      basePath,
      params: match.params,
      client: client.value,
      requestId,
      logger: log,
    });
    return { answer: result.isOk() ? result.value : answerOf(result.error), route: name, client: client.value };
  }

  /** The answer with its `Request-Id`, when the caller does not write it. */
  const withId = (answer: HttpAnswer, requestId: string, given: boolean): HttpAnswer =>
    given ? answer : { ...answer, headers: { ...answer.headers, [REQUEST_ID_HEADER]: requestId } };

  return async (request, basePath, given) => {
    const path = apiPath(request.target, basePath);
    if (path === null) return null;
    const started = deps.clock.now();
    const requestId = given ?? requestIds();
    // Every line written for this request carries its id (none is made for a silent logger).
    const log = withLogFields(logger, { requestId });
    try {
      const handled = await route(request, path, basePath, requestId, log);
      // The line's fields, the token id's checks among them, are worked out only when it is written.
      if (logsAt(log, 'info')) {
        const { client } = handled;
        // Which token: an id that does not reveal it (see `Client.tokenId`), when the store gives one.
        const tokenId = client?.tokenId;
        const upstream = upstreamRequestId(request.header('x-request-id'));
        log.info(
          {
            method: request.method,
            route: handled.route,
            status: handled.answer.status,
            ms: deps.clock.now() - started,
            ...(client !== undefined && { clientId: client.id }),
            ...(isLoggableTokenId(tokenId, request.header('authorization')) && { tokenId }),
            ...(upstream !== undefined && { upstreamRequestId: upstream }),
          },
          'http request',
        );
      }
      return withId(handled.answer, requestId, given !== undefined);
    } catch (error) {
      log.error({ method: request.method, error }, 'unhandled error in the HTTP API');
      return withId(
        answerOf(problem('internal_error', 'An unexpected error occurred')),
        requestId,
        given !== undefined,
      );
    }
  };
}
