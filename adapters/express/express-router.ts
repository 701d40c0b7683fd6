import express, { type Router } from 'express';
import type { FetchHandler } from '../http/fetch-handler.js';
import {
  isFetchMethod,
  sendFetchResponse,
  sendNotImplemented,
  toFetchRequest,
  type SendFetchResponseOptions,
} from '../node/fetch-bridge.js';
import { stampExpressClientIp } from './client-address.js';
import { consumedBody } from './consumed-body.js';

/**
 * Mounts any fetch-standard handler in Express: every request that reaches the router goes to
 * the handler as a fetch `Request` whose path is relative to the mount point (`req.url`). Works
 * whether or not the host parsed the body before (see `consumedBody`). Pass the mount point as
 * the handler's `basePath` so that links resolve; `paystate(options)` does that by itself.
 * Methods a fetch `Request` cannot carry (`TRACE`, `CONNECT`) are answered 501. The client's
 * address for the hosted page (`clientIpFromHeader`) is `req.ip` (see `paystate`). A response
 * node refuses to write (a header value with a control character) is logged to `options.logger`
 * and answered `500 internal_error`, its problem `type` under `options.problemTypeBase`.
 */
export function createExpressRouter(handler: FetchHandler, options: SendFetchResponseOptions = {}): Router {
  const router = express.Router();
  router.use((req, res, next) => {
    if (!isFetchMethod(req.method)) {
      sendNotImplemented(req, res, options.problemTypeBase);
      return;
    }
    stampExpressClientIp(req);
    const body = consumedBody(req);
    const request = toFetchRequest(req, { url: req.url, ...(body !== undefined && { body }) });
    handler(request)
      .then((response) => sendFetchResponse(req, res, response, options))
      .catch(next);
  });
  return router;
}
