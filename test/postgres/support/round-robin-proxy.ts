import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A load balancer without sticky sessions: each request to the next backend that answers. */
export interface RoundRobinProxy {
  readonly url: string;
  /** Requests each backend answered, by its URL. */
  readonly served: Map<string, number>;
  /** Which backend answered each POST, by path, in order. */
  readonly posts: Array<{ readonly path: string; readonly backend: string }>;
  /** The backends, in turn (set once they listen). */
  backends: string[];
  close(): Promise<void>;
}

function forward(backend: string, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<boolean> {
  const target = new URL(req.url ?? '/', backend);
  return new Promise((resolve) => {
    const out = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: target.pathname + target.search,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.once('end', () => resolve(true));
      },
    );
    // A backend that is down (refused, reset before answering) passes the request on to the next.
    out.once('error', () => resolve(res.headersSent));
    out.end(body);
  });
}

/** Starts the proxy on a free loopback port; `backends` are filled in once they listen. */
export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  let turn = 0;
  const proxy: RoundRobinProxy = {
    url: '',
    served: new Map(),
    posts: [],
    backends: [],
    close: () => Promise.resolve(),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        for (let tried = 0; tried < proxy.backends.length; tried += 1) {
          const backend = proxy.backends[turn++ % proxy.backends.length] ?? '';
          if (await forward(backend, req, body, res)) {
            proxy.served.set(backend, (proxy.served.get(backend) ?? 0) + 1);
            if (req.method === 'POST') proxy.posts.push({ path: req.url ?? '', backend });
            return;
          }
        }
        res.writeHead(502).end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
