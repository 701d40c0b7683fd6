import express, { type Router } from 'express';
import type { FetchHandler } from '../http/fetch-handler.js';
import {
  isFetchMethod,
  sendFetchResponse,
  sendNotImplemented,
  toFetchRequest,
  type SendFetchResponseOptions,
} from '../node/fetch-bridge.js';
import { requestIdSource, REQUEST_ID_HEADER } from '../http/request-id.js';
import { stampExpressClientIp } from './client-address.js';
import { consumedBody } from './consumed-body.js';

/** Options of `createExpressRouter`. */
export interface ExpressRouterOptions extends SendFetchResponseOptions {
  /**
   * Makes the `Request-Id` of the answers the router writes itself (the `501` for `TRACE` and
   * `CONNECT`); the handler's answers carry the handler's own. Default: `req_` and 32 hex digits.
   * One that throws or gives no header token falls back to the default (see `ApiOptions.requestId`).
   */
  readonly requestId?: () => string;
}

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
export function createExpressRouter(handler: FetchHandler, options: ExpressRouterOptions = {}): Router {
  const router = express.Router();
  const requestIds = requestIdSource(options.requestId, options.logger);
  router.use((req, res, next) => {
    if (!isFetchMethod(req.method)) {
      res.setHeader(REQUEST_ID_HEADER, requestIds());
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
