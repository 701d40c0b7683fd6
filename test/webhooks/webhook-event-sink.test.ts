import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import {
  createWebhookEventSink,
  isRetryableWebhookStatus,
  toWebhookEvent,
  verifyWebhookSignature,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_IDEMPOTENCY_KEY_HEADER,
  type WebhookEventSinkOptions,
  type WebhookFetch,
} from '../../adapters/webhooks/index.js';
import type { DomainEvent, EventSinkError } from '../../src/index.js';
import { makeEvent, makeSucceededRecord } from '../contracts/fixtures.js';
import { publicLookup } from './support/lookups.js';
import { NEXT_SECRET, SECRET } from './support/webhook-engine.js';

const URL_WITH_PATH = 'https://hooks.shop.example:8443/private/path?token=query-secret';
const HOST = 'hooks.shop.example:8443';

interface Call {
  readonly url: string;
  readonly init: RequestInit;
}

/** A fetch double that records each call and answers as `answer` says. */
function fakeFetch(answer: (call: Call) => Response | Promise<Response> = () => new Response(null, { status: 204 })) {
  const calls: Call[] = [];
  const fetch: WebhookFetch = async (url, init) => {
    calls.push({ url, init });
    return answer({ url, init });
  };
  return { calls, fetch };
}

function sinkWith(
  options: Partial<WebhookEventSinkOptions> = {},
  answer?: (call: Call) => Response | Promise<Response>,
) {
  const clock = createTestClock();
  const double = fakeFetch(answer);
  const sink = createWebhookEventSink({
    url: URL_WITH_PATH,
    secrets: SECRET,
    clock,
    fetch: double.fetch,
    lookup: publicLookup,
    ...options,
  });
  return { sink, clock, calls: double.calls };
}

const event = (): DomainEvent => makeEvent(makeSucceededRecord(), 'payment.succeeded');
const headersOf = (call: Call | undefined) => new Headers(call?.init.headers);

