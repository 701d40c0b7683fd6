import { answerResponse } from './answer-response.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/**
 * An HTTP answer as plain data: what the routes produce, what the idempotency store keeps and
 * replays byte for byte. Header names are lower case.
 */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Headers on every answer of the API: personal data must not be cached, nor sniffed as HTML. */
const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** A JSON answer (`application/json`). */
export function jsonAnswer(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): HttpAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json', ...COMMON_HEADERS, ...headers },
    body: JSON.stringify(body),
  };
}

const encoder = new TextEncoder();
const NativeBuffer = (globalThis as { Buffer?: { byteLength(text: string): number } }).Buffer;

/** The length in UTF-8 of `text`: natively where there is a `Buffer` (Node, Bun, Deno), else encoded. */
export const utf8Length: (text: string) => number =
  NativeBuffer === undefined ? (text) => encoder.encode(text).byteLength : (text) => NativeBuffer.byteLength(text);

/**
 * The fetch `Response` for an answer, with its `Content-Length` and, given the request's id, its
 * `Request-Id`; a `HEAD` request gets the headers without the body. The body goes as a string, so
 * that `@hono/node-server` writes headers and body in one write (as bytes they took two).
 */
export function toResponse(answer: HttpAnswer, method: string, requestId?: string): Response {
  const headers: Record<string, string> = {
    ...answer.headers,
    'content-length': String(utf8Length(answer.body)),
  };
  if (requestId !== undefined) headers[REQUEST_ID_HEADER] = requestId;
  return answerResponse(method === 'HEAD' ? null : answer.body, answer.status, headers, requestId);
}
