import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Router } from 'express';
import { nodeListener, type NodeRequestListenerOptions } from '../node-server.js';
import type { FetchHandler } from '../page-context.js';
import { REQUEST_ID_HEADER, requestIdSource } from '../request-id.js';
import { dropHeader, presentHostAuthorization } from '../host-headers.js';
import { consumedBody } from './consumed-body.js';

/** Options of `createExpressRouter`: those of `createNodeRequestListener` but `clientAddress` (`req.ip`). */
export type ExpressRouterOptions = Omit<NodeRequestListenerOptions, 'clientAddress'>;

/** The host's `next` of each request in flight: how a handler hands a request on. */
const nexts = new WeakMap<IncomingMessage, NextFunction>();

/**
 * Hands the request to the host's next middleware (given `error`, to its error handler), and
 * answers the response that tells `@hono/node-server` to write nothing.
 */
export function handOn(req: IncomingMessage, error?: unknown): undefined {
  const next = nexts.get(req);
  if (error === undefined) next?.();
  else next?.(error);
  return undefined;
}

/** The client's address as Express sees it: `req.ip`, which follows the app's `trust proxy`. */
export const expressClientAddress = (req: IncomingMessage): string | undefined => (req as Request).ip;

/**
 * An Express router that hands each request to a node listener (built with
 * `expressClientAddress`), with the body a host's parser already read (see `consumedBody`). The
 * listener may give the request on with `handOn`.
 */
export function expressBridge(listener: (req: IncomingMessage, res: ServerResponse) => void): Router {
  const router = express.Router();
  router.use((req, res, next) => {
    try {
      const body = consumedBody(req);
      if (body !== undefined) {
        Object.assign(req, { rawBody: Buffer.from(body.buffer, body.byteOffset, body.byteLength) });
        // The host's parser handed the body over decoded: its Content-Encoding no longer applies.
        dropHeader(req, 'content-encoding');
      }
    } catch (error) {
      next(error);
      return;
    }
    presentHostAuthorization(req);
    nexts.set(req, next);
    listener(req, res);
  });
  return router;
}

/**
 * Mounts any fetch handler in Express (paths relative to the mount point); a handler that rejects
 * goes to `next(error)` with a new `Request-Id` on the response.
 */
export function createExpressRouter(handler: FetchHandler, options: ExpressRouterOptions = {}): Router {
  const requestIds = requestIdSource(options.requestId, options.logger);
  const serveOptions = { ...options, clientAddress: expressClientAddress };
  const listener = nodeListener(
    (request) => handler(request),
    { ...serveOptions, answersTrace: true },
    (error, req, res) => {
      if (!res.headersSent) res.setHeader(REQUEST_ID_HEADER, requestIds());
      return handOn(req, error);
    },
  );
  return expressBridge(listener);
}
