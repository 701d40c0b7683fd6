import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../src/ports/logger.js';
import { stampClientIp } from '../hosted-page/client-ip.js';
import {
  DEFAULT_PROBLEM_TYPE_BASE,
  problem,
  problemAnswer,
  serverProblemDocument,
  type ServerProblemCode,
} from '../http/problem-details.js';
import { isRequestIdToken, REQUEST_ID_HEADER, requestIdSource } from '../http/request-id.js';

/** Any fetch-standard handler (paystate's `createFetchHandler`, a Hono app's `fetch`, …). */
export type FetchRequestHandler = (request: Request) => Promise<Response>;

/** Options of `toFetchRequest`. */
export interface ToFetchRequestOptions {
  /** Path and query to use instead of `req.url` (a framework's mount-relative URL). */
  readonly url?: string;
  /** The body to use when a host's body parser has already read the stream. */
  readonly body?: Uint8Array | string;
}

const VALID_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
/** Where a request whose target cannot be parsed as a URL goes (any handler answers it 404). */
const UNPARSABLE_TARGET = '/.invalid-request-target';

/** The scheme and authority of an absolute-form request target (`http://host:port`). */
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * The origin form (path and query) of a request target: an origin-form target (`/v1/…`) as it
 * is; the path and query of an absolute-form one (`http://host/v1/…`, which RFC 9112 section
 * 3.2.2 says a server MUST accept), `/` when it has no path. Any other target (`*`, an
 * authority, another scheme) as it is, which routes nowhere.
 */
export function originFormTarget(target: string): string {
  if (target.startsWith('/')) return target;
  const origin = ABSOLUTE_FORM.exec(target);
  if (origin === null) return target;
  const rest = target.slice(origin[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

function requestUrl(req: IncomingMessage, target: string): string {
  const scheme = 'encrypted' in req.socket && req.socket.encrypted === true ? 'https' : 'http';
  const header = req.headers.host;
  const host = header !== undefined && VALID_HOST.test(header) ? header : 'localhost';
  const originForm = originFormTarget(target);
  const path = originForm.startsWith('/') ? originForm : UNPARSABLE_TARGET;
  // One parse when all is well. Else the target, then the host, is what URL refuses: the pattern
  // lets through hosts it still cannot hold (port 99999, 999.999.999.999, [:::::]).
  const candidates: readonly (readonly [string, string])[] = [
    [host, path],
    [host, UNPARSABLE_TARGET],
    ['localhost', path],
  ];
  for (const [candidateHost, candidatePath] of candidates) {
    try {
      return new URL(`${scheme}://${candidateHost}${candidatePath}`).href;
    } catch {
      // Try the next one.
    }
  }
  return `${scheme}://localhost${UNPARSABLE_TARGET}`;
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i] as string, raw[i + 1] as string);
    } catch {
      // A name or value fetch cannot carry (an HTTP/2 pseudo-header): left out.
    }
  }
  return headers;
}

/** True when a host's body parser (or anything else) has read the request stream to its end. */
export function isBodyConsumed(req: IncomingMessage): boolean {
  return req.readableEnded || (req.complete && !req.readable);
}

/**
 * True when `req`'s body can no longer be read: the client went away (or the stream failed)
 * before it was read to its end. A listener attached now would wait for a `close` that already
 * happened.
 */
export function isBodyLost(req: IncomingMessage): boolean {
  return !req.readableEnded && (req.destroyed || req.errored !== null || req.readableAborted);
}

/**
 * The request body as a web stream that pulls from `req` with backpressure. Nothing is read
 * from `req` until the stream's first read: a handler that does not read the body (a page
 * handler passing on a path it does not own) leaves it to the host's next middleware. Cancelling
 * it only stops reading: the socket stays usable for the response (`sendFetchResponse` decides
 * what happens to the unread rest). A body that is lost (the client went away) errors at once.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  let listening = false;
  const listen = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    const fail = () => {
      if (settled) return;
      settled = true;
      controller.error(new Error('The request was aborted before its body was read'));
    };
    if (isBodyLost(req) || req.readableEnded) {
      fail();
      return;
    }
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      controller.enqueue(chunk);
      if ((controller.desiredSize ?? 0) <= 0) req.pause();
    });
    req.once('end', () => {
      if (settled) return;
      settled = true;
      controller.close();
    });
    req.on('error', fail);
    req.once('close', () => {
      if (!req.complete) fail();
    });
  };
  return new ReadableStream<Uint8Array>(
    {
      // Called only when a reader waits (high-water mark 0): the first call starts reading.
      pull(controller) {
        if (!listening) {
          listening = true;
          listen(controller);
        }
        if (!settled) req.resume();
      },
      cancel() {
        settled = true;
        if (listening) req.pause();
      },
    },
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  );
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Methods the fetch standard forbids in a `Request`: no fetch handler can be given them. */
const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** False for `CONNECT`, `TRACE` and `TRACK`, which a fetch `Request` cannot carry. */
export function isFetchMethod(method: string | undefined): boolean {
  return !FORBIDDEN_METHODS.has((method ?? 'GET').toUpperCase());
}

