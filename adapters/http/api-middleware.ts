import type { Context, MiddlewareHandler } from 'hono';
import { containsCardNumber } from '../../src/domain/card-number.js';
import { logsAt } from '../../src/ports/logger.js';
import type { AppEnv } from './app-env.js';
import { authenticate } from './auth.js';
import { acceptsJson, notAcceptable } from './content-negotiation.js';
import { toResponse } from './http-answer.js';
import { problemAnswer, type Problem } from './problem-details.js';
import { checkRateLimit } from './rate-limit.js';
import { upstreamRequestId } from './request-id.js';
import type { HttpDeps } from './route-context.js';

type Middleware = MiddlewareHandler<AppEnv>;

/**
 * The problem as the answer to the request, with its `Request-Id` (so the id middleware need not
 * copy it) and without a body for `HEAD`.
 */
export function problemReply(c: Context<AppEnv>, value: Problem, typeBase: string): Response {
  return toResponse(problemAnswer(value, typeBase), c.req.method, c.get('requestId'));
}

const TOKEN_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Whether a store's `tokenId` may go on a log line: a short id of safe characters that is not the
 * token, nor any part of the header that carried it (a store that gave the token itself), nor a
 * run of digits that reads as a card number.
 */
function isLoggableTokenId(tokenId: unknown, authorization: string | undefined): tokenId is string {
  return (
    typeof tokenId === 'string' &&
    TOKEN_ID.test(tokenId) &&
    !(authorization ?? '').includes(tokenId) &&
    !containsCardNumber(tokenId)
  );
}

/**
 * One `info` line per API request, `http request`: method, route, status, duration, the client
 * and its token's id when known, and the gateway's `X-Request-Id` when it is safe to show.
 */
export function logApiRequest(deps: Pick<HttpDeps, 'clock'>): Middleware {
  return async (c, next) => {
    const started = deps.clock.now();
    c.set('route', 'not found');
    await next();
    const log = c.get('logger');
    if (!logsAt(log, 'info')) return;
    const client = c.get('client') as AppEnv['Variables']['client'] | undefined;
    const tokenId = client?.tokenId;
    const authorization = c.req.header('authorization');
    const upstream = upstreamRequestId(c.req.header('x-request-id') ?? null);
    log.info(
      {
        method: c.req.method,
        route: c.get('route'),
        status: c.res.status,
        ms: deps.clock.now() - started,
        ...(client !== undefined && { clientId: client.id }),
        ...(isLoggableTokenId(tokenId, authorization) && { tokenId }),
        ...(upstream !== undefined && { upstreamRequestId: upstream }),
      },
      'http request',
    );
  };
}

/**
 * The bearer token resolved to a client (`authenticate`), else its 401 or 503; then the client's
 * turn of the rate limit, then an `Accept` that takes JSON (406 otherwise). Resolves to the
 * refusal, or to undefined with `client` set. The body is not read.
 */
export function authorizeApiRequest(deps: HttpDeps): (c: Context<AppEnv>) => Promise<Response | undefined> {
  return async (c) => {
    const log = c.get('logger');
    const client = await authenticate(deps, c.req.header('authorization') ?? null, log);
    if (client.isErr()) return problemReply(c, client.error, deps.problemTypeBase);
    c.set('client', client.value);
    if (deps.rateLimit !== undefined) {
      const limited = await checkRateLimit(deps.rateLimit, client.value, deps, log);
      if (limited !== null) return problemReply(c, limited, deps.problemTypeBase);
    }
    if (!acceptsJson(c.req.header('accept') ?? null)) {
      return problemReply(c, notAcceptable(), deps.problemTypeBase);
    }
    return undefined;
  };
}
