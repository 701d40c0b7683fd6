import express, { type ErrorRequestHandler, type Express } from 'express';
import type { Logger } from '../../../src/ports/logger.js';
import { guardLogger, silentLogger } from '../../../src/ports/logger.js';
import type { FetchHandlerOptions } from '../app.js';
import type { FetchHandler } from '../page-context.js';
import { problem, problemAnswer } from '../problem-details.js';
import { isRequestIdToken, REQUEST_ID_HEADER, requestIdSource } from '../request-id.js';
import { createExpressRouter } from './express-router.js';
import { sendAnswer } from '../node-answer.js';
import { paystate } from './paystate.js';
import { paystateErrorHandler } from './problem-error-handler.js';

/** Options of `createServer(handler, options)`: where the app's failures go and how they are answered. */
export interface CreateServerOptions {
  /**
   * Receives the errors the app answers `500` (a handler that rejects, a response node refuses
   * to write, a body parser's set-up error). Default: none.
   */
  readonly logger?: Logger;
  /** Prefix of the problem `type` URIs of the answers the app writes itself. Default `urn:paystate:problem:`. */
  readonly problemTypeBase?: string;
  /**
   * Makes the `Request-Id` of the answers the app writes itself (its `404`, `500` and `501`, a body
   * parser's problem). Default: `req_` and 32 hex digits. One that throws or gives no header token
   * falls back to the default (see `ApiOptions.requestId`).
   */
  readonly requestId?: () => string;
}

/**
 * The app's last error handler: any error nothing answered before (a fetch handler or `pages`
 * that rejected) is logged and answered `500 internal_error`, never Express's HTML page with
 * its stack trace; when the head already went out, the connection is closed. The request keeps
 * the id it already has (`paystate()` sets it before it hands on a page that rejected, which ran
 * its engine commands under it); else it gets a new one.
 */
function internalErrorHandler(options: CreateServerOptions, requestIds: () => string): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const given = res.getHeader(REQUEST_ID_HEADER);
    const requestId = typeof given === 'string' && isRequestIdToken(given) ? given : requestIds();
    guardLogger(options.logger ?? silentLogger).error(
      { method: req.method, error, requestId },
      'unhandled error in the Express app',
    );
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const answer = problemAnswer(problem('internal_error', 'An unexpected error occurred'), options.problemTypeBase);
    sendAnswer(req, res, answer, requestId, options.problemTypeBase);
  };
}

/**
 * A ready Express application serving paystate. Call `.listen(port)` on it.
 *
 * - `createServer(options)`: the v1 API and `pages` from handler options, a 404 problem for
 *   anything else; failures are logged to `options.logger`, problem `type`s are under
 *   `options.problemTypeBase`.
 * - `createServer(handler, { logger, problemTypeBase })`: any fetch handler (every request goes
 *   to it, so it answers unknown paths itself: `createFetchHandler` with a 404 problem). A
 *   response node refuses to write, or an error a body parser hands on, is answered as a problem
 *   document under `problemTypeBase` and, when it is the server's fault, logged to `logger`.
 *
 * Either way, an error nothing else answered (a handler or `pages` that rejected) is logged and
 * answered `500 internal_error` as a problem document. Every answer the app writes itself carries
 * a `Request-Id` (from `options.requestId`, the handler options' or the second argument's).
 */
export function createServer(options: FetchHandlerOptions): Express;
export function createServer(handler: FetchHandler, options?: CreateServerOptions): Express;
export function createServer(source: FetchHandlerOptions | FetchHandler): Express;
export function createServer(
  source: FetchHandlerOptions | FetchHandler,
  handlerOptions: CreateServerOptions = {},
): Express {
  const app = express();
  app.disable('x-powered-by');
  const options: CreateServerOptions = typeof source === 'function' ? handlerOptions : source;
  const requestIds = requestIdSource(options.requestId, options.logger);
  if (typeof source === 'function') {
    app.use(createExpressRouter(source, options));
  } else {
    app.use(paystate(source));
    app.use((req, res) => {
      const answer = problemAnswer(problem('not_found', 'No such resource'), options.problemTypeBase);
      sendAnswer(req, res, answer, requestIds(), options.problemTypeBase);
    });
  }
  app.use(paystateErrorHandler(options));
  app.use(internalErrorHandler(options, requestIds));
  return app;
}
