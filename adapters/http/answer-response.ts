import { isWritableHeaderValue } from './unwritable-header.js';

/**
 * What `answerResponse` gives the app's plumbing to skip work on a response it made: the request
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
 * A `Response` of `body` (null: none) with `status` and the plain `headers`, which carry the
 * request's id as `Request-Id` when `requestId` is given. Plain headers and a string body are what
 * `@hono/node-server` writes in one write, without building fetch `Headers`.
 */
export function answerResponse(
  body: string | null,
  status: number,
  headers: Readonly<Record<string, string>>,
  requestId?: string,
): Response {
  const Made = madeClass();
  const writable = Object.values(headers).every(isWritableHeaderValue);
  return new Made(body, { status, headers }, writable ? (requestId ?? null) : undefined);
}

/**
 * For a response `answerResponse` made whose headers are writable by node and untouched since: the
 * request id it carries (null: none). Undefined for any other response.
 */
export function untouchedAnswerId(response: Response): string | null | undefined {
  return made?.untouchedId(response);
}
