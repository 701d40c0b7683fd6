import { err, ok, ResultAsync, type Result } from 'neverthrow';
import type { DomainEvent } from '../../src/domain/domain-event.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from '../../src/domain/webhook-delivery.js';
import { toWebhookEvent } from '../../src/domain/webhook-event.js';
import {
  DEFAULT_WEBHOOK_USER_AGENT,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_EVENT_TYPE_HEADER,
  WEBHOOK_IDEMPOTENCY_KEY_HEADER,
} from '../../src/domain/webhook-headers.js';
import type { Clock } from '../../src/ports/clock.js';
import type { EventSink, EventSinkError, PublishOptions } from '../../src/ports/event-sink.js';
import { systemClock } from '../shared/index.js';
import { callSignal } from './call-signal.js';
import { classifyWebhookAnswer, classifyWebhookFailure } from './webhook-answer.js';
import { systemLookup, WebhookAddressRefusal, type WebhookLookup } from './webhook-lookup.js';
import { checkHeaders, HEADER_VALUE, mergeHeaders } from './webhook-request-headers.js';
import {
  checkWebhookScheme,
  webhookSigner,
  type WebhookSignatureScheme,
  type WebhookSigner,
} from './webhook-signature.js';
import {
  createFetchTransport,
  createNodeTransport,
  type WebhookFetch,
  type WebhookTransport,
} from './webhook-transport.js';
import { checkWebhookUrl } from './webhook-url.js';

export type { WebhookFetch } from './webhook-transport.js';
export type { WebhookLookup, WebhookLookupAddress } from './webhook-lookup.js';
export type { WebhookSignatureScheme } from './webhook-signature.js';

/** An endpoint chosen for an event, with what sets it apart from the sink's defaults. */
export interface WebhookEndpoint {
  /** Where to POST: the same rules as the sink's `url`. */
  readonly url: string | URL;
  /** Its own secret(s), in place of the sink's `secrets` (each receiver knows only its own). */
  readonly secrets?: string | readonly string[];
  /** Its own signature scheme, in place of the sink's `scheme`; its secrets must be of that scheme's format. */
  readonly scheme?: WebhookSignatureScheme;
  /** Headers added to the sink's `headers` for this endpoint (e.g. its `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Where `url` sends an event: a URL, an endpoint, or `null`/`undefined` for none (it counts as delivered). */
export type WebhookEndpointChoice = string | URL | WebhookEndpoint | null | undefined;

/** Options of `createWebhookEventSink`. */
export interface WebhookEventSinkOptions {
  /**
   * The endpoint every event is POSTed to, or a function of the event that chooses one (`null`: nowhere,
   * delivered). A fixed URL is checked at once (a `RangeError`), a chosen one at each call (docs/webhooks.md#sending).
   */
  readonly url: string | URL | ((event: DomainEvent) => WebhookEndpointChoice);
  /**
   * The signing secret(s), one signature each (rotation); required unless every chosen endpoint has its own.
   * Of `scheme`'s format: `whsec_…` for `standard-webhooks` (`generateStandardWebhookSecret()`).
   */
  readonly secrets?: string | readonly string[];
  /** How requests are signed: `paystate` (`Paystate-Signature`, the default) or `standard-webhooks`. */
  readonly scheme?: WebhookSignatureScheme;
  /** Where the signature's time (`t=`) comes from. Default the system clock (`paystate/node`). */
  readonly clock?: Clock;
  /**
   * A `fetch` to send with instead of node's `http`/`https`. **It bypasses the SSRF guard's address pinning**
   * (DNS rebinding): give it an egress proxy that refuses private networks (docs/webhooks.md, SSRF).
   */
  readonly fetch?: WebhookFetch;
  /** Resolves a host name to every address it has, each checked; default `dns.promises.lookup(name, { all: true })`. */
  readonly lookup?: WebhookLookup;
  /**
   * How long one call may take, in ms (1 to 2^31 - 1), before it is aborted as a retryable failure, with
   * or without the engine's signal. Default `DEFAULT_WEBHOOK_TIMEOUT_MS` (10 s).
   */
  readonly timeoutMs?: number;
  /** The `User-Agent` of the requests. Default `DEFAULT_WEBHOOK_USER_AGENT` (`paystate-webhooks/1`). */
  readonly userAgent?: string;
  /** Headers added to every request (e.g. `Authorization`); replacing one the sink sets is a `RangeError`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Takes `http:` endpoints besides `https:`: for tests and receivers on localhost only. Default `false`. */
  readonly allowInsecureHttp?: boolean;
  /**
   * Turns off the SSRF guard, which refuses hosts that are or resolve to non-public addresses
   * (docs/webhooks.md#server-side-request-forgery). Never when merchants choose the URL. Default `false`.
   */
  readonly allowPrivateNetworks?: boolean;
}

/** An `EventSink` that POSTs signed events; `publish` never throws or rejects for an answer or a network failure. */
export interface WebhookEventSink extends EventSink {
  publish(event: DomainEvent, options?: PublishOptions): ResultAsync<void, EventSinkError>;
}

/** One resolved endpoint: its URL, signer and extra headers. */
interface Target {
  readonly url: URL;
  readonly sign: WebhookSigner;
  readonly headers: Readonly<Record<string, string>>;
}

const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function checkTimeout(timeoutMs: unknown): number {
  if (timeoutMs === undefined) return DEFAULT_WEBHOOK_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs >= 1 && timeoutMs <= MAX_TIMEOUT_MS)) {
    throw new RangeError(`webhook timeoutMs needs milliseconds from 1 to ${MAX_TIMEOUT_MS} (got ${String(timeoutMs)})`);
  }
  return timeoutMs;
}

