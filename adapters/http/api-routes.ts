import type { Context, Hono } from 'hono';
import type { AppEnv } from './app-env.js';
import { authorizeApiRequest, logApiRequest, problemReply } from './api-middleware.js';
import { toResponse } from './http-answer.js';
import { fromFetchRequest } from './http-request.js';
import { problem, problemAnswer } from './problem-details.js';
import type { HttpDeps, RouteDefinition } from './route-context.js';
import { ROUTES } from './routes/route-table.js';

/** The Hono path of a route's segments (`/v1/profiles/:profile_id`). */
const honoPath = (prefix: string, route: RouteDefinition): string => `${prefix}/${route.pattern.join('/')}`;

/** False for a path with a segment that is not valid percent-encoding (it names no resource). */
function decodablePath(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Runs one route for an authorized request (see `authorizeApiRequest`) and answers its result. */
function serveRoute(route: RouteDefinition, deps: HttpDeps, basePath: string, prefix: string) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const url = new URL(c.req.url);
    const request = fromFetchRequest(c.req.raw, url, c.env?.incoming);
    if (url.pathname.includes('%') && !decodablePath(url.pathname)) {
      return problemReply(c, problem('not_found', 'No such resource'), deps.problemTypeBase);
    }
    const result = await route.handler({
      deps,
      request,
      url,
      path: url.pathname.slice(prefix.length),
      basePath: c.env?.basePath ?? basePath,
      params: c.req.param(),
      client: c.get('client'),
      requestId: c.get('requestId'),
      logger: c.get('logger'),
    });
    const answer = result.isOk() ? result.value : problemAnswer(result.error, deps.problemTypeBase);
    return toResponse(answer, c.req.method, c.get('requestId'));
  };
}

/**
 * Registers the v1 API on `app` under `/v1`, and under `basePath` too when one is given (a mount
 * that strips the prefix and one that does not both route): each route of `ROUTES` behind
 * `authorizeApiRequest`, a 405 with `Allow` for a known path with another method, a 404 for any
 * other path under `/v1` (neither authenticates), and one log line per request.
 */
export function mountApi(app: Hono<AppEnv>, deps: HttpDeps, basePath: string): void {
  const authorize = authorizeApiRequest(deps);
  const allowed = new Map<string, Set<string>>();
  for (const route of ROUTES) {
    const methods = allowed.get(route.pattern.join('/')) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    allowed.set(route.pattern.join('/'), methods);
  }
  const typeBase = deps.problemTypeBase;
  for (const prefix of basePath === '' ? [''] : [basePath, '']) {
    app.use(`${prefix}/v1/*`, logApiRequest(deps));
    for (const route of ROUTES) {
      const serve = serveRoute(route, deps, basePath, prefix);
      // One handler, not three middleware: each would cost a promise and a dispatch per request.
      app.on(route.method, honoPath(prefix, route), async (c) => {
        c.set('route', route.name);
        return (await authorize(c)) ?? serve(c);
      });
    }
    for (const [path, methods] of allowed) {
      const allow = [...methods].sort().join(', ');
      app.all(`${prefix}/${path}`, (c) => {
        c.set('route', 'method not allowed');
        return problemReply(
          c,
          problem('method_not_allowed', `This resource allows ${allow}`, { headers: { allow } }),
          typeBase,
        );
      });
    }
    app.all(`${prefix}/v1/*`, (c) => problemReply(c, problem('not_found', 'No such resource'), typeBase));
  }
}
