import { characterCount } from './character-count.js';

/** Longest `session.redirect_url` accepted. */
export const REDIRECT_URL_MAX_LENGTH = 2048;

/** Why a redirect URL is refused. */
export type RedirectUrlProblem =
  'too_long' | 'too_long_encoded' | 'invalid_characters' | 'not_absolute' | 'insecure' | 'credentials';

// Spaces and control characters: the WHATWG parser would silently strip or encode them.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_CHARACTERS = /[\u0000-\u0020\u007f-\u009f]/;
// `scheme:` then two slashes, either way round (browsers read a backslash as a slash in http(s) URLs).
const SCHEME_AND_AUTHORITY = /^https?:[\\/]{2}/i;
const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * The form of a `session.redirect_url` as a pattern (for JSON Schema too): `https://` and a host
 * with no user name or password, or `http://` and `localhost`, `127.x.x.x` (no leading zeros) or
 * `[::1]` as written, with an optional port; then a path, query or fragment. No spaces or control
 * characters. Case-insensitive; a backslash stands for a slash, as browsers read it.
 */
export const REDIRECT_URL_FORM =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /^(?:https:[\\/]{2}[^\\/?#@\u0000-\u0020\u007f-\u009f]+|http:[\\/]{2}(?:localhost|127(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}|\[::1\])(?::\d*)?)(?:[\\/?#][^\u0000-\u0020\u007f-\u009f]*)?$/i;

function isLoopbackHost(hostname: string): boolean {
  // The WHATWG parser lower-cases names, canonicalises IPv4 (127.1 → 127.0.0.1) and compresses IPv6.
  return hostname === 'localhost' || hostname === '[::1]' || IPV4_LOOPBACK.test(hostname);
}

/**
 * True when `value` is longer than {@link REDIRECT_URL_MAX_LENGTH} characters, counted as code
 * points (an emoji is one character), as zod's `.max()` and JSON Schema's `maxLength` count them.
 */
function isRedirectUrlTooLong(value: string): boolean {
  return value.length > REDIRECT_URL_MAX_LENGTH && characterCount(value) > REDIRECT_URL_MAX_LENGTH;
}

/**
 * Checks a `session.redirect_url` (docs/http-api.md, Create a payment): absolute, at most 2048 characters
 * (as sent, and once percent-encoded as a URL), `https`, or `http` only for `localhost` and
 * loopback addresses (127.0.0.0/8, `[::1]`); and no user name or password, which browsers show
 * in front of the real host.
 * Returns null when the URL is acceptable.
 */
export function redirectUrlProblem(value: string): RedirectUrlProblem | null {
  if (isRedirectUrlTooLong(value)) return 'too_long';
  if (FORBIDDEN_CHARACTERS.test(value)) return 'invalid_characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not_absolute';
  }
  // A user name or password puts another host in front of the real one (https://bank.example@evil.example).
  if (url.username !== '' || url.password !== '') return 'credentials';
  if (url.protocol === 'https:') {
    if (url.hostname === '') return 'not_absolute';
  } else if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) {
    return 'insecure';
  }
  // `https:shop.example` and `https:/shop.example` parse here as `https://shop.example/`, but a
  // browser resolves them against the page that redirects (the hosted page's own host): only
  // `scheme://host` means the same wherever it is followed.
  if (!SCHEME_AND_AUTHORITY.test(value)) return 'not_absolute';
  // The cardholder is sent back with the URL as a `Location` header holds it: percent-encoded,
  // up to 12 characters for one emoji. The limit holds for that form too, or the redirect after
  // the payment could be too large for an HTTP client or a proxy to read.
  return url.href.length > REDIRECT_URL_MAX_LENGTH ? 'too_long_encoded' : null;
}
