import { pageSecurityHeaders } from './security-headers.js';

/** The security headers of the hosted page: its own style sheet and script, nothing else (CSP). */
const PAGE_HEADERS = pageSecurityHeaders({ script: ["'self'"], style: ["'self'"] });

/** An HTML page with a card page's security headers, `security`, and `setCookie` if given (no body for `HEAD`). */
export function htmlResponse(
  request: Request,
  status: number,
  body: string,
  setCookie?: string,
  security: Readonly<Record<string, string>> = PAGE_HEADERS,
): Response {
  const all = new Headers({ 'content-type': 'text/html; charset=utf-8', ...security });
  if (setCookie !== undefined) all.set('set-cookie', setCookie);
  all.set('content-length', String(Buffer.byteLength(body, 'utf8')));
  return new Response(request.method === 'HEAD' ? null : body, { status, headers: all });
}

/** What a page does for each method: `GET` and `HEAD` show it, `POST` (when given) submits its form. */
export interface PageMethods {
  readonly show: () => Promise<Response>;
  readonly submit?: () => Promise<Response>;
}

/**
 * A page's answer by method; any other method is `405` with `Allow`, no body, and the page's
 * `security` headers (an answer of a card page is never cached, framed or sniffed, whatever its
 * status). A throw (a store that threw rather than answered) is answered `failed(error)`.
 */
export async function answerByMethod(
  request: Request,
  methods: PageMethods,
  failed: (error: unknown) => Response,
  security: Readonly<Record<string, string>> = PAGE_HEADERS,
): Promise<Response> {
  const { method } = request;
  const run = method === 'GET' || method === 'HEAD' ? methods.show : method === 'POST' ? methods.submit : undefined;
  if (run === undefined) {
    const allow = methods.submit === undefined ? 'GET, HEAD' : 'GET, HEAD, POST';
    return new Response(null, { status: 405, headers: { ...security, allow, 'content-length': '0' } });
  }
  try {
    return await run();
  } catch (error) {
    return failed(error);
  }
}

/**
 * `303 See Other` to `location`: the browser follows with a GET, whatever the method was. An
 * absolute URL is sent as the WHATWG parser serializes it (punycode host, percent-encoded path),
 * so a merchant's `https://shop.example/返回` makes a valid header, not a failure after the charge.
 */
export function seeOther(location: string): Response {
  return new Response(null, {
    status: 303,
    headers: {
      location: headerLocation(location),
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'content-length': '0',
    },
  });
}

/** `location` in the ASCII a header holds: absolute URLs serialized; our own relative paths are ASCII already. */
export function headerLocation(location: string): string {
  if (URL.canParse(location)) return new URL(location).href;
  return encodeURI(location);
}