/**
 * Answers with a server-layer problem document (`serverProblemDocument`), its `type` being
 * `typeBase` and the code. A request body left unread is never read: the connection closes after
 * the answer.
 */
export function sendServerProblem(
  req: IncomingMessage,
  res: ServerResponse,
  code: ServerProblemCode,
  detail: string,
  typeBase: string = DEFAULT_PROBLEM_TYPE_BASE,
): void {
  closeWhenBodyUnread(req, res);
  const document = serverProblemDocument(code, detail, typeBase);
  const body = JSON.stringify(document);
  res.writeHead(document.status, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

/**
 * Answers a request a fetch handler cannot be given (see `isFetchMethod`): 501 Not Implemented,
 * as a problem document with code `method_not_implemented` (its `type` is `typeBase` and the code).
 */
export function sendNotImplemented(
  req: IncomingMessage,
  res: ServerResponse,
  typeBase: string = DEFAULT_PROBLEM_TYPE_BASE,
): void {
  const detail = `The ${req.method ?? ''} method is not supported by this server`;
  sendServerProblem(req, res, 'method_not_implemented', detail, typeBase);
}

/**
 * Converts a node:http (or Express) request into a fetch `Request`. The body streams from the
 * socket; when a body parser already consumed it, pass `options.body`.
 * @throws TypeError for a method fetch forbids (`isFetchMethod`).
 */
export function toFetchRequest(req: IncomingMessage, options: ToFetchRequestOptions = {}): Request {
  const method = req.method ?? 'GET';
  const headers = requestHeaders(req);
  // A host's body parser hands over the body decoded: its Content-Encoding no longer applies.
  if (options.body !== undefined) headers.delete('content-encoding');
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') {
    if (options.body !== undefined) {
      init.body = options.body as BodyInit;
    } else if (!isBodyConsumed(req) && hasBody(req)) {
      init.body = bodyStream(req);
      init.duplex = 'half';
    }
  }
  return new Request(requestUrl(req, options.url ?? req.url ?? '/'), init);
}

function copyHeaders(res: ServerResponse, response: Response): void {
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
}

async function streamBody(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const stop = () => {
    reader.cancel().catch(() => undefined);
  };
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
  } finally {
    res.off('close', stop);
  }
  res.end();
}

/** Responses `closeWhenBodyUnread` already arranged to close after: it arranges that once. */
const closingAfterAnswer = new WeakSet<ServerResponse>();

/**
 * When the answer goes out before the request body was read to its end (a 413), the connection
 * is closed after the answer instead of reading an unbounded rest. Call before writing the head.
 */
export function closeWhenBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  if (closingAfterAnswer.has(res)) {
    // A second head (the 500 written instead of a refused response) says so again.
    res.setHeader('connection', 'close');
    return;
  }
  if (isBodyConsumed(req) || !hasBody(req)) return;
  closingAfterAnswer.add(res);
  res.setHeader('connection', 'close');
  res.once('finish', () => {
    req.resume();
    req.socket.end();
  });
}

/**
 * Answers `500 internal_error` as a problem document (its `type` being `typeBase` and the code),
 * in one write with its `Content-Length`, so that a keep-alive connection goes on. Only before
 * the head went out; headers set on `res` before (other than those of a refused response, which
 * the caller removes) go out with it.
 */
export function sendInternalError(
  req: IncomingMessage,
  res: ServerResponse,
  detail: string,
  typeBase: string = DEFAULT_PROBLEM_TYPE_BASE,
): void {
  const answer = problemAnswer(problem('internal_error', detail), typeBase);
  closeWhenBodyUnread(req, res);
  // A reason phrase the refused response set must not stay on the 500.
  res.statusMessage = '';
  res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body, 'utf8') });
  res.end(req.method === 'HEAD' ? undefined : answer.body, 'utf8');
}

async function writeFetchResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText !== '') res.statusMessage = response.statusText;
  copyHeaders(res, response);
  closeWhenBodyUnread(req, res);
  if (response.body === null) {
    res.end();
  } else if (response.headers.has('content-length')) {
    res.end(Buffer.from(await response.arrayBuffer()));
  } else {
    await streamBody(res, response.body);
  }
}

/** How `sendFetchResponse` reports a response it cannot write. */
export interface SendFetchResponseOptions {
  /** Receives the failure. Default: none. */
  readonly logger?: Logger;
  /** Prefix of the problem `type` of the `500` written instead. Default `urn:paystate:problem:`. */
  readonly problemTypeBase?: string;
  /**
   * Makes the `Request-Id` of the `500` written instead of a response node refuses, when neither
   * that response nor `res` carries a usable one (1 to 200 visible ASCII characters). Default:
   * `req_` and 32 hex digits. One that throws or gives no header token falls back to the default
   * (see `ApiOptions.requestId`).
   */
  readonly requestId?: () => string;
}

/** A `Request-Id` value that may go out again as it is (`isRequestIdToken`); else undefined. */
const usableRequestId = (value: unknown): string | undefined =>
  typeof value === 'string' && isRequestIdToken(value) ? value : undefined;

