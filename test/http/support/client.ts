import { Agent, request } from 'node:http';

/** An answer as a test sees it. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
  readonly json: any;
}

export interface CallOptions {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A string or bytes as is; anything else is sent as JSON. */
  readonly body?: unknown;
  /** Send the body without a `Content-Length` (node then uses `Transfer-Encoding: chunked`). */
  readonly chunked?: boolean;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One HTTP request over a real socket with node:http (which, unlike fetch, sends any method,
 * header and path as given).
 */
export function call(url: string, options: CallOptions = {}): Promise<Answer> {
  const { body } = options;
  const payload =
    body === undefined
      ? undefined
      : typeof body === 'string' || body instanceof Uint8Array
        ? body
        : JSON.stringify(body);
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        method: options.method ?? 'GET',
        path: url.slice(target.origin.length),
        headers: {
          ...(payload !== undefined && !options.chunked && { 'content-length': String(Buffer.byteLength(payload)) }),
          ...options.headers,
        },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const jsonHeaders = (token: string) => ({
  ...bearer(token),
  'content-type': 'application/json',
  accept: 'application/json',
});

/** POST a JSON body as `token`. */
export function post(url: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  return call(url, { method: 'POST', headers: { ...jsonHeaders(token), ...headers }, body });
}

/** GET as `token`. */
export function get(url: string, token: string, headers: Record<string, string> = {}) {
  return call(url, { headers: { ...bearer(token), accept: 'application/json', ...headers } });
}
