import type { IncomingMessage, ServerResponse } from 'node:http';
import { err, ok, type Result } from 'neverthrow';
import { guardLogger, silentLogger, withLogFields, type Logger } from '../../src/ports/logger.js';
import { stampClientIp } from '../hosted-page/client-ip.js';
import {
  closeWhenBodyUnread,
  isBodyConsumed,
  isBodyLost,
  isFetchMethod,
  logQuietly,
  originFormTarget,
  sendFetchResponse,
  sendInternalError,
  sendNotImplemented,
  toFetchRequest,
} from '../node/fetch-bridge.js';
import { createApiHandler, type ApiHandler } from './api-handler.js';
import { normalizeBasePath } from './base-path.js';
import { createFetchResponder, type FetchHandlerOptions } from './fetch-handler.js';
import type { HttpAnswer } from './http-answer.js';
import type { HttpRequest } from './http-request.js';
import { problem, problemAnswer } from './problem-details.js';
import { concatChunks, declaresMoreThan, type BodyReadFailure } from './read-body.js';
import { isRequestIdToken, REQUEST_ID_HEADER, requestIdSource } from './request-id.js';

const EMPTY = new Uint8Array(0);
const ignore = (): void => undefined;

function readNodeBody(req: IncomingMessage, limit: number): Promise<Result<Uint8Array, BodyReadFailure>> {
  if (isBodyConsumed(req)) return Promise.resolve(ok(EMPTY));
  if (declaresMoreThan(req.headers['content-length'], limit)) return Promise.resolve(err('too_large'));
  // The client went away before the body was read (while the host's middleware or the credential
  // store ran): its `close` has been and gone, so waiting for it would never settle.
  if (isBodyLost(req)) return Promise.resolve(err('unreadable'));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (result: Result<Uint8Array, BodyReadFailure>) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > limit) {
        req.pause();
        settle(err('too_large'));
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = () => settle(ok(concatChunks(chunks, total)));
    const onClose = () => {
      if (!req.complete) settle(err('unreadable'));
    };
    req.on('error', ignore);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}

/** Per-request settings of `serveNodeRequest`. */
export interface NodeServeOptions {
  /** Path and query below the mount (Express's `req.url`). Default `req.url`. */
  readonly target?: string;
  /** Mount prefix for links. */
  readonly basePath: string;
  /** The body, when a host's body parser has already read the stream. */
  readonly body?: Uint8Array;
  /** Receives an answer node refused to write (see `writeAnswer`). */
  readonly logger?: Logger;
  /** Prefix of the problem `type` of the `500` written when node refuses an answer. */
  readonly problemTypeBase?: string;
  /**
   * The request's id, made by the caller (1 to 200 visible ASCII characters): the API logs under
   * it, and the answer is written with it as `Request-Id`. Default: the API makes one (and its
   * answer carries it).
   */
  readonly requestId?: string;
}

/** Headers of which node keeps only the first field line in `req.headers` (it joins the others). */
const FIRST_LINE_ONLY: ReadonlySet<string> = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/**
 * A request header as fetch's `Headers.get` gives it: every field line, joined with `, `. Node
 * keeps only the first of a repeated `Authorization` (or `Content-Type`, …) in `req.headers`,
 * which would let this entry point act on the first of two tokens where the fetch bridge refuses
 * the pair (`401 invalid_token`). A value the host's middleware set in `req.headers` (a gateway
 * that presents paystate's token) is taken as it is.
 */
function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.join(', ');
  if (!FIRST_LINE_ONLY.has(name)) return value;
  const lines = req.headersDistinct[name];
  return lines !== undefined && lines.length > 1 && lines[0] === value ? lines.join(', ') : value;
}

function fromNodeRequest(req: IncomingMessage, options: NodeServeOptions): HttpRequest {
  const given = options.body;
  return {
    method: req.method ?? 'GET',
    // An absolute-form target (`GET http://host/v1/… HTTP/1.1`) routes by its path and query.
    target: options.target ?? originFormTarget(req.url ?? '/'),
    header(name) {
      // A host's body parser hands over the body decoded: its Content-Encoding no longer applies.
      if (given !== undefined && name === 'content-encoding') return null;
      return headerValue(req, name);
    },
    readBody(limit) {
      if (given === undefined) return readNodeBody(req, limit);
      const tooLarge = given.byteLength > limit || declaresMoreThan(req.headers['content-length'], limit);
      return Promise.resolve(tooLarge ? err('too_large') : ok(given));
    },
  };
}

/** How `writeAnswer` reports an answer node refuses to write. */
export interface WriteAnswerOptions {
  /** Receives the failure. Default: none. */
  readonly logger?: Logger;
  /** Prefix of the problem `type` of the `500` written instead. */
  readonly problemTypeBase?: string;
  /** The request's id, written as `Request-Id` (on the `500` written instead too). Default: none. */
  readonly requestId?: string;
}

function writeOnce(req: IncomingMessage, res: ServerResponse, answer: HttpAnswer, requestId?: string): void {
  closeWhenBodyUnread(req, res);
  const headers: Record<string, string | number> = {
    ...answer.headers,
    'content-length': Buffer.byteLength(answer.body, 'utf8'),
  };
  if (requestId !== undefined) headers[REQUEST_ID_HEADER] = requestId;
  res.writeHead(answer.status, headers);
  // A string body goes out in the same write as the head.
  res.end(req.method === 'HEAD' ? undefined : answer.body, 'utf8');
}

