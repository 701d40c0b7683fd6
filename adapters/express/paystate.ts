import express, { type Router } from 'express';
import { guardLogger, silentLogger, withLogFields } from '../../src/ports/logger.js';
import { createApiHandler } from '../http/api-handler.js';
import { normalizeBasePath } from '../http/base-path.js';
import type { FetchHandlerOptions } from '../http/fetch-handler.js';
import { serveNodeRequest, type NodeServeOptions } from '../http/node-listener.js';
import { REQUEST_ID_HEADER, requestIdSource, withRequestId } from '../http/request-id.js';
import { isFetchMethod, sendFetchResponse, toFetchRequest } from '../node/fetch-bridge.js';
import { stampExpressClientIp } from './client-address.js';
import { consumedBody } from './consumed-body.js';

/** Options of `paystate()`: those of `createFetchHandler`. */
export type PaystateExpressOptions = FetchHandlerOptions;

/**
 * The v1 API as Express 5 middleware, to mount in an existing app under any path:
 * `app.use('/payments', paystate({ engine, credentials, idempotency, clock }))`.
 *
 * - Requests under `/v1` below the mount point are answered; anything else goes to `pages`
 *   when given, and otherwise on to the host's next middleware. A request `pages` passes on
 *   (`undefined`) reaches the next middleware with its body unread.
 * - Links and `Location` are written under the mount point (`req.baseUrl`), unless `basePath`
 *   is given.
 * - The client's address for the hosted page (`clientIpFromHeader`) is `req.ip`, which follows
 *   the app's `trust proxy` setting; a value the client sent in that header is replaced.
 * - Works whether or not the host registered `express.json()` before it (see `consumedBody`).
 * - A page response node refuses to write (a header value with a control character) is logged
 *   and answered `500 internal_error` (see `sendFetchResponse`).
 * - Every answer of the API and of `pages` carries the request's `Request-Id` (see `requestId`);
 *   `pages` get it in their `PageContext` (replacing any `Request-Id` a page set), and so does
 *   the `500` written instead of a page response node refuses. A page that rejects is handed to
 *   the host's error handler (`next(error)`) with the id set on the response (`createServer`'s
 *   500 keeps it).
 */
export function paystate(options: PaystateExpressOptions): Router {
  const api = createApiHandler(options);
  const logger = guardLogger(options.logger ?? silentLogger);
  const requestIds = requestIdSource(options.requestId, logger);
  const fixedBase = options.basePath === undefined ? undefined : normalizeBasePath(options.basePath);
  const pages = options.pages;
  const router = express.Router();
  router.use((req, res, next) => {
    stampExpressClientIp(req);
    const body = consumedBody(req);
    const target = req.url;
    const requestId = requestIds();
    const fallback = async () => {
      // The pages read the body only when they answer: the fetch body pulls from the node stream
      // on its first read, so a request they pass on keeps its body for the host.
      let page: Response | undefined;
      try {
        page =
          pages === undefined || !isFetchMethod(req.method)
            ? undefined
            : await pages(toFetchRequest(req, { url: target, ...(body !== undefined && { body }) }), { requestId });
      } catch (error) {
        // A page that rejects goes to the host's error handler (`createServer`'s 500): with the id
        // the page ran under, which that answer keeps.
        if (!res.headersSent) res.setHeader(REQUEST_ID_HEADER, requestId);
        throw error;
      }
      if (page === undefined) {
        next();
        return;
      }
      // Set on the node response first, so that a 500 written instead of a response node refuses
      // (which takes the refused response's headers off) keeps it too.
      res.setHeader(REQUEST_ID_HEADER, requestId);
      await sendFetchResponse(req, res, withRequestId(page, undefined), {
        logger: withLogFields(logger, { requestId }),
        ...(options.problemTypeBase !== undefined && { problemTypeBase: options.problemTypeBase }),
      });
    };
    const serve: NodeServeOptions = {
      basePath: fixedBase ?? req.baseUrl,
      target,
      requestId,
      ...(body !== undefined && { body }),
      ...(options.logger !== undefined && { logger: options.logger }),
      ...(options.problemTypeBase !== undefined && { problemTypeBase: options.problemTypeBase }),
    };
    serveNodeRequest(api, req, res, serve, fallback).catch(next);
  });
  return router;
}
