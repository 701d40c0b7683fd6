import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got: what a real webhook consumer sees. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body, as sent. */
  readonly body: Buffer;
}

/** How the receiver answers a request: a status (with headers), or never (`'hang'`). */
export type ReceiverAnswer = { readonly status: number; readonly headers?: Record<string, string> } | 'hang';

/** A node:http webhook receiver on an ephemeral port of 127.0.0.1. */
export interface Receiver {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Every request received, in order. */
  readonly requests: ReceivedRequest[];
  /** How many requests were closed by the caller before an answer was written. */
  readonly abandoned: () => number;
  /** Resolves once `abandoned()` reaches `count`. */
  waitForAbandoned(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver that answers each request as `answer` says (`n` counts from 0). */
export async function startReceiver(
  answer: (request: ReceivedRequest, n: number) => ReceiverAnswer = () => ({ status: 204 }),
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let abandoned = 0;
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      const n = requests.length;
      requests.push(request);
      const reply = answer(request, n);
      if (reply === 'hang') {
        res.on('close', () => {
          abandoned += 1;
          for (const wake of waiters.splice(0)) wake();
        });
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      res.end(`answered ${reply.status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    abandoned: () => abandoned,
    async waitForAbandoned(count) {
      while (abandoned < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The value of a header that node gives as one string. */
export function headerOf(request: ReceivedRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}