describe('createWebhookEventSink: the request', () => {
  it('POSTs the event as JSON with the signed headers, redirect manual, with a signal', async () => {
    const { sink, clock, calls } = sinkWith();
    const controller = new AbortController();
    const published = event();
    expect((await sink.publish(published, { signal: controller.signal })).isOk()).toBe(true);
    const [call] = calls;
    expect(call?.url).toBe(URL_WITH_PATH);
    expect(call?.init).toMatchObject({ method: 'POST', redirect: 'manual' });
    // The call's own signal (its time-out), which the engine's aborts too (tested below).
    expect(call?.init.signal).toBeInstanceOf(AbortSignal);
    const body = String(call?.init.body);
    expect(JSON.parse(body)).toEqual(JSON.parse(JSON.stringify(toWebhookEvent(published))));
    const headers = headersOf(call);
    expect(Object.fromEntries(headers)).toEqual({
      'content-type': 'application/json',
      'user-agent': 'paystate-webhooks/1',
      'idempotency-key': published.id,
      'paystate-event-id': published.id,
      'paystate-event-type': 'payment.succeeded',
      'paystate-signature': expect.stringMatching(new RegExp(`^t=${clock.now() / 1000},v1=[0-9a-f]{64}$`)),
    });
    const verified = verifyWebhookSignature({
      payload: body,
      header: headers.get('paystate-signature'),
      secrets: SECRET,
      now: clock.now(),
    });
    expect(verified._unsafeUnwrap()).toEqual({ timestamp: clock.now() / 1000 });
  });

  it('sends Idempotency-Key as the bare event id: the body id, the same on every delivery, never quoted', async () => {
    expect(WEBHOOK_IDEMPOTENCY_KEY_HEADER).toBe('Idempotency-Key');
    const { sink, clock, calls } = sinkWith();
    const published = event();
    await sink.publish(published);
    clock.advance(3_600_000); // offered again an hour later: signed anew, the same key
    await sink.publish(published);
    const [first, again] = calls.map(headersOf);
    const key = first?.get(WEBHOOK_IDEMPOTENCY_KEY_HEADER);
    expect(key).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(key).toBe(published.id);
    expect(key).toBe(first?.get(WEBHOOK_EVENT_ID_HEADER));
    expect(key).toBe((JSON.parse(String(calls[0]?.init.body)) as { id: string }).id);
    expect(again?.get(WEBHOOK_IDEMPOTENCY_KEY_HEADER)).toBe(key);
    expect(again?.get('paystate-signature')).not.toBe(first?.get('paystate-signature'));
  });

  it('signs with the time of the clock port at each call', async () => {
    const { sink, clock, calls } = sinkWith();
    clock.set(Date.UTC(2030, 5, 1, 0, 0, 0, 999));
    await sink.publish(event());
    expect(headersOf(calls[0]).get('paystate-signature')).toMatch(/^t=1906502400,/);
    clock.advance(61_000);
    await sink.publish(event());
    expect(headersOf(calls[1]).get('paystate-signature')).toMatch(/^t=1906502461,/);
  });

  it('signs with every secret while one is rotated', async () => {
    const { sink, clock, calls } = sinkWith({ secrets: [SECRET, NEXT_SECRET] });
    await sink.publish(event());
    const header = headersOf(calls[0]).get('paystate-signature');
    expect(header?.split(',')).toHaveLength(3);
    for (const secret of [SECRET, NEXT_SECRET]) {
      const payload = String(calls[0]?.init.body);
      expect(verifyWebhookSignature({ payload, header, secrets: secret, now: clock.now() }).isOk()).toBe(true);
    }
  });

  it('adds the headers given, a user agent of its own, and a signal of its own (the time-out) when it has none', async () => {
    const { sink, calls } = sinkWith({ headers: { Authorization: 'Basic abc' }, userAgent: 'shop-platform/2' });
    await sink.publish(event());
    expect(headersOf(calls[0]).get('authorization')).toBe('Basic abc');
    expect(headersOf(calls[0]).get('user-agent')).toBe('shop-platform/2');
    expect(calls[0]?.init.signal).toBeInstanceOf(AbortSignal);
  });

  it("sends with node's http(s) by default, never the global fetch, which could not be pinned to a checked address", async () => {
    const original = globalThis.fetch;
    const double = fakeFetch();
    globalThis.fetch = double.fetch as typeof fetch;
    try {
      const notFound = () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
      const sink = createWebhookEventSink({ url: URL_WITH_PATH, secrets: SECRET, lookup: notFound });
      expect((await sink.publish(event()))._unsafeUnwrapErr()).toEqual({
        code: 'unavailable',
        message: `Webhook call to ${HOST} failed: ENOTFOUND`,
        retryable: true,
        notSent: true,
      });
      expect(double.calls).toHaveLength(0);
    } finally {
      globalThis.fetch = original;
    }
  });
});

