import { guardLogger, silentLogger, type Logger } from '../../src/ports/logger.js';
import { createApiHandler, type ApiHandler, type ApiOptions } from './api-handler.js';
import { normalizeBasePath } from './base-path.js';
import { toResponse } from './http-answer.js';
import { fromFetchRequest } from './http-request.js';
import { DEFAULT_PROBLEM_TYPE_BASE, problem, problemAnswer } from './problem-details.js';
import { requestIdSource, withRequestId } from './request-id.js';

/** A fetch-standard request handler: what Hono, Bun, Deno, workers and the node/Express bridges call. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** What paystate's entry points tell `pages` about a request besides the request itself. */
export interface PageContext {
  /**
   * The request's id (`Request-Id`), made by the entry point: the page runs its engine commands
   * and writes its log lines under it, and the entry point writes it on the page's answer
   * (replacing any `Request-Id` the page set).
   */
  readonly requestId: string;
}

/**
 * Pages outside `/v1` (the hosted payment page, a simulated issuer): a response, or undefined for
 * 404. paystate's entry points pass a `PageContext`; a handler that takes one argument ignores it.
 */
export type PagesHandler = (request: Request, context?: PageContext) => Promise<Response | undefined>;

export interface FetchHandlerOptions extends ApiOptions {
  /** Serves requests outside `/v1`, given the request's id (`PageContext`). Without it they are 404. */
  readonly pages?: PagesHandler;
  /**
   * The prefix under which clients reach the API when it is mounted below the root (`/api`).
   * Links and `Location` are written under it; a request path that starts with it is routed
   * without it, so mounts that strip the prefix (Express, Hono) and those that do not both work.
   * Default: none.
   */
  readonly basePath?: string;
}

/**
 * The v1 HTTP API (decisions.md sections 2 to 6) as one fetch-standard handler: routing,
 * bearer authentication and tenancy, content negotiation, body limits, idempotency and RFC 9457
 * problem documents; `pages` serve everything outside `/v1`. It is the only part of paystate
 * that knows HTTP. It never rejects: an unexpected error is logged and answered 500. Every answer
 * carries the request's `Request-Id`: the API's, a page's (which gets the id in its `PageContext`),
 * the 404 when no page answers, the 500.
 */
export function createFetchHandler(options: FetchHandlerOptions): FetchHandler {
  const logger = guardLogger(options.logger ?? silentLogger);
  const respond = createFetchResponder(options, { api: createApiHandler(options), logger, writesRequestId: true });
  const requestIds = requestIdSource(options.requestId, logger);
  return (request) => respond(request, requestIds());
}

/** What `createFetchResponder` is built with besides the handler options. */
export interface FetchResponderParts {
  /** The API, built from the same options (the node listener shares its own). */
  readonly api: ApiHandler;
  /** The host's logger, guarded (`guardLogger`). */
  readonly logger: Logger;
  /**
   * True: every answer carries the request's `Request-Id`. False: none does (a page's own is taken
   * off), because the caller writes it (the node listener, which puts it on the node response first,
   * so that a 500 written instead of a response node refuses keeps it).
   */
  readonly writesRequestId: boolean;
}

/**
 * The answer of `createFetchHandler` to a request whose id the caller made: the API's, a page's
 * (given the id as its `PageContext`), the 404 when no page answers, or the 500 of an unexpected
 * error, logged. Never rejects. Shared by `createFetchHandler` and `createNodeListener`; not part
 * of `paystate/http`.
 */
export function createFetchResponder(
  options: FetchHandlerOptions,
  parts: FetchResponderParts,
): (request: Request, requestId: string) => Promise<Response> {
  const { api, logger, writesRequestId } = parts;
  const basePath = normalizeBasePath(options.basePath);
  const typeBase = options.problemTypeBase ?? DEFAULT_PROBLEM_TYPE_BASE;
  const { pages } = options;
  return async (request, requestId) => {
    const written = writesRequestId ? requestId : undefined;
    try {
      // Given the id, the API leaves the header to toResponse.
      const answer = await api(fromFetchRequest(request), basePath, requestId);
      if (answer !== null) return toResponse(answer, request.method, written);
      const page = pages === undefined ? undefined : await pages(request, { requestId });
      if (page !== undefined) return withRequestId(page, written);
      return toResponse(problemAnswer(problem('not_found', 'No such resource'), typeBase), request.method, written);
    } catch (error) {
      logger.error({ method: request.method, error, requestId }, 'unhandled error in the HTTP handler');
      return toResponse(
        problemAnswer(problem('internal_error', 'An unexpected error occurred'), typeBase),
        request.method,
        written,
      );
    }
  };
}
