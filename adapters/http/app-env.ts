import type { IncomingMessage } from 'node:http';
import type { Client } from '../../src/ports/credential-store.js';
import type { Logger } from '../../src/ports/logger.js';

/** What a host's bridge hands the app with each request (`app.fetch(request, env)`). */
export interface AppBindings {
  /**
   * Called for a request no route or page answers, which the host then answers itself (Express's
   * `next()`): the app's answer to it is a placeholder the bridge drops. Default: such requests
   * are answered 404.
   */
  readonly passThrough?: () => void;
  /** The prefix links are written under for this request (Express's `req.baseUrl`). Default: `basePath`. */
  readonly basePath?: string;
  /**
   * The node request `@hono/node-server` made the fetch `Request` of, when the body is still
   * unread: the API reads the body from it directly. Default: the body is read from the `Request`.
   */
  readonly incoming?: IncomingMessage;
}

/** The Hono environment of paystate's app: the bindings above and what middleware sets. */
export interface AppEnv {
  Bindings: AppBindings;
  Variables: {
    /** The request's id (`Request-Id`), set first thing by `requestIdMiddleware`. */
    requestId: string;
    /** The host's logger with the request's id on every line. */
    logger: Logger;
    /** The API route's name for the request's log line (`not found` when none matched). */
    route: string;
    /** The client the request authenticated as. */
    client: Client;
  };
}
