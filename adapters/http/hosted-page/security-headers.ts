import { createHash } from 'node:crypto';

export interface ContentSecurityPolicySources {
  /** `script-src` sources. Default `'none'`. */
  readonly script?: readonly string[];
  /** `style-src` sources. Default `'none'`. */
  readonly style?: readonly string[];
  /** `img-src` sources. Default `'none'`. */
  readonly img?: readonly string[];
}

/** The CSP source for an inline `<script>` or `<style>` element with exactly this text: `'sha256-…'`. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The `Content-Security-Policy` of a card page: nothing loads unless listed, no plugins, `<base>`
 * or framing; no `form-action`, on purpose (hosted-page.md).
 */
export function contentSecurityPolicy(sources: ContentSecurityPolicySources = {}): string {
  const list = (values: readonly string[] | undefined) =>
    values === undefined || values.length === 0 ? "'none'" : values.join(' ');
  return [
    "default-src 'none'",
    `script-src ${list(sources.script)}`,
    `style-src ${list(sources.style)}`,
    `img-src ${list(sources.img)}`,
    "connect-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Headers of every page that shows or takes card data: the CSP above, no framing, no referrer,
 * never cached, no sniffing, an own browsing context group, no powerful features.
 */
export function pageSecurityHeaders(sources: ContentSecurityPolicySources = {}): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(sources),
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'x-robots-tag': 'noindex, nofollow',
  };
}
