import type { Context, Hono } from 'hono';
import type { AppEnv } from './app-env.js';
import { authorizeApiRequest, loggedApi, problemReply } from './api-middleware.js';
import { toResponse } from './http-answer.js';
import { fromFetchRequest } from './http-request.js';
import { problem, problemAnswer } from './problem-details.js';
import type { HttpDeps, RouteContext, RouteDefinition } from './route-context.js';
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

/** The path and query of a request URL; a path with `%` as `URL` reads it, any other as it is. */
function splitUrl(href: string, honoPath: string): { readonly path: string; readonly search: string } {
  const hash = href.indexOf('#');
  const bare = hash === -1 ? href : href.slice(0, hash);
  const query = bare.indexOf('?');
  const search = query === -1 || query === bare.length - 1 ? '' : bare.slice(query);
  // Without `%`, Hono's path is the URL's (a request's URL is serialized already).
  if (!(query === -1 ? bare : bare.slice(0, query)).includes('%')) return { path: honoPath, search };
  const url = new URL(href);
  return { path: url.pathname, search: url.search };
}

/** Runs one route for a request `authorize` lets through, and answers its result. */
function serveRoute(
  route: RouteDefinition,
  deps: HttpDeps,
  authorize: (c: Context<AppEnv>) => Promise<Response | undefined>,
  basePath: string,
  prefix: string,
) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const refused = await authorize(c);
    if (refused !== undefined) return refused;
    const href = c.req.url;
    const { path, search } = splitUrl(href, c.req.path);
    if (path.includes('%') && !decodablePath(path)) {
      return problemReply(c, problem('not_found', 'No such resource'), deps.problemTypeBase);
    }
    const requestId = c.get('requestId');
    let url: URL | undefined;
    const context: RouteContext = {
      deps,
      request: fromFetchRequest(c.req.raw, `${path}${search}`, c.env?.incoming),
      search,
      path: path.slice(prefix.length),
      basePath: c.env?.basePath ?? basePath,
      params: c.req.param(),
      client: c.get('client'),
      requestId,
      logger: c.get('logger'),
      // Parsed only when a route reads it.
      get url() {
        return (url ??= new URL(href));
      },
    };
    const result = await route.handler(context);
    const answer = result.isOk() ? result.value : problemAnswer(result.error, deps.problemTypeBase);
    return toResponse(answer, c.req.method, requestId);
  };
}

/**
 * Registers the v1 API under `/v1` (and under `basePath` too): each route of `ROUTES`, a 405 with
 * `Allow` for a known path with another method, a 404 for any other path, one log line each.
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
    for (const route of ROUTES) {
      // One handler, not three middleware: each would cost a promise and a dispatch per request.
      const serve = serveRoute(route, deps, authorize, basePath, prefix);
      app.on(route.method, honoPath(prefix, route), loggedApi(deps, route.name, serve));
    }
    for (const [path, methods] of allowed) {
      const allow = [...methods].sort().join(', ');
      const notAllowed = problem('method_not_allowed', `This resource allows ${allow}`, { headers: { allow } });
      app.all(
        `${prefix}/${path}`,
        loggedApi(deps, 'method not allowed', (c) => problemReply(c, notAllowed, typeBase)),
      );
    }
    const notFound = problem('not_found', 'No such resource');
    app.all(
      `${prefix}/v1/*`,
      loggedApi(deps, 'not found', (c) => problemReply(c, notFound, typeBase)),
    );
  }
}
