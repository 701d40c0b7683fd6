import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { checkedAddresses, pinnedLookup, type WebhookLookup } from './webhook-lookup.js';

/** One webhook POST, as the sink makes it. */
export interface WebhookRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly signal: AbortSignal | undefined;
}

/** What the sink reads of an answer: its status (`type` only for a browser's opaque redirect). */
export interface WebhookAnswer {
  readonly status: number;
  readonly type?: string;
}

/**
 * Sends one webhook POST and answers its status, never following a redirect and never reading
 * the body; rejects for a failure (a `WebhookAddressRefusal` when the guard refused the endpoint).
 */
export type WebhookTransport = (url: URL, request: WebhookRequest) => Promise<WebhookAnswer>;

/** The `fetch` the sink calls: the global one by default; any function of that shape (a test double, undici's). */
export type WebhookFetch = (url: string, init: RequestInit) => Promise<Response>;

/** How the transports treat the network. */
export interface WebhookNetworkRules {
  readonly lookup: WebhookLookup;
  readonly allowPrivateNetworks: boolean;
}

/**
 * The default transport: node's `http`/`https` pinned to the checked addresses (`pinnedLookup`), a
 * connection of its own per request, closed once the status is in; never follows redirects.
 */
export function createNodeTransport(rules: WebhookNetworkRules): WebhookTransport {
  const lookup = pinnedLookup(rules.lookup, rules.allowPrivateNetworks);
  return (url, { headers, body, signal }) =>
    new Promise<WebhookAnswer>((resolve, reject) => {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(url, {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body, 'utf8')) },
        agent: false,
        lookup,
        ...(signal !== undefined && { signal }),
      });
      // Kept for the request's whole life: an error after the answer (a reset as it is closed) is
      // no one's concern, and an 'error' without a listener would crash the process.
      request.on('error', reject);
      request.once('response', (response) => {
        response.on('error', () => undefined);
        resolve({ status: response.statusCode ?? 0 });
        response.destroy();
      });
      request.end(body, 'utf8');
    });
}

/** Rejects with the signal's reason once it is aborted, else answers as `promise` does. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A transport over the host's `fetch` (`redirect: 'manual'`, the body unread): the addresses are checked
 * just before the call, but the `fetch` resolves the name again, so it cannot pin them.
 */
export function createFetchTransport(fetch: WebhookFetch, rules: WebhookNetworkRules): WebhookTransport {
  return async (url, { headers, body, signal }) => {
    // An IP literal was checked with the URL (`checkWebhookUrl`); a name is resolved and checked here.
    const bare = url.hostname.replace(/^\[|\]$/g, '');
    if (!rules.allowPrivateNetworks && isIP(bare) === 0) {
      await abortable(checkedAddresses(bare, rules.lookup, false), signal);
    }
    const response = await fetch(url.href, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      ...(signal !== undefined && { signal }),
    });
    discardBody(response);
    return response;
  };
}

/** Lets go of the answer's body unread, so its connection is not held until it is collected. */
function discardBody(response: Response): void {
  try {
    const body = response.body;
    if (body !== null && body !== undefined && !body.locked) void body.cancel().catch(() => undefined);
  } catch {
    // A test double's odd response: nothing to free.
  }
}
