import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { serverProblemAnswer, serverProblemDocument, type ServerProblemCode } from './problem-details.js';
import { sendAnswer } from './node-answer.js';

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
};

/** The problem of an error node:http reports for a request it could not parse. */
function problemOf(code: string | undefined): readonly [ServerProblemCode, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return ['headers_too_large', 'The request header fields are too large'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return ['payload_too_large', 'The chunk extensions of the request body are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ['request_timeout', 'The request was not received in time'];
    default:
      return ['malformed_request', 'The request could not be parsed as HTTP/1.1'];
  }
}

/** Writes a server-layer problem, with its `Request-Id`, on a raw socket and closes it. */
function endWithProblem(socket: Duplex, code: ServerProblemCode, detail: string, requestId: string): void {
  const document = serverProblemDocument(code, detail);
  const reason = REASONS[document.status] ?? 'Bad Request';
  const body = JSON.stringify(document);
  socket.end(
    `HTTP/1.1 ${document.status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRequest-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Answers what node:http cannot parse, an `Expect` other than `100-continue` (417) and `CONNECT`
 * (501) with problem documents carrying a `Request-Id`, instead of node's empty answer.
 */
export function answerClientErrors(server: Server, requestIds: () => string): void {
  // Node's own answer to an unmet `Expect` is a bare 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const answer = serverProblemAnswer('expectation_failed', 'The only expectation this server meets is 100-continue');
    // The body is never read: the connection closes after the answer.
    sendAnswer(req, res, { ...answer, headers: { ...answer.headers, connection: 'close' } }, requestIds());
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    endWithProblem(
      socket,
      'method_not_implemented',
      'This server is no proxy: CONNECT is not implemented',
      requestIds(),
    );
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [code, detail] = problemOf(error.code);
    endWithProblem(socket, code, detail, requestIds());
  });
}
