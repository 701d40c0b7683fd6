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
const utf8Length: (text: string) => number =
  NativeBuffer === undefined ? (text) => encoder.encode(text).byteLength : (text) => NativeBuffer.byteLength(text);

/**
 * The fetch `Response` for an answer, with its `Content-Length` and, given the request's id, its
 * `Request-Id`; a `HEAD` request gets the headers without the body. Plain headers and a string body
 * are what `@hono/node-server` writes in one write, without building fetch `Headers`.
 */
export function toResponse(answer: HttpAnswer, method: string, requestId?: string): Response {
  const headers: Record<string, string> = {
    ...answer.headers,
    'content-length': String(utf8Length(answer.body)),
  };
  if (requestId !== undefined) headers[REQUEST_ID_HEADER] = requestId;
  const writable = Object.values(headers).every((value) => NODE_HEADER_VALUE.test(value));
  const Made = madeClass();
  const body = method === 'HEAD' ? null : answer.body;
  return new Made(body, { status: answer.status, headers }, writable ? (requestId ?? null) : undefined);
}

/** What node's `res.setHeader` accepts in a header value: tab, visible ASCII, space, and 0x80 to 0xFF. */
const NODE_HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The name of the first header whose value node would refuse to write (`ERR_INVALID_CHAR`: a
 * control character, which fetch's `Headers` lets through), or undefined when every one is writable.
 */
export function unwritableHeader(headers: Headers): string | undefined {
  for (const [name, value] of headers) if (!NODE_HEADER_VALUE.test(value)) return name;
  return undefined;
}

/**
 * What `toResponse` gives the app's plumbing to skip work on a response it made: the request
 * id it carries (null: none), as long as its headers were writable when made and nothing has
 * looked at them since (and so could have changed them).
 */
interface MadeResponseClass {
  /** `requestId` undefined: not marked, as for any other response. */
  new (body: string | null, init: ResponseInit, requestId?: string | null): Response;
  untouchedId(response: Response): string | null | undefined;
  readonly base: typeof Response;
}

let made: MadeResponseClass | undefined;

/**
 * The class of made responses, extending the global `Response` of the moment: `@hono/node-server`
 * replaces it with its own lightweight one (whose string bodies and plain-object headers it writes
 * without building a fetch `Response`) when its first listener is made.
 */
function madeClass(): MadeResponseClass {
  const base = globalThis.Response;
  if (made?.base === base) return made;
  made = class AnswerResponse extends base {
    static readonly base = base;
    #untouched: boolean;
    readonly #requestId: string | null;

    constructor(body: string | null, init: ResponseInit, requestId?: string | null) {
      super(body, init);
      this.#untouched = requestId !== undefined;
      this.#requestId = requestId ?? null;
    }

    static untouchedId(response: Response): string | null | undefined {
      return #untouched in response && response.#untouched ? response.#requestId : undefined;
    }

    override get headers(): Headers {
      this.#untouched = false;
      return super.headers;
    }
  };
  return made;
}

/**
 * For a response `toResponse` made whose headers are writable by node and untouched since: the
 * request id it carries (null: none). Undefined for any other response.
 */
export function untouchedAnswerId(response: Response): string | null | undefined {
  return made?.untouchedId(response);
}
