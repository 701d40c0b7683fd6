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
   * Makes the `Request-Id` of the answers the router writes itself (the `501` for `TRACE`, since
   * node never hands a `CONNECT` to Express; the `500` written instead of a response node refuses
   * that carries no usable id of its own) and of a handler that rejects, set on the response
   * before the error goes on to the host's error handler; the handler's answers carry the
   * handler's own. Default: `req_` and 32 hex digits. One that throws or gives no header token
   * falls back to the default (see `ApiOptions.requestId`).
   */
  readonly requestId?: () => string;
}

/**
 * Mounts any fetch-standard handler in Express: every request that reaches the router goes to
 * the handler as a fetch `Request` whose path is relative to the mount point (`req.url`). Works
 * whether or not the host parsed the body before (see `consumedBody`). Pass the mount point as
 * the handler's `basePath` so that links resolve; `paystate(options)` does that by itself.
 * Methods a fetch `Request` cannot carry (`TRACE`, `TRACK`) are answered 501. The client's
 * address for the hosted page (`clientIpFromHeader`) is `req.ip` (see `paystate`). A response
 * node refuses to write (a header value with a control character) is logged to `options.logger`
 * and answered `500 internal_error`, its problem `type` under `options.problemTypeBase`. A handler
 * that rejects (or throws) is handed to the host's error handler (`next(error)`) with a new
 * `Request-Id` set on the response (`createServer`'s 500 keeps it and logs under it). Every answer
 * the router writes itself carries a `Request-Id` (see `requestId`).
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
    const failed = (error: unknown): void => {
      if (!res.headersSent) res.setHeader(REQUEST_ID_HEADER, requestIds());
      next(error);
    };
    let answered: Promise<Response>;
    try {
      stampExpressClientIp(req);
      const body = consumedBody(req);
      answered = handler(toFetchRequest(req, { url: req.url, ...(body !== undefined && { body }) }));
    } catch (error) {
      failed(error);
      return;
    }
    // sendFetchResponse never rejects; a handler that rejects goes to `failed`.
    void answered.then((response) => sendFetchResponse(req, res, response, options), failed);
  });
  return router;
}
