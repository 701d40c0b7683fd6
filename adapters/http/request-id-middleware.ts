import type { MiddlewareHandler } from 'hono';
import { withLogFields, type Logger } from '../../src/ports/logger.js';
import { untouchedAnswerId } from './http-answer.js';
import type { AppEnv } from './app-env.js';
import { withRequestId } from './request-id.js';

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
    if (untouchedAnswerId(c.res) === requestId) return;
    const answered = withRequestId(c.res, requestId);
    if (answered === c.res) return;
    // Hono's setter copies the previous response's headers onto the new one (its Request-Id too):
    // clear it first.
    c.res = undefined;
    c.res = answered;
  };
}