/**
 * Writes an API answer in one write, with its `Content-Length`. Never throws: an answer node
 * refuses to write (a header value with a control character, `ERR_INVALID_CHAR`) is logged and
 * answered `500 internal_error` instead; when the head already went out, the connection is closed.
 * A logger that throws loses its line, not the answer.
 */
export function writeAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  answer: HttpAnswer,
  options: WriteAnswerOptions = {},
): void {
  const { requestId } = options;
  try {
    writeOnce(req, res, answer, requestId);
  } catch (error) {
    logQuietly(
      options.logger,
      { method: req.method, status: answer.status, error, ...(requestId !== undefined && { requestId }) },
      'could not write the answer',
    );
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // Headers of the refused answer that writeHead set before it failed must not go out.
    for (const name of Object.keys(answer.headers)) res.removeHeader(name);
    // A request id node refused (a caller's, with a control character) is left off the 500.
    writeOnce(
      req,
      res,
      problemAnswer(problem('internal_error', 'The answer could not be written'), options.problemTypeBase),
      requestId !== undefined && isRequestIdToken(requestId) ? requestId : undefined,
    );
  }
}

/**
 * Serves one node:http request: the API directly on the node objects (no fetch `Request` or
 * `Response` is built for it), anything else through `fallback` (pages, or the host's next
 * middleware). Resolves when the answer is handed to node. The answer carries `Request-Id`:
 * `options.requestId`, or else the one the API made.
 */
export async function serveNodeRequest(
  api: ApiHandler,
  req: IncomingMessage,
  res: ServerResponse,
  options: NodeServeOptions,
  fallback: () => Promise<void> | void,
): Promise<void> {
  const answer = await api(fromNodeRequest(req, options), options.basePath, options.requestId);
  if (answer === null) await fallback();
  else writeAnswer(req, res, answer, options);
}

/** Options of `createNodeListener`: those of `createFetchHandler`, and where the client's address comes from. */
export interface NodeListenerOptions extends FetchHandlerOptions {
  /**
   * The client's address as `pages` get it (the hosted page's `clientIpFromHeader`). Default: the
   * socket's (`req.socket.remoteAddress`), as Express's `req.ip` without `trust proxy`; behind a
   * proxy you trust, return the address it forwards. Whatever the client sent in
   * `X-Paystate-Client-IP` is replaced.
   */
  readonly clientAddress?: (req: IncomingMessage) => string | undefined;
}

/**
 * A `node:http` request listener serving the v1 API and `pages`:
 * `http.createServer(createNodeListener(options)).listen(3000)`. Equivalent to bridging
 * `createFetchHandler(options)` with `createNodeRequestListener` from `paystate/node`, but
 * the API requests skip building fetch objects. The pages get the client's address in
 * `X-Paystate-Client-IP` (see `clientAddress`), as with `paystate()` in Express, and the request's
 * id in their `PageContext`. Every answer carries the request's `Request-Id`: the API's, a page's,
 * its 404, the 501 for `TRACE`, and every 500 (of its last catch, and the one written instead of
 * an answer or a page's response node refuses to write).
 */
export function createNodeListener(options: NodeListenerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const api = createApiHandler(options);
  const logger = guardLogger(options.logger ?? silentLogger);
  // Answers without Request-Id: it is set on the node response before them (see outsideApi).
  const respond = createFetchResponder(options, { api, logger, writesRequestId: false });
  const requestIds = requestIdSource(options.requestId, logger);
  const basePath = normalizeBasePath(options.basePath);
  const { clientAddress, problemTypeBase } = options;
  // What the serve options of every request share; each adds its id.
  const shared: Omit<NodeServeOptions, 'requestId'> = {
    basePath,
    ...(options.logger !== undefined && { logger: options.logger }),
    ...(problemTypeBase !== undefined && { problemTypeBase }),
  };
  /** A request outside the API: the 501 for a method a fetch `Request` cannot carry, else pages or the 404. */
  const outsideApi = async (req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> => {
    // Set first, so that it also goes out on a 500 written instead of a response node refuses:
    // that removes the refused response's headers, and the response carries no Request-Id.
    res.setHeader(REQUEST_ID_HEADER, requestId);
    if (!isFetchMethod(req.method)) {
      sendNotImplemented(req, res, problemTypeBase);
      return;
    }
    // The hosted page sends the cardholder's address to 3DS: the socket's, never the client's word.
    stampClientIp(req, clientAddress?.(req));
    const response = await respond(toFetchRequest(req), requestId);
    await sendFetchResponse(req, res, response, {
      logger: withLogFields(logger, { requestId }),
      ...(problemTypeBase !== undefined && { problemTypeBase }),
    });
  };
  return (req, res) => {
    const requestId = requestIds();
    serveNodeRequest(api, req, res, { ...shared, requestId }, () => outsideApi(req, res, requestId)).catch(
      (error: unknown) => {
        // The last catch: neither a throwing logger nor a failing write may escape it unhandled.
        logQuietly(options.logger, { method: req.method, error, requestId }, 'node listener failed');
        try {
          if (res.headersSent) res.destroy();
          else {
            res.setHeader(REQUEST_ID_HEADER, requestId);
            sendInternalError(req, res, 'An unexpected error occurred', problemTypeBase);
          }
        } catch {
          res.destroy();
        }
      },
    );
  };
}
