import { Hono, type Context } from 'hono';
import { guardLogger, silentLogger } from '../../src/ports/logger.js';
import { apiDeps, type ApiOptions } from './api-options.js';
import { problemReply } from './api-middleware.js';
import { mountApi } from './api-routes.js';
import type { AppEnv } from './app-env.js';
import { normalizeBasePath } from './base-path.js';
import type { FetchHandler, PagesHandler } from './page-context.js';
import { toResponse } from './http-answer.js';
import { problem, serverProblemAnswer } from './problem-details.js';
import { requestIdMiddleware } from './request-id-middleware.js';
import { requestIdSource } from './request-id.js';
import { telemetryMiddleware } from './telemetry-middleware.js';

export interface FetchHandlerOptions extends ApiOptions {
  /** Serves requests outside `/v1`, given the request's id (`PageContext`). Without it they are 404. */
  readonly pages?: PagesHandler;
  /**
   * The prefix clients reach the API under (`/api`): links are written under it, and paths are
   * routed with or without it. Default: none.
   */
  readonly basePath?: string;
}

/** Methods a fetch `Request` cannot carry: no page can be given them. */
export const NOT_FETCH_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The v1 API and `pages` as one Hono app (`app.fetch` for any host, `host.route('/', app)` in Hono):
 * every answer has a `Request-Id`, every error is a problem. Throws for options out of range.
 */
export function createApp(options: FetchHandlerOptions): Hono<AppEnv> {
  // A logger that throws loses its line, never the answer (a payment created and answered 500).
  const logger = guardLogger(options.logger ?? silentLogger);
  const deps = apiDeps(options, logger);
  const typeBase = deps.problemTypeBase;
  const { pages } = options;
  const app = new Hono<AppEnv>();
  app.use(requestIdMiddleware(requestIdSource(options.requestId, logger), logger));
  const traced = telemetryMiddleware(options.telemetry);
  if (traced !== undefined) app.use(traced);
  mountApi(app, deps, normalizeBasePath(options.basePath));
  app.all('*', async (c) => {
    const method = c.req.method;
    if (NOT_FETCH_METHODS.has(method)) {
      const detail = `The ${method} method is not supported by this server`;
      return toResponse(serverProblemAnswer('method_not_implemented', detail, typeBase), method, c.get('requestId'));
    }
    const page = pages === undefined ? undefined : await pages(c.req.raw, { requestId: c.get('requestId') });
    if (page !== undefined) return page;
    const { passThrough } = (c.env ?? {}) as AppEnv['Bindings'];
    if (passThrough !== undefined) {
      passThrough();
      return c.body(null);
    }
    return problemReply(c, problem('not_found', 'No such resource'), typeBase);
  });
  app.onError((error, c: Context<AppEnv>) => {
    const inApi = c.get('route') !== undefined;
    c.get('logger').error(
      { method: c.req.method, error },
      inApi ? 'unhandled error in the HTTP API' : 'unhandled error in the HTTP handler',
    );
    return problemReply(c, problem('internal_error', 'An unexpected error occurred'), typeBase);
  });
  return app;
}

/**
 * The app's fetch handler (`createApp(options).fetch`): never rejects.
 */
export function createFetchHandler(options: FetchHandlerOptions): FetchHandler {
  const app = createApp(options);
  return (request) => Promise.resolve(app.fetch(request));
}
