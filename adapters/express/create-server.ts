import express, { type Express } from 'express';
import type { FetchHandler, FetchHandlerOptions } from '../http/fetch-handler.js';
import { writeAnswer } from '../http/node-listener.js';
import { problem, problemAnswer } from '../http/problem-details.js';
import { createExpressRouter } from './express-router.js';
import { paystate } from './paystate.js';
import { paystateErrorHandler } from './problem-error-handler.js';

/**
 * A ready Express application serving paystate: from handler options (the v1 API, `pages`, and
 * a 404 problem for anything else), or from any fetch handler. Call `.listen(port)` on it.
 */
export function createServer(source: FetchHandlerOptions | FetchHandler): Express {
  const app = express();
  app.disable('x-powered-by');
  if (typeof source === 'function') {
    app.use(createExpressRouter(source));
    return app;
  }
  app.use(paystate(source));
  app.use((req, res) => {
    writeAnswer(req, res, problemAnswer(problem('not_found', 'No such resource'), source.problemTypeBase));
  });
  app.use(
    paystateErrorHandler({
      ...(source.problemTypeBase !== undefined && { problemTypeBase: source.problemTypeBase }),
      ...(source.logger !== undefined && { logger: source.logger }),
    }),
  );
  return app;
}
