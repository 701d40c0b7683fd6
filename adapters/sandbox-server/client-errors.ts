import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
};

function statusOf(code: string | undefined): number {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return 431;
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 413;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408;
    default:
      return 400;
  }
}

/**
 * Answers requests node:http cannot parse (malformed HTTP, headers too large, conflicting
 * framing) with a problem document instead of node's empty answer, then closes the connection.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = statusOf(error.code);
    const title = REASONS[status] ?? 'Bad Request';
    const body = JSON.stringify({
      type: 'about:blank',
      title,
      status,
      detail: 'The request could not be parsed as HTTP/1.1',
    });
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
