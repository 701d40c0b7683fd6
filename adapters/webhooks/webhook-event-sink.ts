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
} from './webhook-scheme.js';
import {
  createFetchTransport,
  createNodeTransport,
  type WebhookFetch,
  type WebhookTransport,
} from './webhook-transport.js';
import { checkWebhookUrl } from './webhook-url.js';

export type { WebhookFetch } from './webhook-transport.js';
export type { WebhookLookup, WebhookLookupAddress } from './webhook-lookup.js';
export type { WebhookSignatureScheme } from './webhook-scheme.js';

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

/**
 * Where an event goes, as `url` chooses it: a URL, an endpoint, or `null`/`undefined` for none (the
 * event is then delivered: nobody is to be told, e.g. a profile without a webhook).
 */
export type WebhookEndpointChoice = string | URL | WebhookEndpoint | null | undefined;

/** Options of `createWebhookEventSink`. */
export interface WebhookEventSinkOptions {
  /**
   * The endpoint every event is POSTed to, or a function of the event that chooses one (per profile
   * or partner: `(event) => endpoints.get(event.profileId)`), answering `null` or `undefined` when
   * the event goes nowhere, which counts as delivered. A fixed URL is checked at once: an absolute
   * `https:` URL (`http:` with `allowInsecureHttp`) of at most `MAX_WEBHOOK_URL_LENGTH`
   * characters, without a user name or password, not on a port of another protocol, and whose host
   * is no address the guard refuses (`allowPrivateNetworks`), else a `RangeError`. One a function
   * chooses is checked at each call: a bad one refuses that event (not retryable) without naming
   * the URL. A host name is resolved and checked at each call. A function that throws is a bug: the
   * publish rejects, and the engine logs it and defers the event.
   */
  readonly url: string | URL | ((event: DomainEvent) => WebhookEndpointChoice);
  /**
   * The signing secret(s), each of at least `MIN_WEBHOOK_SECRET_LENGTH` characters: every request
   * carries one `v1=` signature per secret, so while a secret is rotated both are given and a
   * receiver knowing either verifies. Required unless every endpoint `url` chooses has its own.
   * Their format depends on `scheme`: for `standard-webhooks`, `whsec_` and 24 to 64 bytes in
   * standard base64 (`generateStandardWebhookSecret()`).
   */
  readonly secrets?: string | readonly string[];
  /**
   * How requests are signed: `paystate` (`Paystate-Signature`) or `standard-webhooks` (`webhook-id`,
   * `webhook-timestamp`, `webhook-signature`, as the `standardwebhooks` libraries verify). Default `paystate`.
   */
  readonly scheme?: WebhookSignatureScheme;
  /** Where the signature's time (`t=`) comes from. Default the system clock (`paystate/node`). */
  readonly clock?: Clock;
  /**
   * A `fetch` to send with instead of the default, node's `http`/`https`.
   *
   * **It bypasses the address pinning of the server-side request forgery guard.** The default
   * transport connects to exactly the addresses the guard checked; a `fetch` resolves the host name
   * again itself and connects wherever that second answer says. Unless `allowPrivateNetworks`, the
   * sink still resolves and checks the name (with `lookup`) just before each call, but a name whose
   * answer changes between the two (DNS rebinding) reaches a private address: with this option,
   * give the `fetch` an egress proxy that refuses private networks, or keep the default.
   */
  readonly fetch?: WebhookFetch;
  /**
   * Resolves an endpoint's host name to every address it has, each of which is checked. Default
   * the operating system's resolver (`dns.promises.lookup(name, { all: true })`).
   */
  readonly lookup?: WebhookLookup;
  /**
   * How long one call may take, in ms (1 to 2^31 - 1), before it is aborted and counts as a
   * retryable failure. Default `DEFAULT_WEBHOOK_TIMEOUT_MS` (10 s), with or without the engine's
   * signal: the engine's `timeouts.eventSinkMs` (also 10 s by default) aborts it through that signal
   * too, whichever comes first, and a `publish` called without one is still limited.
   */
  readonly timeoutMs?: number;
  /** The `User-Agent` of the requests. Default `DEFAULT_WEBHOOK_USER_AGENT` (`paystate-webhooks/1`). */
  readonly userAgent?: string;
  /**
   * Headers added to every request (e.g. `Authorization` for a receiver behind basic auth). They
   * may not replace the ones the sink sets: `Content-Type`, `User-Agent`, `Idempotency-Key`,
   * `Paystate-Event-Id`, `Paystate-Event-Type`, `Paystate-Signature` and the three `webhook-*`
   * headers of Standard Webhooks (a `RangeError`).
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** Takes `http:` endpoints besides `https:`: for tests and receivers on localhost only. Default `false`. */
  readonly allowInsecureHttp?: boolean;
  /**
   * Turns off the server-side request forgery guard (docs/webhooks.md), which by default refuses
   * an endpoint whose host is, or resolves to, an address that is not public: loopback and
   * `localhost`, private (RFC 1918), link-local (cloud metadata), unique-local, shared (CGNAT),
   * multicast, unspecified or reserved, IPv4-mapped and NAT64 forms included. For tests and
   * receivers on localhost or in your own network only: never when merchants choose the URL.
   * Default `false`.
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

/**
 * An `EventSink` that POSTs each domain event, signed, to a webhook endpoint (docs/webhooks.md):
 * the body is `toWebhookEvent(event)` as JSON, with `Content-Type: application/json`, the
 * `User-Agent`, `Idempotency-Key` and `Paystate-Event-Id` (both the event id: de-duplicate on it),
 * `Paystate-Event-Type`, and `Paystate-Signature: t=<unix seconds from the clock>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>">`, one `v1=` per secret (or, with `scheme: 'standard-webhooks'`, the
 * `webhook-id`, `webhook-timestamp` and `webhook-signature` headers of that spec). It passes on the engine's abort signal,
 * gives up on a call after `timeoutMs` (default 10 s), never follows a redirect, and reads nothing
 * of the answer but its status.
 *
 * Unless `allowPrivateNetworks`, it refuses to reach an endpoint that is, or whose host name
 * resolves to, an address that is not public (a server-side request forgery guard): checked at
 * each call, on every address the name resolves to, and the connection is made to an address that
 * was checked. Such an endpoint refuses the event, not retryable, naming the rule broken, never
 * the address.
 *
 * The answer decides what the engine does with the event (it retries, defers and keeps order per
 * payment, see `EventSink`): a 2xx delivers it; 408, 425, 429, 5xx, a network failure, a time-out
 * or an abort are retryable; a 3xx or any other 4xx refuses it, not retryable, which defers that
 * event only. `publish` never throws or rejects for any of these, and its messages name at most
 * the endpoint's host and the status, never the body, a secret or the rest of the URL. It rejects
 * only for a bug of the host: a `url` function that throws, a clock that gives no valid time
 * (the engine logs it as a defect and defers the event).
 * @throws RangeError for a bad set-up, naming the rule, never the URL or a secret: a fixed `url`
 *   that breaks the URL rules, missing or short `secrets` (required with a fixed `url`), a
 *   `timeoutMs` out of range, `headers` that are invalid or replace the sink's own, a `userAgent`
 *   that is no valid header value.
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
  const scheme = checkWebhookScheme(options.scheme ?? 'paystate').match(
    (checked) => checked,
    (problem) => {
      throw new RangeError(`webhook ${problem}`);
    },
  );
  const defaultSigner =
    options.secrets === undefined
      ? undefined
      : webhookSigner(scheme, options.secrets).match(
          (signer) => signer,
          (problem) => {
            throw new RangeError(`webhook secrets: ${problem}`);
          },
        );
  const baseHeaders = checkHeaders(options.headers).match(
    (headers) => headers,
    (problem) => {
      throw new RangeError(`webhook ${problem}`);
    },
  );
  if (typeof userAgent !== 'string' || !HEADER_VALUE.test(userAgent) || userAgent === '') {
    throw new RangeError('webhook userAgent is not a valid header value');
  }

  const { url } = options;
  let choose: (event: DomainEvent) => Result<Target | null, EventSinkError>;
  if (typeof url === 'function') {
    choose = (event) => resolveChoice(url(event));
  } else {
    const checked = checkWebhookUrl(url, urlRules);
    if (checked.isErr()) throw new RangeError(`webhook url ${checked.error}`);
    if (defaultSigner === undefined) throw new RangeError('webhook secrets: needs at least one secret');
    const fixed: Target = { url: checked.value, sign: defaultSigner, headers: baseHeaders };
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
    // A clock that gives no time is a bug: the publish rejects (the engine logs it), rather than
    // sending a signature every receiver refuses.
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
