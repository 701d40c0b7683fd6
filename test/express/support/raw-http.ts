import { connect } from 'node:net';

/** One response as it came off the wire. */
export interface WireResponse {
  readonly status: number;
  readonly reason: string;
  /** Header names in lower case; a repeated header's values joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A GET request as raw HTTP/1.1 text; the last one of a pipeline asks the server to close. */
export function rawGet(path: string, options: { readonly close?: boolean; readonly method?: string } = {}): string {
  const close = options.close === true ? 'Connection: close\r\n' : '';
  return `${options.method ?? 'GET'} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${close}\r\n`;
}

/**
 * Writes `requests` on one connection at once (pipelined) and resolves to everything the server
 * sent until it closed the connection, or until `timeoutMs` passed (a hanging socket; the text
 * then ends with `[timeout]`).
 */
export function rawExchange(origin: string, requests: readonly string[], timeoutMs = 3_000): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`${received}[timeout]`);
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      resolve(received);
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    socket.on('close', done);
    socket.on('error', () => undefined);
    socket.write(requests.join(''));
  });
}

/**
 * Splits what `rawExchange` received into responses, strictly by their `Content-Length` (the only
 * framing these tests expect): a body longer than its `Content-Length` says shows up as a next
 * "response" that does not start with a status line, and fails.
 * @throws Error for anything that is not a sequence of well-framed responses.
 */
export function parseResponses(raw: string): WireResponse[] {
  const responses: WireResponse[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) throw new Error(`an incomplete response: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const status = /^HTTP\/1\.1 (\d{3}) ?(.*)$/.exec(statusLine);
    if (status === null) throw new Error(`not a status line: ${JSON.stringify(statusLine.slice(0, 200))}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const length = Number(headers['content-length'] ?? Number.NaN);
    if (!Number.isInteger(length)) throw new Error(`a response without Content-Length: ${statusLine}`);
    const body = rest.slice(end + 4, end + 4 + length);
    if (body.length < length) throw new Error(`a body shorter than its Content-Length: ${statusLine}`);
    responses.push({ status: Number(status[1]), reason: status[2] ?? '', headers, body });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}
