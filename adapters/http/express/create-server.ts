import express, { type ErrorRequestHandler, type Express } from 'express';
import { guardLogger, silentLogger } from '../../../src/ports/logger.js';
import type { FetchHandlerOptions } from '../app.js';
import type { FetchHandler } from '../page-context.js';
import { problem, problemAnswer } from '../problem-details.js';
import { isRequestIdToken, REQUEST_ID_HEADER, requestIdSource } from '../request-id.js';
import { createExpressRouter } from './express-router.js';
import { sendAnswer } from '../node-answer.js';
import { paystate } from './paystate.js';
import { paystateErrorHandler, type PaystateErrorHandlerOptions } from './problem-error-handler.js';

/**
 * Options of `createServer(handler, options)`: those of `paystateErrorHandler`, for every answer the
 * app writes itself (its `404`, `500` and `501`, a body parser's problem); `logger` gets the `500`s.
 */
export type CreateServerOptions = PaystateErrorHandlerOptions;

/**
 * The app's last error handler: an error nothing answered is logged and answered `500` as a
 * problem (the connection closed if the head went out), under the request's id or a new one.
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
 * A ready Express application serving paystate (`.listen(port)`): the v1 API and `pages` from
 * handler options, or any fetch handler; every error a problem with a `Request-Id` (embedding-http.md, "Express 5").
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
