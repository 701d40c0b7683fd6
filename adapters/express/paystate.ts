import express, { type Router } from 'express';
import { guardLogger, silentLogger } from '../../src/ports/logger.js';
import { createApiHandler } from '../http/api-handler.js';
import { normalizeBasePath } from '../http/base-path.js';
import type { FetchHandlerOptions } from '../http/fetch-handler.js';
import { serveNodeRequest, type NodeServeOptions } from '../http/node-listener.js';
import { requestIdSource } from '../http/request-id.js';
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
 * - Every answer of the API carries the request's `Request-Id` (see `requestId`).
 */
export function paystate(options: PaystateExpressOptions): Router {
  const api = createApiHandler(options);
  const requestIds = requestIdSource(options.requestId, guardLogger(options.logger ?? silentLogger));
  const fixedBase = options.basePath === undefined ? undefined : normalizeBasePath(options.basePath);
  const pages = options.pages;
  const router = express.Router();
  router.use((req, res, next) => {
    stampExpressClientIp(req);
    const body = consumedBody(req);
    const target = req.url;
    const fallback = async () => {
      // The pages read the body only when they answer: the fetch body pulls from the node stream
      // on its first read, so a request they pass on keeps its body for the host.
      const page =
        pages === undefined || !isFetchMethod(req.method)
          ? undefined
          : await pages(toFetchRequest(req, { url: target, ...(body !== undefined && { body }) }));
      if (page === undefined) next();
      else await sendFetchResponse(req, res, page, serve);
    };
    const serve: NodeServeOptions = {
      basePath: fixedBase ?? req.baseUrl,
      target,
      requestId: requestIds(),
      ...(body !== undefined && { body }),
      ...(options.logger !== undefined && { logger: options.logger }),
      ...(options.problemTypeBase !== undefined && { problemTypeBase: options.problemTypeBase }),
    };
    serveNodeRequest(api, req, res, serve, fallback).catch(next);
  });
  return router;
}
