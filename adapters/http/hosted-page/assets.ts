import { createHash } from 'node:crypto';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_CSS } from './page-style.js';

/** A static file of the hosted page, named by its content hash so it can be cached for good. */
export interface PageAsset {
  /** File name below `{basePath}/assets/`, e.g. `page-3f2a9c1b.css`. */
  readonly name: string;
  readonly contentType: string;
  readonly body: string;
}

function asset(stem: string, extension: string, contentType: string, body: string): PageAsset {
  const hash = createHash('sha256').update(body, 'utf8').digest('hex').slice(0, 12);
  return { name: `${stem}-${hash}.${extension}`, contentType, body };
}

/** The style sheet and the script of the hosted page. */
export const PAGE_ASSETS = {
  css: asset('page', 'css', 'text/css; charset=utf-8', PAGE_CSS),
  js: asset('page', 'js', 'text/javascript; charset=utf-8', PAGE_SCRIPT),
} as const;

const BY_NAME: ReadonlyMap<string, PageAsset> = new Map(Object.values(PAGE_ASSETS).map((a) => [a.name, a]));

/** The response for `GET {basePath}/assets/{name}`, or undefined for an unknown name or another method than GET and HEAD. */
export function assetResponse(name: string, method: string): Response | undefined {
  const found = BY_NAME.get(name);
  if (found === undefined || (method !== 'GET' && method !== 'HEAD')) return undefined;
  return new Response(method === 'HEAD' ? null : found.body, {
    status: 200,
    headers: {
      'content-type': found.contentType,
      'content-length': String(Buffer.byteLength(found.body, 'utf8')),
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin',
    },
  });
}