describe('createWebhookEventSink: the answer', () => {
  const answered = async (status: number) => {
    const { sink } = sinkWith({}, () => new Response(null, { status }));
    return sink.publish(event());
  };

  it.each([200, 201, 202, 204, 299])('%i delivers', async (status) => {
    expect((await answered(status)).isOk()).toBe(true);
  });

  it.each([408, 425, 429, 500, 502, 503, 504, 599])('%i is a retryable failure', async (status) => {
    expect((await answered(status))._unsafeUnwrapErr()).toEqual({
      code: 'unavailable',
      message: `Webhook endpoint ${HOST} answered ${status}`,
      retryable: true,
    });
    expect(isRetryableWebhookStatus(status)).toBe(true);
  });

  it.each([400, 401, 403, 404, 405, 409, 410, 413, 415, 422])(
    '%i is a failure that is not retryable',
    async (status) => {
      expect((await answered(status))._unsafeUnwrapErr()).toEqual({
        code: 'unavailable',
        message: `Webhook endpoint ${HOST} answered ${status}`,
        retryable: false,
      });
      expect(isRetryableWebhookStatus(status)).toBe(false);
    },
  );

  it.each([300, 301, 302, 303, 304, 307, 308])('%i is a redirect, not followed and not retryable', async (status) => {
    expect((await answered(status))._unsafeUnwrapErr()).toEqual({
      code: 'unavailable',
      message: `Webhook endpoint ${HOST} answered ${status}: redirects are not followed`,
      retryable: false,
    });
  });

  it("a browser's opaque redirect (status 0) is a redirect too", async () => {
    const opaque = { status: 0, type: 'opaqueredirect', body: null } as unknown as Response;
    const { sink } = sinkWith({}, () => opaque);
    expect((await sink.publish(event()))._unsafeUnwrapErr()).toMatchObject({
      message: `Webhook endpoint ${HOST} answered a redirect: redirects are not followed`,
      retryable: false,
    });
  });

  it('a fetch that rejects or throws is a retryable failure naming at most the error code, never rejecting', async () => {
    const reset = Object.assign(new TypeError(`fetch failed for ${URL_WITH_PATH}`), {
      cause: Object.assign(new Error(`socket hang up ${URL_WITH_PATH}`), { code: 'ECONNRESET' }),
    });
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });
    const cases: [() => Promise<Response>, EventSinkError][] = [
      [
        () => Promise.reject(reset),
        { code: 'unavailable', message: `Webhook call to ${HOST} failed: ECONNRESET`, retryable: true },
      ],
      [
        () => Promise.reject(refused),
        { code: 'unavailable', message: `Webhook call to ${HOST} failed: ENOTFOUND`, retryable: true, notSent: true },
      ],
      [
        () => {
          throw new Error(`boom ${SECRET}`);
        },
        { code: 'unavailable', message: `Webhook call to ${HOST} failed: network error`, retryable: true },
      ],
      [
        () => Promise.reject('a string'),
        { code: 'unavailable', message: `Webhook call to ${HOST} failed: network error`, retryable: true },
      ],
    ];
    for (const [fetch, expected] of cases) {
      const sink = createWebhookEventSink({ url: URL_WITH_PATH, secrets: SECRET, fetch, lookup: publicLookup });
      expect((await sink.publish(event()))._unsafeUnwrapErr()).toEqual(expected);
    }
  });

  it('an aborted signal is a retryable failure, and one aborted before the call sends nothing', async () => {
    const { sink, calls } = sinkWith({}, (call) => {
      return new Promise((_, reject) =>
        call.init.signal?.addEventListener('abort', () => reject(call.init.signal?.reason)),
      );
    });
    const aborted = {
      code: 'unavailable',
      message: `Webhook call to ${HOST} was aborted: the engine stopped waiting`,
      retryable: true,
    };
    const controller = new AbortController();
    const answer = sink.publish(event(), { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 0)); // the host name resolved, the call made
    controller.abort(new DOMException('The event sink took too long', 'TimeoutError'));
    expect((await answer)._unsafeUnwrapErr()).toEqual(aborted);
    expect(calls).toHaveLength(1);

    expect((await sink.publish(event(), { signal: AbortSignal.abort() }))._unsafeUnwrapErr()).toEqual(aborted);
    expect(calls).toHaveLength(1);
  });

  it('with timeoutMs, the call has a signal of its own that the engine signal aborts too', async () => {
    const { sink, calls } = sinkWith({ timeoutMs: 50 }, (call) => {
      return new Promise((_, reject) =>
        call.init.signal?.addEventListener('abort', () => reject(call.init.signal?.reason)),
      );
    });
    expect((await sink.publish(event()))._unsafeUnwrapErr()).toEqual({
      code: 'unavailable',
      message: `Webhook endpoint ${HOST} did not answer within 50 ms`,
      retryable: true,
    });
    const controller = new AbortController();
    const answer = sink.publish(event(), { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 0)); // the host name resolved, the call made
    expect(calls[1]?.init.signal).toBeInstanceOf(AbortSignal);
    expect(calls[1]?.init.signal).not.toBe(controller.signal);
    controller.abort();
    expect((await answer)._unsafeUnwrapErr().message).toBe(
      `Webhook call to ${HOST} was aborted: the engine stopped waiting`,
    );
  });

  it('messages never hold the secret, the body, the path or the query of the URL', async () => {
    const published = event();
    const messages: string[] = [];
    for (const status of [301, 400, 503]) {
      const { sink } = sinkWith(
        {},
        () => new Response(`echo ${JSON.stringify(toWebhookEvent(published))}`, { status }),
      );
      messages.push((await sink.publish(published))._unsafeUnwrapErr().message);
    }
    const failing = createWebhookEventSink({
      url: URL_WITH_PATH,
      secrets: SECRET,
      lookup: publicLookup,
      fetch: () => Promise.reject(new Error(`${URL_WITH_PATH} ${SECRET}`)),
    });
    messages.push((await failing.publish(published))._unsafeUnwrapErr().message);
    for (const message of messages) {
      for (const secret of [SECRET, 'private', 'query-secret', published.id, published.paymentId, 'Lovelace']) {
        expect(message).not.toContain(secret);
      }
    }
  });

  it('cancels the body of the answer, unread', async () => {
    let cancelled = false;
    const body = new ReadableStream({
      cancel: () => {
        cancelled = true;
      },
    });
    const { sink } = sinkWith({}, () => new Response(body, { status: 200 }));
    expect((await sink.publish(event())).isOk()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cancelled).toBe(true);
  });
});

