import { err, ok, type Result } from 'neverthrow';

/** How strict `checkWebhookUrl` is about the scheme. */
export interface WebhookUrlRules {
  /** Takes `http:` besides `https:` (tests, receivers on localhost). */
  readonly allowInsecureHttp: boolean;
}

/**
 * The endpoint parsed, or why it is refused, in words that never repeat the URL (it may hold a
 * user name and password): an absolute `https:` URL (`http:` too with `allowInsecureHttp`),
 * without credentials. Send credentials a receiver needs in `headers` instead.
 */
export function checkWebhookUrl(url: unknown, rules: WebhookUrlRules): Result<URL, string> {
  if (typeof url !== 'string' && !(url instanceof URL)) return err('needs an absolute http(s) URL');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return err('needs an absolute http(s) URL');
  }
  if (parsed.protocol === 'http:' && !rules.allowInsecureHttp) {
    return err('is an http URL: use https, or set allowInsecureHttp for tests and local receivers');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return err('needs an absolute http(s) URL');
  if (parsed.username !== '' || parsed.password !== '') {
    return err('must not carry credentials (a user name or password): send them in headers');
  }
  return ok(parsed);
}
