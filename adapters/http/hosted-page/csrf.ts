import { createHmac, randomBytes } from 'node:crypto';
import { secretEqual } from './secret-equal.js';

/** Name of the cookie that carries the browser's CSRF nonce. */
const CSRF_COOKIE = 'paystate_csrf';
/** Name of the hidden form field that carries the CSRF proof. */
export const CSRF_FIELD = 'csrf';

const NONCE = /^[A-Za-z0-9_-]{22,64}$/;

/** The CSRF options of the pages (`HostedPageOptions`, `IssuerPageOptions`). */
export interface CsrfGuardOptions {
  /**
   * HMAC key of the CSRF proof: at least 32 random characters, the same for every process that
   * serves the page (a form opened on one may be posted to another).
   */
  readonly csrfSecret: string;
  /**
   * Adds `Secure` to the CSRF cookie. Default: when the request URL is `https:`. Set it to true when
   * a TLS-terminating proxy sits in front (the handler then sees `http:` URLs).
   */
  readonly secureCookies?: boolean;
}

/** The CSRF state of one page view: the proof for the form, and the cookie to set (if new). */
export interface CsrfTicket {
  /** Value of the hidden `csrf` field. */
  readonly field: string;
  /** A `Set-Cookie` value when the browser had no nonce yet. */
  readonly setCookie: string | undefined;
}

/**
 * CSRF protection by a signed double submit: a nonce in a `SameSite=Lax`, `HttpOnly` cookie, and
 * the form's HMAC of it and what the form acts on (why Lax: hosted-page.md, "Security").
 */
export interface CsrfGuard {
  /**
   * The proof for a form acting on `bound`. A request that carries a well-formed nonce cookie
   * keeps that nonce (no `Set-Cookie`), so pages open in other tabs stay valid; only a browser
   * without one gets a new nonce.
   */
  issue(request: Request, bound: readonly string[]): CsrfTicket;
  /** True when `field` is the proof for `bound` under the request's cookie nonce. */
  verify(request: Request, field: string | null, bound: readonly string[]): boolean;
}

function cookieNonce(request: Request): string | undefined {
  const header = request.headers.get('cookie');
  if (header === null) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index === -1 || part.slice(0, index).trim() !== CSRF_COOKIE) continue;
    const value = part.slice(index + 1).trim();
    if (NONCE.test(value)) return value;
  }
  return undefined;
}

/** Builds the guard; the secret must be at least 32 characters. */
export function createCsrfGuard(options: CsrfGuardOptions): CsrfGuard {
  // Also for callers without types, e.g. an unset environment variable passed through.
  const secret = options.csrfSecret;
  if (typeof secret !== 'string' || secret.length < 32) {
    throw new TypeError(
      `csrfSecret is required: a secret string of at least 32 characters (got ${
        typeof secret === 'string' ? `${secret.length} characters` : String(secret)
      })`,
    );
  }
  const proof = (nonce: string, bound: readonly string[]) =>
    createHmac('sha256', secret)
      .update(['paystate-csrf-v1', nonce, ...bound].join('\n'))
      .digest('base64url');

  return {
    issue(request, bound) {
      const existing = cookieNonce(request);
      const nonce = existing ?? randomBytes(18).toString('base64url');
      const secure = options.secureCookies ?? new URL(request.url).protocol === 'https:';
      // No Path: it defaults to the directory of the page, so the cookie is sent to the page's POST.
      // Lax: sent on cross-site top-level GETs (the nonce survives them), never on cross-site POSTs.
      const setCookie =
        existing === undefined
          ? `${CSRF_COOKIE}=${nonce}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`
          : undefined;
      return { field: proof(nonce, bound), setCookie };
    },
    verify(request, field, bound) {
      // Browsers say where a request comes from; a cross-site POST is refused before anything else.
      if (request.headers.get('sec-fetch-site') === 'cross-site') return false;
      const nonce = cookieNonce(request);
      if (nonce === undefined || field === null || field.length > 128) return false;
      return secretEqual(field, proof(nonce, bound));
    },
  };
}