const refused = (message: string): EventSinkError => ({ code: 'unavailable', message, retryable: false });

/** The value of a set-up check, or a `RangeError` that says what is wrong. */
function orThrow<T>(checked: Result<T, string>, what: string): T {
  if (checked.isErr()) throw new RangeError(`webhook ${what}${checked.error}`);
  return checked.value;
}

/**
 * An `EventSink` that POSTs each event, signed, to a webhook endpoint behind an SSRF guard
 * (docs/webhooks.md); the answer's status decides delivered, retryable or refused, and `publish`
 * rejects only for a host's bug. A RangeError for a bad set-up, never naming the URL or a secret.
 */
export function createWebhookEventSink(options: WebhookEventSinkOptions): WebhookEventSink {
  const allowInsecureHttp = options.allowInsecureHttp === true;
  const allowPrivateNetworks = options.allowPrivateNetworks === true;
  const urlRules = { allowInsecureHttp, allowPrivateNetworks };
  const timeoutMs = checkTimeout(options.timeoutMs);
  const clock = options.clock ?? systemClock;
  const network = { lookup: options.lookup ?? systemLookup, allowPrivateNetworks };
  const send: WebhookTransport =
    options.fetch === undefined ? createNodeTransport(network) : createFetchTransport(options.fetch, network);
  const userAgent = options.userAgent ?? DEFAULT_WEBHOOK_USER_AGENT;
  const scheme = orThrow(checkWebhookScheme(options.scheme ?? 'paystate'), '');
  const defaultSigner =
    options.secrets === undefined ? undefined : orThrow(webhookSigner(scheme, options.secrets), 'secrets: ');
  const baseHeaders = orThrow(checkHeaders(options.headers), '');
  if (typeof userAgent !== 'string' || !HEADER_VALUE.test(userAgent) || userAgent === '') {
    throw new RangeError('webhook userAgent is not a valid header value');
  }

  const { url } = options;
  let choose: (event: DomainEvent) => Result<Target | null, EventSinkError>;
  if (typeof url === 'function') {
    choose = (event) => resolveChoice(url(event));
  } else {
    const checked = orThrow(checkWebhookUrl(url, urlRules), 'url ');
    if (defaultSigner === undefined) throw new RangeError('webhook secrets: needs at least one secret');
    const fixed: Target = { url: checked, sign: defaultSigner, headers: baseHeaders };
    choose = () => ok(fixed);
  }

  /** The target of what `url` chose, or why that event is refused (not retryable). */
  function resolveChoice(choice: WebhookEndpointChoice): Result<Target | null, EventSinkError> {
    if (choice === null || choice === undefined) return ok(null);
    const endpoint: WebhookEndpoint = typeof choice === 'string' || choice instanceof URL ? { url: choice } : choice;
    const checked = checkWebhookUrl(endpoint.url, urlRules);
    if (checked.isErr()) return err(refused(`The webhook endpoint chosen for this event ${checked.error}`));
    const host = checked.value.host;
    let sign = defaultSigner;
    if (endpoint.secrets !== undefined || endpoint.scheme !== undefined) {
      const own = checkWebhookScheme(endpoint.scheme ?? scheme).andThen((chosen) =>
        endpoint.secrets === undefined && options.secrets === undefined
          ? ok(undefined)
          : webhookSigner(chosen, endpoint.secrets ?? options.secrets),
      );
      if (own.isErr()) return err(refused(`Webhook endpoint ${host}: ${own.error}`));
      sign = own.value;
    }
    if (sign === undefined) return err(refused(`Webhook endpoint ${host} has no secret to sign with`));
    const extra = checkHeaders(endpoint.headers);
    if (extra.isErr()) return err(refused(`Webhook endpoint ${host}: ${extra.error}`));
    return ok({ url: checked.value, sign, headers: mergeHeaders(baseHeaders, extra.value) });
  }

  async function deliver(
    target: Target,
    event: DomainEvent,
    outer: AbortSignal | undefined,
  ): Promise<Result<void, EventSinkError>> {
    const host = target.url.host;
    if (outer?.aborted === true) return err(classifyWebhookFailure(outer.reason, host, 'aborted', timeoutMs));
    const body = JSON.stringify(toWebhookEvent(event));
    const timestamp = Math.floor(clock.now() / 1000);
    // A clock that gives no time is a bug: the publish rejects rather than sign what every receiver refuses.
    if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError('the clock port gave no valid time');
    const headers = mergeHeaders(target.headers, {
      'Content-Type': 'application/json',
      'User-Agent': userAgent,
      [WEBHOOK_IDEMPOTENCY_KEY_HEADER]: event.id,
      [WEBHOOK_EVENT_ID_HEADER]: event.id,
      [WEBHOOK_EVENT_TYPE_HEADER]: event.type,
      ...target.sign(event.id, timestamp, body),
    });
    const deadline = callSignal(outer, timeoutMs);
    try {
      const answer = await send(target.url, { headers, body, signal: deadline.signal });
      return classifyWebhookAnswer(answer, host);
    } catch (error) {
      // The guard refused the addresses the host name resolved to: like a bad URL, until it is fixed.
      if (error instanceof WebhookAddressRefusal && deadline.cause() === null) return err(refused(error.message));
      return err(classifyWebhookFailure(error, host, deadline.cause(), timeoutMs));
    } finally {
      deadline.dispose();
    }
  }

  return {
    publish(event, publishOptions) {
      return new ResultAsync(
        (async (): Promise<Result<void, EventSinkError>> => {
          const target = choose(event);
          if (target.isErr()) return err(target.error);
          if (target.value === null) return ok(undefined);
          return deliver(target.value, event, publishOptions?.signal);
        })(),
      );
    },
  };
}
