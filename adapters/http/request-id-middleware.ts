import type { MiddlewareHandler } from 'hono';
import { withLogFields, type Logger } from '../../src/ports/logger.js';
import { untouchedAnswerId } from './http-answer.js';
import type { AppEnv } from './app-env.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/**
 * Gives each request its id (`ids()`, see `requestIdSource`) and a logger that puts it on every
 * line, and writes it as `Request-Id` on whatever answers: a route, a page (replacing its own), a
 * 404, a problem of `onError`.
 */
export function requestIdMiddleware(ids: () => string, logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const requestId = ids();
    c.set('requestId', requestId);
    c.set('logger', withLogFields(logger, { requestId }));
    await next();
    // An answer of the app that carries the id already (most do) is left as it is, unread.
    const { res } = c;
    if (untouchedAnswerId(res) === requestId || res.headers.get(REQUEST_ID_HEADER) === requestId) return;
    // A copy: the headers of a response may be immutable.
    const headers = new Headers(res.headers);
    headers.set(REQUEST_ID_HEADER, requestId);
    // Hono's setter copies the previous response's headers onto the new one (its Request-Id too):
    // clear it first.
    c.res = undefined;
    c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
}
