import { normalizeBasePath, stripBasePath } from '../base-path.js';
import { cspHash } from '../hosted-page/security-headers.js';
import type { PagesHandler } from '../page-context.js';
import { createOpenApiDocument, type OpenApiOptions } from './openapi-document.js';
import type { OpenApiDocument } from './openapi-types.js';
import { REFERENCE_PAGE_STYLE, renderReferencePage } from './reference-page.js';

/** Options of `createOpenApiPages`. */
export interface OpenApiPagesOptions extends OpenApiOptions {
  /**
   * The prefix the API is mounted under (`/payments`): the pages are then
   * `/payments/openapi.json` and `/payments/docs`, whether or not the mount strips the prefix
   * (as with the fetch handler's `basePath`), and the document's server ends in it. Default: none.
   */
  readonly basePath?: string;
}

const encoder = new TextEncoder();

/** The reference page's CSP: its one style sheet, inline, and nothing else. */
const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src ${cspHash(REFERENCE_PAGE_STYLE)}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

function respond(method: string, body: string, headers: Record<string, string>): Response {
  const bytes = encoder.encode(body);
  return new Response(method === 'HEAD' ? null : bytes, {
    status: 200,
    headers: {
      ...headers,
      'content-length': String(bytes.byteLength),
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    },
  });
}

/**
 * Serves the OpenAPI document at `{basePath}/openapi.json` and a script-free reference page at
 * `{basePath}/docs`; other requests resolve to `undefined`. Default server: the one reached.
 */
export function createOpenApiPages(options: OpenApiPagesOptions = {}): PagesHandler {
  const basePath = normalizeBasePath(options.basePath);
  // Built on the first request for a page, not when the server starts.
  let base: OpenApiDocument | undefined;
  const documentFor = (url: URL): OpenApiDocument => {
    base ??= createOpenApiDocument(options);
    return options.servers === undefined
      ? { ...base, servers: [{ url: `${url.origin}${basePath}`, description: 'This server' }] }
      : base;
  };

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const url = new URL(request.url);
    const path = stripBasePath(url.pathname, basePath);
    if (path === '/openapi.json') {
      return respond(request.method, JSON.stringify(documentFor(url), null, 2), {
        'content-type': 'application/json',
      });
    }
    if (path === '/docs') {
      return respond(request.method, renderReferencePage(documentFor(url)), {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'referrer-policy': 'no-referrer',
      });
    }
    return undefined;
  };
}
