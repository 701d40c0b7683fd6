import type { IncomingMessage } from 'node:http';
import type { Result } from 'neverthrow';
import { readFetchBody, readNodeBody, type BodyReadFailure } from './read-body.js';

/** The little of a request the API's routes read (`fromFetchRequest` makes it of the app's request). */
export interface HttpRequest {
  readonly method: string;
  /** Path and query as the client sent them (`/v1/profiles/x/payments?limit=2`). */
  readonly target: string;
  /** A header by lower-case name; repeated headers joined with `, `. */
  header(name: string): string | null;
  /**
   * The body, refused as soon as it passes `limit` bytes (a `Content-Length` over it, at once).
   * Call at most once.
   */
  readBody(limit: number): Promise<Result<Uint8Array, BodyReadFailure>>;
}

/**
 * A fetch `Request` as an `HttpRequest`; `target` is its path and query when the caller has them
 * already. Given `incoming`, the node request `@hono/node-server` made `request` of (its body
 * unread), the body is read from it directly (`readNodeBody`), not through a web stream.
 */
export function fromFetchRequest(request: Request, target?: string, incoming?: IncomingMessage): HttpRequest {
  let pathAndQuery = target;
  if (pathAndQuery === undefined) {
    const { pathname, search } = new URL(request.url);
    pathAndQuery = `${pathname}${search}`;
  }
  return {
    method: request.method,
    target: pathAndQuery,
    header: (name) => request.headers.get(name),
    readBody: (limit) => (incoming === undefined ? readFetchBody(request, limit) : readNodeBody(incoming, limit)),
  };
}