describe('createWebhookEventSink: endpoints chosen per event', () => {
  const webshop = 'https://webshop.example/hooks';
  const outlet = 'https://outlet.example/hooks';
  const OUTLET_SECRET = 'whsec_outlet_secret_0123456789abcdefghijklmno';

  it('sends each event where the function says, with that endpoint’s secret and headers', async () => {
    const double = fakeFetch();
    const clock = createTestClock();
    const sink = createWebhookEventSink({
      url: (e) =>
        e.profileId === 'profile_webshop'
          ? webshop
          : e.profileId === 'profile_outlet'
            ? { url: outlet, secrets: OUTLET_SECRET, headers: { 'X-Shop': 'outlet' } }
            : undefined,
      secrets: SECRET,
      clock,
      fetch: double.fetch,
      lookup: publicLookup,
    });
    const of = (profileId: string) => makeEvent(makeSucceededRecord({ profileId }));
    expect((await sink.publish(of('profile_webshop'))).isOk()).toBe(true);
    expect((await sink.publish(of('profile_outlet'))).isOk()).toBe(true);
    // No endpoint: delivered, and nothing is sent.
    expect((await sink.publish(of('profile_other'))).isOk()).toBe(true);
    expect(double.calls.map((call) => call.url)).toEqual([webshop, outlet]);
    const [first, second] = double.calls;
    const check = (call: Call | undefined, secret: string) =>
      verifyWebhookSignature({
        payload: String(call?.init.body),
        header: headersOf(call).get('paystate-signature'),
        secrets: secret,
        now: clock.now(),
      }).isOk();
    expect([check(first, SECRET), check(second, OUTLET_SECRET), check(second, SECRET)]).toEqual([true, true, false]);
    expect(headersOf(second).get('x-shop')).toBe('outlet');
    expect(headersOf(first).get('x-shop')).toBeNull();
  });

  it('refuses an event, not retryable and without naming the URL, when its endpoint breaks a rule', async () => {
    const double = fakeFetch();
    const chosen: unknown[] = [
      'http://insecure.example/hooks',
      'https://user:hunter2hunter2@creds.example/hooks',
      '/relative',
      { url: 'https://short.example/hooks', secrets: 'too-short' },
      { url: 'https://reserved.example/hooks', headers: { 'Paystate-Signature': 'forged' } },
    ];
    let next = 0;
    const sink = createWebhookEventSink({
      url: () => chosen[next++] as string,
      secrets: SECRET,
      fetch: double.fetch,
      lookup: publicLookup,
    });
    for (let i = 0; i < chosen.length; i++) {
      const failure = (await sink.publish(event()))._unsafeUnwrapErr();
      expect(failure.retryable).toBe(false);
      for (const text of ['insecure.example/hooks', 'hunter2', 'relative', 'too-short', 'forged']) {
        expect(failure.message).not.toContain(text);
      }
    }
    expect(double.calls).toEqual([]);
  });

  it('refuses an event whose endpoint has no secret when the sink has none', async () => {
    const sink = createWebhookEventSink({
      url: () => 'https://nosecret.example/hooks',
      fetch: fakeFetch().fetch,
      lookup: publicLookup,
    });
    expect((await sink.publish(event()))._unsafeUnwrapErr()).toEqual({
      code: 'unavailable',
      message: 'Webhook endpoint nosecret.example has no secret to sign with',
      retryable: false,
    });
  });

  it('a function that throws makes the publish reject (a bug the engine logs), not throw', async () => {
    const sink = createWebhookEventSink({
      url: () => {
        throw new Error('no such profile');
      },
      secrets: SECRET,
      fetch: fakeFetch().fetch,
      lookup: publicLookup,
    });
    let answer: ReturnType<typeof sink.publish> | undefined;
    expect(() => {
      answer = sink.publish(event());
    }).not.toThrow();
    await expect(answer).rejects.toThrow('no such profile');
  });
});

