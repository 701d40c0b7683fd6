import type { Context } from 'hono';
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
 * `handle` under the route name `route`, with one `info` line per request, `http request`: method,
 * route, status, duration, the client and its token's id when known, and the gateway's
 * `X-Request-Id` when it is safe to show. A handler that throws is logged as a 500.
 */
export function loggedApi(
  deps: Pick<HttpDeps, 'clock'>,
  route: string,
  handle: (c: Context<AppEnv>) => Response | Promise<Response>,
): (c: Context<AppEnv>) => Promise<Response> {
  return async (c) => {
    const started = deps.clock.now();
    c.set('route', route);
    let status = 500;
    try {
      const response = await handle(c);
      status = response.status;
      return response;
    } finally {
      logApiRequest(c, status, deps.clock.now() - started);
    }
  };
}

function logApiRequest(c: Context<AppEnv>, status: number, ms: number): void {
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
      status,
      ms,
      ...(client !== undefined && { clientId: client.id }),
      ...(isLoggableTokenId(tokenId, authorization) && { tokenId }),
      ...(upstream !== undefined && { upstreamRequestId: upstream }),
    },
    'http request',
  );
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
