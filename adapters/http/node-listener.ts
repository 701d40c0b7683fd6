import type { IncomingMessage, ServerResponse } from 'node:http';
import { err, ok, type Result } from 'neverthrow';
import {
  closeWhenBodyUnread,
  isBodyConsumed,
  isFetchMethod,
  originFormTarget,
  sendFetchResponse,
  sendNotImplemented,
  toFetchRequest,
} from '../node/fetch-bridge.js';
import { createApiHandler, type ApiHandler } from './api-handler.js';
import { normalizeBasePath } from './base-path.js';
import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from './fetch-handler.js';
import type { HttpAnswer } from './http-answer.js';
import type { HttpRequest } from './http-request.js';
import { concatChunks, declaresMoreThan, type BodyReadFailure } from './read-body.js';

const EMPTY = new Uint8Array(0);
const ignore = (): void => undefined;

function readNodeBody(req: IncomingMessage, limit: number): Promise<Result<Uint8Array, BodyReadFailure>> {
  if (isBodyConsumed(req)) return Promise.resolve(ok(EMPTY));
  if (declaresMoreThan(req.headers['content-length'], limit)) return Promise.resolve(err('too_large'));
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
      const value = req.headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
    readBody(limit) {
      if (given === undefined) return readNodeBody(req, limit);
      const tooLarge = given.byteLength > limit || declaresMoreThan(req.headers['content-length'], limit);
      return Promise.resolve(tooLarge ? err('too_large') : ok(given));
    },
  };
}

/** Writes an API answer in one write, with its `Content-Length`. */
export function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: HttpAnswer): void {
  closeWhenBodyUnread(req, res);
  res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body, 'utf8') });
  // A string body goes out in the same write as the head.
  res.end(req.method === 'HEAD' ? undefined : answer.body, 'utf8');
}

/**
 * Serves one node:http request: the API directly on the node objects (no fetch `Request` or
 * `Response` is built for it), anything else through `fallback` (pages, or the host's next
 * middleware). Resolves when the answer is handed to node.
 */
export async function serveNodeRequest(
  api: ApiHandler,
  req: IncomingMessage,
  res: ServerResponse,
  options: NodeServeOptions,
  fallback: () => Promise<void> | void,
): Promise<void> {
  const answer = await api(fromNodeRequest(req, options), options.basePath);
  if (answer === null) await fallback();
  else writeAnswer(req, res, answer);
}

/**
 * A `node:http` request listener serving the v1 API and `pages`:
 * `http.createServer(createNodeListener(options)).listen(3000)`. Equivalent to bridging
 * `createFetchHandler(options)` with `createNodeRequestListener` from `paystate/node`, but
 * the API requests skip building fetch objects.
 */
export function createNodeListener(options: FetchHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const api = createApiHandler(options);
  const basePath = normalizeBasePath(options.basePath);
  const fetchHandler: FetchHandler = createFetchHandler(options);
  const fallback = (req: IncomingMessage, res: ServerResponse) => async () => {
    if (isFetchMethod(req.method)) await sendFetchResponse(req, res, await fetchHandler(toFetchRequest(req)));
    else sendNotImplemented(req, res, options.problemTypeBase);
  };
  return (req, res) => {
    serveNodeRequest(api, req, res, { basePath }, fallback(req, res)).catch((error: unknown) => {
      options.logger?.error({ error }, 'node listener failed');
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/problem+json' });
        res.end(JSON.stringify({ type: 'about:blank', title: 'Internal error', status: 500, code: 'internal_error' }));
      } else {
        res.destroy();
      }
    });
  };
}
