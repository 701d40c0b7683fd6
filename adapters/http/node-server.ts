import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener, RequestError, type HttpBindings } from '@hono/node-server';
import { guardLogger, silentLogger, type Logger } from '../../src/ports/logger.js';
import { createApp, type FetchHandlerOptions } from './app.js';
import type { AppBindings } from './app-env.js';
import { normalizeBasePath } from './base-path.js';
import { untouchedAnswerId } from './http-answer.js';
import { bodyTaken } from './read-body.js';
import { toResponse, unwritableHeader } from './http-answer.js';
import { stampClientIp } from './hosted-page/client-ip.js';
import type { FetchHandler } from './page-context.js';
import { problem, problemAnswer, serverProblemAnswer } from './problem-details.js';
import { isRequestIdToken, REQUEST_ID_HEADER, requestIdSource } from './request-id.js';
import { dropHeader } from './host-headers.js';
import { sendAnswer } from './node-answer.js';
import { NOT_FETCH_METHODS } from './app.js';

/** A `node:http` request listener (`http.createServer(listener)`). */
export type NodeRequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Options of `createNodeRequestListener`. */
export interface NodeRequestListenerOptions {
  /** Receives the failures the listener answers itself. Default: none. */
  readonly logger?: Logger;
  /** Prefix of the problem `type` of the answers the listener writes itself. */
  readonly problemTypeBase?: string;
  /**
   * The client's address as the hosted page gets it (`clientIpFromHeader`). Default: the socket's
   * (`req.socket.remoteAddress`); behind a proxy you trust, the address it forwards. Whatever the
   * client sent in `X-Paystate-Client-IP` is replaced.
   */
  readonly clientAddress?: (req: IncomingMessage) => string | undefined;
  /**
   * Makes the `Request-Id` of the answers the listener writes itself (the `400` of a target or
   * `Host` it cannot read, the `500` of a handler that rejects or of a response node would refuse
   * that carries no usable id of its own). Default: `req_` and 32 hex digits.
   */
  readonly requestId?: () => string;
}

/**
 * A `node:http` listener serving any fetch handler through `@hono/node-server`: a target or `Host`
 * it cannot read is 400, a rejection or an unwritable header a logged 500, each with a `Request-Id`.
 */
export function createNodeRequestListener(
  handler: FetchHandler,
  options: NodeRequestListenerOptions = {},
): NodeRequestListener {
  return nodeListener((request) => handler(request), { ...options, answersTrace: true });
}

/** The scheme and authority of an absolute-form request target (`http://host:port`), any case. */
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;
/** A host name that needs no parsing: letters, digits, `.` `_` `-` with a letter (not an IPv4), and a port. */
const PLAIN_HOST = /^(?=[^:]*[a-z_-])[a-z0-9._-]+(?::\d{1,4})?$/;

/** The last `Host` found usable: a client sends the same one on every request. */
let usableHost = '';

/** Whether a URL can hold `host` with that very host name (`@hono/node-server` refuses others). */
function isUsableHost(host: string): boolean {
  if (host === usableHost || PLAIN_HOST.test(host)) return true;
  if (!parsesAsHost(host)) return false;
  usableHost = host;
  return true;
}

function parsesAsHost(host: string): boolean {
  try {
    const { hostname } = new URL(`http://${host}/`);
    const bare = (host.includes(':') ? host.replace(/:\d+$/, '') : host).toLowerCase();
    return hostname.length > 0 && (hostname.length === host.length || hostname === bare);
  } catch {
    return false;
  }
}

/**
 * Routes an absolute-form target (`GET http://host/v1/… HTTP/1.1`, which RFC 9112 section 3.2.2
 * says a server MUST accept) by its path and query, as the origin form, and a request whose `Host`
 * no URL can hold as if it were `localhost`: neither is the client's mistake to answer 400.
 */
function toOriginForm(req: IncomingMessage): void {
  const target = req.url ?? '/';
  if (!target.startsWith('/')) {
    const authority = ABSOLUTE_FORM.exec(target)?.[0];
    if (authority !== undefined) {
      const rest = target.slice(authority.length);
      req.url = rest.startsWith('/') ? rest : `/${rest}`;
    }
  }
  const host = req.headers.host;
  if (host !== undefined && isUsableHost(host)) return;
  dropHeader(req, 'host');
  req.rawHeaders.push('host', 'localhost');
  req.headers.host = 'localhost';
}

/** A path of plain segments (no `.` `%` `\\` nor a leading `//`, which could resolve elsewhere) and any query. */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9_~!$&'()*+,;=:@/-]*(?:\?.*)?$/;

/** Whether a request target's path is `/v1` or below it, under one of `prefixes`. */
function isApiTarget(target: string, prefixes: readonly string[]): boolean {
  let path = target;
  // The common case without parsing a URL: a plain path is its own resolved path.
  if (PLAIN_PATH.test(target)) {
    const end = target.indexOf('?');
    if (end !== -1) path = target.slice(0, end);
  } else {
    try {
      path = new URL(target, 'http://localhost').pathname;
    } catch {
      return false;
    }
  }
  return prefixes.some((prefix) => path === `${prefix}/v1` || path.startsWith(`${prefix}/v1/`));
}

/** Whether the client sent a body that was not read to its end (an unauthenticated request's, a 413's). */
function bodyLeftUnread(req: IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (declared !== undefined && declared !== '0');
  return hasBody && !req.readableEnded && !bodyTaken(req);
}

