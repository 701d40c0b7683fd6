import type { IncomingMessage } from 'node:http';
import type { Router } from 'express';
import { createApp, type FetchHandlerOptions } from '../app.js';
import { normalizeBasePath } from '../base-path.js';
import { nodeListener } from '../node-server.js';
import { expressBridge, expressClientAddress, handOn } from './express-router.js';

/** Whether a request target, as written (before dot segments resolve), is `/v1` or below it. */
function underV1(target: string): boolean {
  const path = target.split(/[?#]/, 1)[0] ?? '';
  return path === '/v1' || path.startsWith('/v1/');
}

/** Options of `paystate()`: those of `createFetchHandler`. */
export type PaystateExpressOptions = FetchHandlerOptions;

/**
 * The v1 API (and `pages`) as Express 5 middleware under any path: `app.use('/payments',
 * paystate(options))`; what it answers, links, `req.ip` and body parsers: embedding-http.md, "Express 5".
 */
export function paystate(options: PaystateExpressOptions): Router {
  const app = createApp(options);
  const fixedBase = options.basePath === undefined ? undefined : normalizeBasePath(options.basePath);
  const listener = nodeListener(
    async (request, env) => {
      const req = env.incoming as IncomingMessage & { baseUrl?: string };
      let handed = false;
      const response = await app.fetch(request, {
        basePath: fixedBase ?? req.baseUrl ?? '',
        // A target under /v1 as the client wrote it (`/v1/..` too, which the URL resolves) is the API's.
        ...(!underV1(req.url ?? '/') && {
          passThrough: () => {
            handed = true;
          },
        }),
      });
      // Neither the API nor a page answered: the host's next middleware does, body unread.
      return handed ? handOn(req) : response;
    },
    { ...options, clientAddress: expressClientAddress },
  );
  return expressBridge(listener);
}
