import { pageSecurityHeaders } from './security-headers.js';

/** The CSP sources of the hosted page: its own style sheet and script, nothing else. */
const PAGE_HEADERS = pageSecurityHeaders({ script: ["'self'"], style: ["'self'"] });

/** An HTML page with the card-page security headers (no body for `HEAD`). */
export function htmlResponse(
  request: Request,
  status: number,
  body: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  const all = new Headers({ 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS, ...headers });
  all.set('content-length', String(Buffer.byteLength(body, 'utf8')));
  return new Response(request.method === 'HEAD' ? null : body, { status, headers: all });
}

/**
 * `405 Method Not Allowed` for a page path: no body, but the same security headers as a page
 * (an answer of a card page is never cached, framed or sniffed, whatever its status).
 */
export function methodNotAllowed(): Response {
  return new Response(null, {
    status: 405,
    headers: { ...PAGE_HEADERS, allow: 'GET, HEAD, POST', 'content-length': '0' },
  });
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
