import { afterEach, describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import {
  createWebhookEventSink,
  MAX_WEBHOOK_URL_LENGTH,
  type WebhookEventSinkOptions,
  type WebhookFetch,
} from '../../adapters/webhooks/index.js';
import type { DomainEvent, EventSinkError } from '../../src/index.js';
import { makeEvent, makeSucceededRecord } from '../contracts/fixtures.js';
import { PUBLIC_ADDRESS, publicLookup, tableLookup } from './support/lookups.js';
import { SECRET } from './support/webhook-engine.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const event = (): DomainEvent => makeEvent(makeSucceededRecord(), 'payment.succeeded');

/** A fetch double that records the URLs it was called with and answers 204. */
function fakeFetch() {
  const calls: string[] = [];
  const fetch: WebhookFetch = async (url) => {
    calls.push(url);
    return new Response(null, { status: 204 });
  };
  return { calls, fetch };
}

/** A sink whose `url` function chooses `chosen`, sending through a fetch double. */
function choosing(chosen: string, options: Partial<WebhookEventSinkOptions> = {}) {
  const double = fakeFetch();
  const sink = createWebhookEventSink({
    url: () => chosen,
    secrets: SECRET,
    clock: createTestClock(),
    fetch: double.fetch,
    lookup: publicLookup,
    ...options,
  });
  return { sink, calls: double.calls };
}

/** Endpoints whose host is an address the guard refuses, in the forms a merchant could type, and the rule. */
const LITERALS: readonly (readonly [url: string, rule: RegExp, secret: string])[] = [
  ['https://169.254.169.254/latest/meta-data/', /link-local/, '169.254.169.254'],
  ['https://[fd00:ec2::254]/latest/meta-data/', /unique-local/, 'fd00:ec2::254'],
  ['https://127.0.0.1/', /loopback/, '127.0.0.1'],
  ['https://127.255.255.254:8443/', /loopback/, '127.255.255.254'],
  ['https://localhost:5432/', /loopback/, 'localhost'],
  ['https://LOCALHOST./', /loopback/, 'LOCALHOST'],
  ['https://db.localhost/', /loopback/, 'db.localhost'],
  ['https://10.0.0.5/admin', /private/, '10.0.0.5'],
  ['https://172.16.0.1/', /private/, '172.16.0.1'],
  ['https://172.31.255.255/', /private/, '172.31.255.255'],
  ['https://192.168.1.1/', /private/, '192.168.1.1'],
  ['https://100.64.0.1/', /shared/, '100.64.0.1'],
  ['https://100.127.255.255/', /shared/, '100.127.255.255'],
  ['https://0.0.0.0/', /unspecified/, '0.0.0.0'],
  ['https://0/', /unspecified/, 'https://0/'],
  ['https://224.0.0.1/', /multicast/, '224.0.0.1'],
  ['https://239.255.255.250/', /multicast/, '239.255.255.250'],
  ['https://255.255.255.255/', /reserved/, '255.255.255.255'],
  ['https://240.0.0.1/', /reserved/, '240.0.0.1'],
  ['https://192.0.2.1/', /reserved/, '192.0.2.1'],
  ['https://198.18.0.1/', /reserved/, '198.18.0.1'],
  // The same loopback address as a number, in octal, in hex, shortened: the URL parser reads them all.
  ['https://2130706433/', /loopback/, '2130706433'],
  ['https://0x7f.1/', /loopback/, '0x7f.1'],
  ['https://0177.0.0.1/', /loopback/, '0177.0.0.1'],
  ['https://0x7f000001/', /loopback/, '0x7f000001'],
  ['https://127.1/', /loopback/, '127.1'],
  ['https://%31%32%37.0.0.1/', /loopback/, '%31%32%37'],
  ['https://[::1]/', /loopback/, '::1'],
  ['https://[0:0:0:0:0:0:0:1]:8443/', /loopback/, '0:0:0:0:0:0:0:1'],
  ['https://[::]/', /unspecified/, '[::]'],
  ['https://[fc00::1]/', /unique-local/, 'fc00::1'],
  ['https://[fe80::1]/', /link-local/, 'fe80::1'],
  ['https://[ff02::1]/', /multicast/, 'ff02::1'],
  ['https://[2001:db8::1]/', /reserved/, '2001:db8::1'],
  // IPv4 inside IPv6: mapped, NAT64, 6to4, and the deprecated compatible form.
  ['https://[::ffff:127.0.0.1]/', /loopback/, '::ffff'],
  ['https://[::ffff:a9fe:a9fe]/', /link-local/, 'a9fe'],
  ['https://[::ffff:10.0.0.5]/', /private/, '::ffff'],
  ['https://[64:ff9b::a9fe:a9fe]/', /link-local/, '64:ff9b'],
  ['https://[2002:7f00:1::]/', /loopback/, '2002:7f00'],
  ['https://[::127.0.0.1]/', /reserved/, '::7f00'],
];

describe('the server-side request forgery guard: endpoints whose host is an address', () => {
  it.each(LITERALS)('refuses %s as a fixed url, with a RangeError naming the rule', (url, rule, shown) => {
    const make = () => createWebhookEventSink({ url, secrets: SECRET, fetch: fakeFetch().fetch });
    expect(make).toThrow(RangeError);
    expect(make).toThrow(rule);
    expect(make).toThrow(/allowPrivateNetworks/);
    try {
      make();
    } catch (error) {
      expect((error as Error).message).not.toContain(shown);
      expect((error as Error).message).not.toContain(new URL(url).host);
    }
  });

  it.each(LITERALS)(
    'refuses an event whose endpoint is %s, not retryable, sending nothing',
    async (url, rule, shown) => {
      const { sink, calls } = choosing(url);
      const failure = (await sink.publish(event()))._unsafeUnwrapErr();
      expect(failure).toMatchObject({ code: 'unavailable', retryable: false });
      expect(failure.message).toMatch(rule);
      expect(failure.message).not.toContain(shown);
      expect(failure.message).not.toContain(new URL(url).host);
      expect(calls).toEqual([]);
    },
  );

  it.each([
    'https://hooks.shop.example/in',
    'https://93.184.215.14/in',
    'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/in',
    'https://[::ffff:93.184.215.14]/in',
    'https://172.32.0.1/in',
    'https://100.128.0.1/in',
    'https://169.255.0.1/in',
    'https://hooks.shop.example:8443/in',
  ])('takes %s', async (url) => {
    const { sink, calls } = choosing(url);
    expect((await sink.publish(event())).isOk()).toBe(true);
    expect(calls).toEqual([new URL(url).href]);
  });

  it('takes every one of them with allowPrivateNetworks', async () => {
    for (const [url] of LITERALS) {
      const { sink, calls } = choosing(url, { allowPrivateNetworks: true });
      expect((await sink.publish(event())).isOk(), url).toBe(true);
      expect(calls).toHaveLength(1);
      expect(() =>
        createWebhookEventSink({ url, secrets: SECRET, allowPrivateNetworks: true, fetch: fakeFetch().fetch }),
      ).not.toThrow();
    }
  });
});

describe('the server-side request forgery guard: host names', () => {
  const refusedBy = (rule: RegExp): Partial<EventSinkError> => ({
    code: 'unavailable',
    retryable: false,
    message: expect.stringMatching(rule) as unknown as string,
  });

  it.each([
    [['127.0.0.1'], /loopback/],
    [['169.254.169.254'], /link-local/],
    [['10.1.2.3'], /private/],
    [['100.100.100.200'], /shared/],
    [['::1'], /loopback/],
    [['fd12:3456::1'], /unique-local/],
    [['::ffff:192.168.0.1'], /private/],
    [['0.0.0.0'], /unspecified/],
    // One bad address among good ones refuses the name: the connection could go to any of them.
    [[PUBLIC_ADDRESS, '10.0.0.5'], /private/],
    [['2606:2800:21f:cb07:6820:80da:af6b:8b2c', 'fe80::1'], /link-local/],
  ])(
    'refuses a name that resolves to %j, naming the rule and neither the name nor the address',
    async (addresses, rule) => {
      const { lookup } = tableLookup({ 'hooks.evil.example': addresses });
      const { sink, calls } = choosing('https://hooks.evil.example/in', { lookup });
      const failure = (await sink.publish(event()))._unsafeUnwrapErr();
      expect(failure).toEqual(refusedBy(rule));
      expect(failure.message).toMatch(/resolves to/);
      for (const shown of [...addresses, 'hooks.evil.example']) expect(failure.message).not.toContain(shown);
      expect(calls).toEqual([]);
    },
  );

  it('checks the addresses at every call: a name that turns private later is refused then', async () => {
    const { lookup, calls: asked } = tableLookup({
      'hooks.rebind.example': (n) => (n === 0 ? [PUBLIC_ADDRESS] : ['169.254.169.254']),
    });
    const { sink, calls } = choosing('https://hooks.rebind.example/in', { lookup });
    expect((await sink.publish(event())).isOk()).toBe(true);
    expect((await sink.publish(event()))._unsafeUnwrapErr()).toEqual(refusedBy(/link-local/));
    expect(asked).toEqual(['hooks.rebind.example', 'hooks.rebind.example']);
    expect(calls).toHaveLength(1);
  });

  it('a name that does not resolve is a retryable failure never sent', async () => {
    const { lookup } = tableLookup({});
    const { sink, calls } = choosing('https://nowhere.example/in', { lookup });
    expect((await sink.publish(event()))._unsafeUnwrapErr()).toEqual({
      code: 'unavailable',
      message: 'Webhook call to nowhere.example failed: ENOTFOUND',
      retryable: true,
      notSent: true,
    });
    expect(calls).toEqual([]);
  });

  it('resolves nothing with allowPrivateNetworks and a fetch of its own', async () => {
    const { lookup, calls: asked } = tableLookup({});
    const { sink, calls } = choosing('https://hooks.internal.example/in', { lookup, allowPrivateNetworks: true });
    expect((await sink.publish(event())).isOk()).toBe(true);
    expect(asked).toEqual([]);
    expect(calls).toHaveLength(1);
  });
});

describe('the server-side request forgery guard over a real socket', () => {
  it('refuses a receiver on 127.0.0.1 by default: it never gets a request', async () => {
    receiver = await startReceiver();
    const sink = createWebhookEventSink({
      url: () => `${receiver?.origin}/hooks`,
      secrets: SECRET,
      allowInsecureHttp: true,
    });
    const failure = (await sink.publish(event()))._unsafeUnwrapErr();
    expect(failure).toMatchObject({
      code: 'unavailable',
      retryable: false,
      message: expect.stringMatching(/loopback/),
    });
    expect(failure.message).not.toContain('127.0.0.1');
    expect(() =>
      createWebhookEventSink({ url: `${receiver?.origin}/hooks`, secrets: SECRET, allowInsecureHttp: true }),
    ).toThrow(/loopback/);
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses localhost, which the system resolver answers with loopback addresses', async () => {
    receiver = await startReceiver();
    const port = new URL(receiver.origin).port;
    const sink = createWebhookEventSink({
      url: () => `http://localhost:${port}/hooks`,
      secrets: SECRET,
      allowInsecureHttp: true,
    });
    expect((await sink.publish(event()))._unsafeUnwrapErr()).toMatchObject({ retryable: false });
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a host name the resolver answers with 127.0.0.1, and asks it once per call', async () => {
    receiver = await startReceiver();
    const port = new URL(receiver.origin).port;
    const { lookup, calls: asked } = tableLookup({ 'hooks.rebind.example': ['127.0.0.1'] });
    const sink = createWebhookEventSink({
      url: `http://hooks.rebind.example:${port}/hooks`,
      secrets: SECRET,
      allowInsecureHttp: true,
      lookup,
    });
    const failure = (await sink.publish(event()))._unsafeUnwrapErr();
    expect(failure).toMatchObject({ retryable: false, message: expect.stringMatching(/resolves to a loopback/) });
    expect(failure.message).not.toContain('hooks.rebind.example');
    expect(asked).toEqual(['hooks.rebind.example']);
    expect(receiver.requests).toHaveLength(0);
  });

  it('connects to the address the lookup answered (the one checked), not one resolved again', async () => {
    receiver = await startReceiver();
    const port = new URL(receiver.origin).port;
    // No DNS knows this name: only the sink's lookup can take the request to the receiver.
    const { lookup, calls: asked } = tableLookup({ 'receiver.paystate.test': ['127.0.0.1'] });
    const sink = createWebhookEventSink({
      url: `http://receiver.paystate.test:${port}/hooks`,
      secrets: SECRET,
      allowInsecureHttp: true,
      allowPrivateNetworks: true,
      lookup,
    });
    expect((await sink.publish(event())).isOk()).toBe(true);
    expect(asked).toEqual(['receiver.paystate.test']);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]?.headers.host).toBe(`receiver.paystate.test:${port}`);
  });

  it('takes a receiver on 127.0.0.1 and on localhost with allowPrivateNetworks', async () => {
    receiver = await startReceiver();
    const port = new URL(receiver.origin).port;
    for (const url of [`${receiver.origin}/hooks`, `http://localhost:${port}/hooks`]) {
      const sink = createWebhookEventSink({
        url,
        secrets: SECRET,
        allowInsecureHttp: true,
        allowPrivateNetworks: true,
      });
      expect((await sink.publish(event())).isOk(), url).toBe(true);
    }
    expect(receiver.requests).toHaveLength(2);
  });
});

