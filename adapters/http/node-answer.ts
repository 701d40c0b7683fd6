import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAnswer } from './http-answer.js';
import { problem, problemAnswer } from './problem-details.js';
import { isRequestIdToken, REQUEST_ID_HEADER } from './request-id.js';

/**
 * Writes an answer the Express layer makes itself (a 404, a body parser's problem, a last 500)
 * in one write, with `Content-Length` and `Request-Id`. An answer node refuses is replaced by a
 * `500 internal_error`; when the head already went out, the connection is closed.
 */
export function sendAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  answer: HttpAnswer,
  requestId: string,
  typeBase?: string,
): void {
  const write = (value: HttpAnswer, id: string | undefined) => {
    const headers: Record<string, string | number> = {
      ...value.headers,
      'content-length': Buffer.byteLength(value.body, 'utf8'),
    };
    if (id !== undefined) headers[REQUEST_ID_HEADER] = id;
    res.writeHead(value.status, headers);
    res.end(req.method === 'HEAD' ? undefined : value.body, 'utf8');
  };
  try {
    write(answer, requestId);
  } catch {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const name of Object.keys(answer.headers)) res.removeHeader(name);
    const failed = problemAnswer(problem('internal_error', 'The answer could not be written'), typeBase);
    write(failed, isRequestIdToken(requestId) ? requestId : undefined);
  }
}