/**
 * `response` marked `Connection: close`: the connection closes after it rather than reading an
 * unbounded rest of an unread body (`@hono/node-server` drains what follows for a moment).
 */
function closingAfter(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set('connection', 'close');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** A promise that never settles: `@hono/node-server` writes nothing while it waits on it. */
const HANDED_ON: Promise<Response> = new Promise(() => undefined);

/** What a bridge does with a handler that rejected: the answer (Express hands the error on). */
export type OnReject = (error: unknown, incoming: IncomingMessage, outgoing: ServerResponse) => Response | undefined;

/** `createNodeRequestListener` for a handler given the node objects, and what to do when it rejects. */
export function nodeListener(
  handler: (request: Request, env: HttpBindings) => Promise<Response | undefined>,
  options: NodeRequestListenerOptions & {
    /** Answer `TRACE` and `TRACK` 501 before the handler (a foreign handler may not). */
    readonly answersTrace?: boolean;
    /**
     * Where the API answers (`/v1` below these prefixes): its requests, and those the app answers
     * 501, never call `clientAddress` (only pages use the address). Default: none, every request does.
     */
    readonly apiPrefixes?: readonly string[];
  },
  onReject?: OnReject,
): NodeRequestListener {
  const logger = guardLogger(options.logger ?? silentLogger);
  const ids = requestIdSource(options.requestId, logger);
  const typeBase = options.problemTypeBase;
  const { clientAddress } = options;
  const internalError = (method: string, requestId: string): Response =>
    toResponse(problemAnswer(problem('internal_error', 'An unexpected error occurred'), typeBase), method, requestId);
  const serve = async (request: Request, env: HttpBindings): Promise<Response> => {
    let response: Response | undefined;
    try {
      response = await handler(request, env);
    } catch (error) {
      if (onReject === undefined) throw error;
      response = onReject(error, env.incoming, env.outgoing);
    }
    // Handed on to the host (Express's `next`), which answers.
    if (response === undefined) return HANDED_ON;
    if (bodyLeftUnread(env.incoming)) response = closingAfter(response);
    // An answer of the app's, untouched since it was made, had its headers checked then.
    const refused = untouchedAnswerId(response) === undefined ? unwritableHeader(response.headers) : undefined;
    if (refused === undefined) return response;
    const given = response.headers.get(REQUEST_ID_HEADER);
    const requestId = given !== null && isRequestIdToken(given) ? given : ids();
    logger.error(
      { method: request.method, status: response.status, header: refused, requestId },
      'could not write the response',
    );
    response.body?.cancel().catch(() => undefined);
    return internalError(request.method, requestId);
  };
  const listener = getRequestListener((request, env) => serve(request, env as HttpBindings), {
    errorHandler: (error) => {
      const requestId = ids();
      if (error instanceof RequestError) {
        const answer = serverProblemAnswer('malformed_request', 'The request target or Host is not valid', typeBase);
        return toResponse(answer, 'GET', requestId);
      }
      logger.error({ error, requestId }, 'fetch handler failed');
      return internalError('GET', requestId);
    },
  });
  const { apiPrefixes } = options;
  const skipsAddress = (req: IncomingMessage): boolean =>
    apiPrefixes !== undefined && (NOT_FETCH_METHODS.has(req.method ?? '') || isApiTarget(req.url ?? '/', apiPrefixes));
  return (req, res) => {
    const method = req.method ?? 'GET';
    if (options.answersTrace === true && NOT_FETCH_METHODS.has(method)) {
      const detail = `The ${method} method is not supported by this server`;
      sendAnswer(req, res, serverProblemAnswer('method_not_implemented', detail, typeBase), ids(), typeBase);
      return;
    }
    try {
      // The hosted page sends the cardholder's address to 3DS: the socket's, never the client's word.
      if (!skipsAddress(req)) stampClientIp(req, clientAddress?.(req));
    } catch (error) {
      const requestId = ids();
      logger.error({ method, error, requestId }, 'node listener failed');
      const answer = problemAnswer(problem('internal_error', 'An unexpected error occurred'), typeBase);
      sendAnswer(req, res, answer, requestId, typeBase);
      return;
    }
    toOriginForm(req);
    void listener(req, res);
  };
}

/**
 * The app's bindings for a node request whose body nothing has read yet (nor left as a host's
 * `rawBody`): the API reads it from the stream directly (`AppBindings.incoming`).
 */
function unreadBody(incoming: IncomingMessage): AppBindings {
  return incoming.readableDidRead || 'rawBody' in incoming ? {} : { incoming };
}

/** Options of `createNodeListener`: those of `createApp`, and where the client's address comes from. */
export interface NodeListenerOptions extends FetchHandlerOptions, Pick<NodeRequestListenerOptions, 'clientAddress'> {}

/**
 * A `node:http` request listener serving the v1 API and `pages` (`createApp`) through
 * `@hono/node-server`: `http.createServer(createNodeListener(options)).listen(3000)`.
 */
export function createNodeListener(options: NodeListenerOptions): NodeRequestListener {
  const app = createApp(options);
  const basePath = normalizeBasePath(options.basePath);
  const apiPrefixes = basePath === '' ? [''] : [basePath, ''];
  return nodeListener((request, env) => Promise.resolve(app.fetch(request, unreadBody(env.incoming))), {
    ...options,
    apiPrefixes,
  });
}
