import express, { type Router } from 'express';
import type { FetchHandler } from '../http/fetch-handler.js';
import { isFetchMethod, sendFetchResponse, sendNotImplemented, toFetchRequest } from '../node/fetch-bridge.js';
import { stampExpressClientIp } from './client-address.js';
import { consumedBody } from './consumed-body.js';

/**
 * Mounts any fetch-standard handler in Express: every request that reaches the router goes to
 * the handler as a fetch `Request` whose path is relative to the mount point (`req.url`). Works
 * whether or not the host parsed the body before (see `consumedBody`). Pass the mount point as
 * the handler's `basePath` so that links resolve; `paystate(options)` does that by itself.
 * Methods a fetch `Request` cannot carry (`TRACE`, `CONNECT`) are answered 501. The client's
 * address for the hosted page (`clientIpFromHeader`) is `req.ip` (see `paystate`).
 */
export function createExpressRouter(handler: FetchHandler): Router {
  const router = express.Router();
  router.use((req, res, next) => {
    if (!isFetchMethod(req.method)) {
      sendNotImplemented(req, res);
      return;
    }
    stampExpressClientIp(req);
    const body = consumedBody(req);
    const request = toFetchRequest(req, { url: req.url, ...(body !== undefined && { body }) });
    handler(request)
      .then((response) => sendFetchResponse(req, res, response))
      .catch(next);
  });
  return router;
}