describe('createWebhookEventSink: bugs of the host', () => {
  it('a clock that gives no valid time makes the publish reject, sending nothing', async () => {
    const double = fakeFetch();
    const sink = createWebhookEventSink({
      url: URL_WITH_PATH,
      secrets: SECRET,
      clock: { now: () => Number.NaN },
      fetch: double.fetch,
      lookup: publicLookup,
    });
    await expect(sink.publish(event())).rejects.toThrow('the clock port gave no valid time');
    expect(double.calls).toEqual([]);
  });
});

describe('createWebhookEventSink: set-up', () => {
  const make = (options: Partial<WebhookEventSinkOptions>) => () =>
    createWebhookEventSink({ url: 'https://hooks.example/in', secrets: SECRET, ...options });

  it('takes an absolute https URL, or http with allowInsecureHttp', () => {
    expect(make({})).not.toThrow();
    expect(make({ url: new URL('https://hooks.example/in') })).not.toThrow();
    expect(
      make({ url: 'http://127.0.0.1:4000/hooks', allowInsecureHttp: true, allowPrivateNetworks: true }),
    ).not.toThrow();
  });

  it.each([
    ['http://hooks.example/in', /use https, or set allowInsecureHttp/],
    ['/hooks', /absolute http\(s\) URL/],
    ['hooks.example/in', /absolute http\(s\) URL/],
    ['ftp://hooks.example/in', /absolute http\(s\) URL/],
    ['https://user:hunter2hunter2@hooks.example/in', /must not carry credentials/],
    ['https://user@hooks.example/in', /must not carry credentials/],
  ])('refuses %s with a RangeError that does not repeat it', (url, message) => {
    expect(make({ url })).toThrow(RangeError);
    expect(make({ url })).toThrow(message);
    try {
      make({ url })();
    } catch (error) {
      expect((error as Error).message).not.toContain(url);
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it('refuses short or missing secrets with a RangeError that does not repeat them', () => {
    const short = 'secret-of-only-twenty-six!';
    for (const secrets of [short, [SECRET, short], []]) {
      expect(make({ secrets })).toThrow(RangeError);
      try {
        make({ secrets })();
      } catch (error) {
        expect((error as Error).message).not.toContain(short);
        expect((error as Error).message).not.toContain(SECRET);
      }
    }
    // A fixed URL needs secrets of the sink's own.
    expect(() => createWebhookEventSink({ url: 'https://hooks.example/in' })).toThrow(RangeError);
    expect(() => createWebhookEventSink({ url: () => undefined })).not.toThrow();
  });

  it('refuses a timeoutMs out of range and headers that would replace its own or are invalid', () => {
    for (const timeoutMs of [0, -1, Number.NaN, 2 ** 31]) expect(make({ timeoutMs })).toThrow(RangeError);
    for (const name of ['content-type', 'User-Agent', 'Paystate-Signature', 'paystate-event-id', 'Idempotency-Key']) {
      expect(make({ headers: { [name]: 'x' } })).toThrow(RangeError);
    }
    expect(make({ headers: { 'Bad Name': 'x' } })).toThrow(RangeError);
    expect(make({ headers: { 'X-Ok': 'line\nbreak' } })).toThrow(RangeError);
    expect(make({ userAgent: 'line\nbreak' })).toThrow(RangeError);
  });
});
