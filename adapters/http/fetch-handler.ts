import { guardLogger, silentLogger } from '../../src/ports/logger.js';
import { createApiHandler, type ApiOptions } from './api-handler.js';
import { normalizeBasePath } from './base-path.js';
import { toResponse } from './http-answer.js';
import { fromFetchRequest } from './http-request.js';
import { DEFAULT_PROBLEM_TYPE_BASE, problem, problemAnswer } from './problem-details.js';
import { requestIdSource } from './request-id.js';

/** A fetch-standard request handler: what Hono, Bun, Deno, workers and the node/Express bridges call. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Pages outside `/v1` (the hosted payment page, a simulated issuer): a response, or undefined for 404. */
export type PagesHandler = (request: Request) => Promise<Response | undefined>;

export interface FetchHandlerOptions extends ApiOptions {
  /** Serves requests outside `/v1`. Without it they are 404. */
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
 * it makes itself (the API's, the 404 when no page answers, the 500) carries the request's
 * `Request-Id`; a page's response is the page's own.
 */
export function createFetchHandler(options: FetchHandlerOptions): FetchHandler {
  const handle = createIdentifiedFetchHandler(options);
  const requestIds = requestIdSource(options.requestId, guardLogger(options.logger ?? silentLogger));
  return (request) => handle(request, requestIds());
}

/**
 * `createFetchHandler` for a caller that made the request's id itself (the node listener, whose
 * requests outside the API's fast path come here): the same handler, with that id.
 */
export function createIdentifiedFetchHandler(
  options: FetchHandlerOptions,
): (request: Request, requestId: string) => Promise<Response> {
  const api = createApiHandler(options);
  const basePath = normalizeBasePath(options.basePath);
  const logger = guardLogger(options.logger ?? silentLogger);
  const typeBase = options.problemTypeBase ?? DEFAULT_PROBLEM_TYPE_BASE;
  return async (request, requestId) => {
    try {
      const answer = await api(fromFetchRequest(request), basePath, requestId);
      if (answer !== null) return toResponse(answer, request.method, requestId);
      const page = options.pages === undefined ? undefined : await options.pages(request);
      return (
        page ?? toResponse(problemAnswer(problem('not_found', 'No such resource'), typeBase), request.method, requestId)
      );
    } catch (error) {
      logger.error({ method: request.method, error, requestId }, 'unhandled error in the HTTP handler');
      return toResponse(
        problemAnswer(problem('internal_error', 'An unexpected error occurred'), typeBase),
        request.method,
        requestId,
      );
    }
  };
}