/**
 * Writes a fetch `Response` to a node:http (or Express) response. A body with a `Content-Length`
 * is sent in one write; others stream with backpressure. When the handler answered before
 * reading the whole request body (a 413), the connection is closed after the answer rather than
 * reading an unbounded rest.
 *
 * Never rejects. A response node refuses to write (a header value with a control character,
 * which fetch's `Headers` lets through and `res.setHeader` refuses with `ERR_INVALID_CHAR`), or
 * whose body fails, is logged and answered `500 internal_error` instead, without any of its
 * headers but a `Request-Id`: the refused response's own when it is usable as it is (the id the
 * handler answered and logged under), else the one set on `res` before, else a new one
 * (`options.requestId`); never one node refused. When the head already went out, the connection
 * is closed.
 */
export async function sendFetchResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  options: SendFetchResponseOptions = {},
): Promise<void> {
  // Read before the response's headers are copied over it (and taken off again if node refuses one).
  const preset = res.getHeader(REQUEST_ID_HEADER);
  try {
    await writeFetchResponse(req, res, response);
  } catch (error) {
    if (!response.bodyUsed) response.body?.cancel().catch(() => undefined);
    const requestId =
      usableRequestId(response.headers.get(REQUEST_ID_HEADER)) ??
      usableRequestId(preset) ??
      (res.headersSent ? undefined : requestIdSource(options.requestId, options.logger)());
    if (res.headersSent) {
      res.destroy();
    } else {
      // Headers of the refused response that were set before node refused one must not go out.
      for (const name of response.headers.keys()) res.removeHeader(name);
      try {
        if (requestId !== undefined) res.setHeader(REQUEST_ID_HEADER, requestId);
        sendInternalError(req, res, 'The response could not be written', options.problemTypeBase);
      } catch {
        res.destroy();
      }
    }
    logQuietly(
      options.logger,
      { method: req.method, status: response.status, error, ...(requestId !== undefined && { requestId }) },
      'could not write the response',
    );
  }
}

/**
 * Logs an error from a last-resort catch; a logger that throws cannot turn an answered failure
 * into an unhandled one, nor leave the request unanswered: its line is lost.
 */
export function logQuietly(logger: Logger | undefined, fields: Record<string, unknown>, message: string): void {
  try {
    logger?.error(fields, message);
  } catch {
    // Nothing left to tell it with.
  }
}

/** Options of `createNodeRequestListener`: those of `sendFetchResponse`, and where the client's address comes from. */
export interface NodeRequestListenerOptions extends SendFetchResponseOptions {
  /**
   * The client's address as the hosted page gets it (`clientIpFromHeader`). Default: the socket's
   * (`req.socket.remoteAddress`); behind a proxy you trust, the address it forwards. Whatever the
   * client sent in `X-Paystate-Client-IP` is replaced.
   */
  readonly clientAddress?: (req: IncomingMessage) => string | undefined;
  /**
   * Makes the `Request-Id` of the answers the listener writes itself: the `501` for `TRACE` (node
   * never hands a `CONNECT` to a request listener), the `500` of a handler that rejects, and the
   * `500` written instead of a response node refuses that carries no usable id of its own. The
   * handler's answers carry the handler's own. Default: `req_` and 32 hex digits. One that throws
   * or gives no header token falls back to the default (see `ApiOptions.requestId`).
   */
  readonly requestId?: () => string;
}

/**
 * A `node:http` request listener serving a fetch-standard handler:
 * `http.createServer(createNodeRequestListener(handler)).listen(3000)`.
 * A handler that rejects, or a response node cannot write, gets a logged `500`; a method fetch
 * cannot carry (`TRACE`, `TRACK`; node closes a `CONNECT` itself) a `501`. Each of those carries
 * a `Request-Id`: the refused response's own when usable (see `sendFetchResponse`), else a new
 * one (`options.requestId`), which the log line of the failure names. The request carries the
 * client's address for the hosted page (`clientIpFromHeader`): the socket's, unless
 * `clientAddress` says otherwise.
 */
export function createNodeRequestListener(
  handler: FetchRequestHandler,
  options: NodeRequestListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const { logger, problemTypeBase, clientAddress } = options;
  const requestIds = requestIdSource(options.requestId, logger);
  return (req, res) => {
    if (!isFetchMethod(req.method)) {
      res.setHeader(REQUEST_ID_HEADER, requestIds());
      sendNotImplemented(req, res, problemTypeBase);
      return;
    }
    Promise.resolve()
      .then(() => {
        stampClientIp(req, clientAddress?.(req));
        return handler(toFetchRequest(req));
      })
      .then(
        (response) => sendFetchResponse(req, res, response, options),
        (error: unknown) => {
          const requestId = requestIds();
          logQuietly(logger, { method: req.method, error, requestId }, 'fetch handler failed');
          if (res.headersSent) res.destroy();
          else {
            res.setHeader(REQUEST_ID_HEADER, requestId);
            sendInternalError(req, res, 'An unexpected error occurred', problemTypeBase);
          }
        },
      )
      .catch(() => res.destroy());
  };
}
