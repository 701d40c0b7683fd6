import type { Result } from 'neverthrow';
import { readFetchBody, type BodyReadFailure } from './read-body.js';

/**
 * The little of a request the API reads. Entry points adapt their runtime's request to it: a
 * fetch `Request` (`fromFetchRequest`) or a node:http request (`node-listener.ts`), so that the
 * node server does not pay for building fetch objects it would only take apart again.
 */
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

/** A fetch `Request` as an `HttpRequest`. */
export function fromFetchRequest(request: Request): HttpRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    target: `${url.pathname}${url.search}`,
    header: (name) => request.headers.get(name),
    readBody: (limit) => readFetchBody(request, limit),
  };
}
