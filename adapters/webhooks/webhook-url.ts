import { err, ok, type Result } from 'neverthrow';
import { BLOCKED_ADDRESS_RULE_TEXT, blockedHostRule } from './network-address.js';

/** The longest webhook endpoint URL taken, in characters: 2,048. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Ports a webhook may not use: the fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#bad-port),
 * those of other protocols (SMTP, IRC, SIP, …) a POST could be smuggled into, which browsers and
 * node's `fetch` refuse as well; and port 0, which nothing listens on.
 */
const BAD_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** How strict `checkWebhookUrl` is. */
export interface WebhookUrlRules {
  /** Takes `http:` besides `https:` (tests, receivers on localhost). */
  readonly allowInsecureHttp: boolean;
  /** Takes a host that is an IP address of a private network, loopback, link-local, … (`blockedHostRule`). */
  readonly allowPrivateNetworks: boolean;
}

/**
 * The endpoint parsed, or why it is refused, never repeating the URL or its address: the rules of
 * docs/webhooks.md#sending; a host name is judged later, by the addresses it resolves to.
 */
export function checkWebhookUrl(url: unknown, rules: WebhookUrlRules): Result<URL, string> {
  if (typeof url !== 'string' && !(url instanceof URL)) return err('needs an absolute http(s) URL');
  if (typeof url === 'string' && url.length > MAX_WEBHOOK_URL_LENGTH) {
    return err(`is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return err('needs an absolute http(s) URL');
  }
  if (parsed.href.length > MAX_WEBHOOK_URL_LENGTH) return err(`is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  if (parsed.protocol === 'http:' && !rules.allowInsecureHttp) {
    return err('is an http URL: use https, or set allowInsecureHttp for tests and local receivers');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return err('needs an absolute http(s) URL');
  if (parsed.username !== '' || parsed.password !== '') {
    return err('must not carry credentials (a user name or password): send them in headers');
  }
  if (parsed.port !== '' && BAD_PORTS.has(Number(parsed.port))) {
    return err(`is on port ${parsed.port}, a port of another protocol that webhooks may not use`);
  }
  if (!rules.allowPrivateNetworks) {
    const rule = blockedHostRule(parsed.hostname);
    if (rule !== null) {
      return err(
        `is ${BLOCKED_ADDRESS_RULE_TEXT[rule]}, which webhooks may not reach (allowPrivateNetworks allows it)`,
      );
    }
  }
  return ok(parsed);
}