describe('webhook URL limits', () => {
  const make =
    (url: string, options: Partial<WebhookEventSinkOptions> = {}) =>
    () =>
      createWebhookEventSink({ url, secrets: SECRET, fetch: fakeFetch().fetch, ...options });

  it.each([1, 21, 22, 23, 25, 53, 110, 143, 465, 587, 993, 5060, 6000, 6667, 10080, 0])(
    'refuses port %i, a port of another protocol, even with allowPrivateNetworks',
    async (port) => {
      const url = `https://hooks.shop.example:${port}/in`;
      expect(make(url)).toThrow(RangeError);
      expect(make(url)).toThrow(`is on port ${port}, a port of another protocol`);
      expect(make(url, { allowPrivateNetworks: true })).toThrow(RangeError);
      const { sink, calls } = choosing(url);
      expect((await sink.publish(event()))._unsafeUnwrapErr()).toMatchObject({ retryable: false });
      expect(calls).toEqual([]);
    },
  );

  it.each([80, 443, 3000, 4443, 8080, 8443, 9000, 65535])('takes port %i', (port) => {
    expect(make(`https://hooks.shop.example:${port}/in`)).not.toThrow();
  });

  it('refuses a URL longer than 2,048 characters, without repeating it', async () => {
    expect(MAX_WEBHOOK_URL_LENGTH).toBe(2048);
    const base = 'https://hooks.shop.example/in?pad=';
    const longest = base + 'a'.repeat(2048 - base.length);
    expect(make(longest)).not.toThrow();
    const longer = `${longest}a`;
    expect(make(longer)).toThrow('is longer than 2048 characters');
    // Longer once parsed (each space becomes %20), and very much longer.
    expect(make(`${base}${' '.repeat(1000)}x`)).toThrow(RangeError);
    expect(make(`${base}${'b'.repeat(1_000_000)}`)).toThrow(RangeError);
    const { sink, calls } = choosing(`https://${'x'.repeat(60)}.${'y'.repeat(3000)}.example/`);
    const failure = (await sink.publish(event()))._unsafeUnwrapErr();
    expect(failure).toMatchObject({ retryable: false });
    expect(failure.message.length).toBeLessThan(200);
    expect(calls).toEqual([]);
  });
});
