import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../adapters/node/index.js';
import {
  createStandardWebhookHeaders,
  createWebhookEventSink,
  generateStandardWebhookSecret,
  generateWebhookSecret,
  verifyStandardWebhookSignature,
} from '../../adapters/webhooks/index.js';
import { compliantClient } from '../support/engine-harness.js';
import { PROFILE, VISA } from '../support/engine-helpers.js';
import { directRequest } from '../support/requests.js';
import { makeWebhookEngine } from './support/webhook-engine.js';
import { headerOf, startReceiver, type ReceivedRequest, type Receiver } from './support/webhook-receiver.js';

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** The request's headers as the `standardwebhooks` library takes them (node gives these as strings). */
const headersOf = (request: ReceivedRequest) => request.headers as Record<string, string>;

/** Delivers the events of one approved payment, signed with `secrets`, to a fresh node:http receiver. */
async function deliverSigned(secrets: string | readonly string[]): Promise<readonly ReceivedRequest[]> {
  receiver = await startReceiver();
  const h = makeWebhookEngine({
    url: `${receiver.origin}/hooks`,
    scheme: 'standard-webhooks',
    secrets,
    clock: systemClock,
  });
  const body = directRequest(VISA);
  (await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body }))._unsafeUnwrap();
  expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
  return receiver.requests;
}

describe("the standard-webhooks scheme, verified by the 'standardwebhooks' library", () => {
  it('signs every request so that Webhook.verify takes it, over a real socket', async () => {
    const secret = generateStandardWebhookSecret();
    const requests = await deliverSigned(secret);
    const verifier = new Webhook(secret);
    const types = requests.map((request) => {
      const event = verifier.verify(request.body.toString('utf8'), headersOf(request)) as { id: string; type: string };
      expect(headerOf(request, 'webhook-id')).toBe(event.id);
      expect(headerOf(request, 'paystate-event-id')).toBe(event.id);
      expect(headerOf(request, 'webhook-timestamp')).toMatch(/^\d{10}$/);
      expect(headerOf(request, 'webhook-signature')).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(headerOf(request, 'paystate-signature')).toBeUndefined();
      // paystate's own helper agrees.
      expect(
        verifyStandardWebhookSignature({ payload: request.body, headers: request.headers, secrets: secret }),
      ).toEqual(
        expect.objectContaining({ value: { id: event.id, timestamp: Number(headerOf(request, 'webhook-timestamp')) } }),
      );
      return event.type;
    });
    expect(types).toEqual(['payment.created', 'payment.succeeded']);
  });

  it('a tampered body, a wrong secret or a changed id is refused by the library and by paystate', async () => {
    const secret = generateStandardWebhookSecret();
    const [request] = await deliverSigned(secret);
    if (request === undefined) throw new Error('no request');
    const text = request.body.toString('utf8');
    const tampered = text.replace('"payment.created"', '"payment.succeeded"');
    expect(tampered).not.toBe(text);
    const cases: readonly [string, Record<string, string>, string][] = [
      [tampered, headersOf(request), secret],
      [text, headersOf(request), generateStandardWebhookSecret()],
      [text, { ...headersOf(request), 'webhook-id': 'evt_00000000000000000000000000000000' }, secret],
    ];
    for (const [payload, headers, key] of cases) {
      expect(() => new Webhook(key).verify(payload, headers)).toThrow(WebhookVerificationError);
      const ours = verifyStandardWebhookSignature({ payload, headers, secrets: key });
      expect(ours._unsafeUnwrapErr().code).toBe('no_matching_signature');
    }
  });

  it('while a secret is rotated, a receiver knowing either one verifies', async () => {
    const [next, old] = [generateStandardWebhookSecret(), generateStandardWebhookSecret()];
    const requests = await deliverSigned([next, old]);
    for (const request of requests) {
      expect(headerOf(request, 'webhook-signature')?.split(' ')).toHaveLength(2);
      for (const secret of [next, old]) {
        expect(() => new Webhook(secret).verify(request.body.toString('utf8'), headersOf(request))).not.toThrow();
      }
    }
  });

  it('createStandardWebhookHeaders makes test requests the library takes', () => {
    const secret = generateStandardWebhookSecret();
    const payload = JSON.stringify({ id: 'evt_1', type: 'payment.created' });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = createStandardWebhookHeaders({ payload, id: 'evt_1', secrets: secret, timestamp });
    expect(new Webhook(secret).verify(payload, headers)).toEqual({ id: 'evt_1', type: 'payment.created' });
    expect(new Webhook(secret).sign('evt_1', new Date(timestamp * 1000), payload)).toBe(headers['webhook-signature']);
  });

  it('paystate refuses a stale request the library also refuses as too old', () => {
    const secret = generateStandardWebhookSecret();
    const payload = '{}';
    const timestamp = Math.floor(Date.now() / 1000) - 301;
    const headers = createStandardWebhookHeaders({ payload, id: 'evt_1', secrets: secret, timestamp });
    expect(() => new Webhook(secret).verify(payload, headers)).toThrow(/too old/);
    expect(verifyStandardWebhookSignature({ payload, headers, secrets: secret })._unsafeUnwrapErr().code).toBe(
      'timestamp_out_of_tolerance',
    );
    expect(verifyStandardWebhookSignature({ payload, headers: {}, secrets: secret })._unsafeUnwrapErr().code).toBe(
      'missing_header',
    );
  });
});

describe('secret formats', () => {
  it("why the library 'accepts' a paystate secret and then fails: it base64-decodes what follows whsec_", () => {
    const decoded: boolean[] = [];
    for (let n = 0; n < 40; n += 1) {
      const secret = generateWebhookSecret(); // base64url, and the paystate scheme keys with the whole string
      try {
        const key = (new Webhook(secret) as unknown as { key: Uint8Array }).key;
        // Decoded without complaint, into other bytes than the paystate scheme's key.
        expect(Buffer.from(key).equals(Buffer.from(secret, 'utf8'))).toBe(false);
        decoded.push(true);
      } catch (error) {
        expect(String(error)).toMatch(/incorrect characters/); // a - or _ of base64url
        decoded.push(false);
      }
    }
    expect(decoded).toContain(false);
  });

  it('the standard-webhooks scheme refuses a paystate-scheme secret, naming the format, never the secret', () => {
    for (let n = 0; n < 40; n += 1) {
      const secret = generateWebhookSecret();
      const make = () =>
        createWebhookEventSink({ url: 'https://hooks.example', scheme: 'standard-webhooks', secrets: secret });
      expect(make).toThrow(/base64url without padding.*generateStandardWebhookSecret/);
      expect(() => make()).not.toThrow(secret.slice(6));
      expect(() => verifyStandardWebhookSignature({ payload: '{}', headers: {}, secrets: secret })).toThrow(RangeError);
    }
  });

  it.each([
    ['no prefix', Buffer.alloc(32, 7).toString('base64'), /does not start with whsec_/],
    ['too short a key', `whsec_${Buffer.alloc(16, 7).toString('base64')}`, /decodes to 16 bytes.*24 to 64/],
    ['too long a key', `whsec_${Buffer.alloc(65, 7).toString('base64')}`, /decodes to 65 bytes/],
    ['not base64', 'whsec_not base64 at all, not at all!!', /not whsec_ and standard base64/],
  ])('refuses %s', (_, secret, message) => {
    expect(() =>
      createWebhookEventSink({ url: 'https://a.example', scheme: 'standard-webhooks', secrets: secret }),
    ).toThrow(message);
  });

  it('the default scheme is unchanged: Paystate-Signature only, with any secret of 32+ characters', async () => {
    receiver = await startReceiver();
    const h = makeWebhookEngine({ url: `${receiver.origin}/hooks`, secrets: generateStandardWebhookSecret() });
    (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: directRequest(VISA) })
    )._unsafeUnwrap();
    await h.engine.deliverEvents();
    const [request] = receiver.requests;
    expect(headerOf(request as ReceivedRequest, 'paystate-signature')).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(headerOf(request as ReceivedRequest, 'webhook-signature')).toBeUndefined();
  });

  it('an endpoint may choose its own scheme; a secret of the wrong format refuses its events, not retryable', async () => {
    receiver = await startReceiver();
    const secret = generateStandardWebhookSecret();
    const url = `${receiver.origin}/hooks`;
    const sink = createWebhookEventSink({
      url: (event) => ({
        url,
        scheme: 'standard-webhooks',
        secrets: event.paymentId === 'p1' ? secret : generateWebhookSecret(),
      }),
      allowInsecureHttp: true,
      allowPrivateNetworks: true,
    });
    const h = makeWebhookEngine({ url });
    const event = { ...(await firstEvent(h)), paymentId: 'p1' };
    expect((await sink.publish(event)).isOk()).toBe(true);
    const request = receiver.requests.at(-1); // the harness's own sink delivered the first ones
    expect(headerOf(request as ReceivedRequest, 'webhook-id')).toBe(event.id);
    expect(() =>
      new Webhook(secret).verify(
        (request as ReceivedRequest).body.toString('utf8'),
        headersOf(request as ReceivedRequest),
      ),
    ).not.toThrow();
    const refused = (await sink.publish({ ...event, paymentId: 'p2' }))._unsafeUnwrapErr();
    expect(refused).toMatchObject({ retryable: false, message: expect.stringMatching(/base64url/) });
  });
});

/** One domain event, as the engine makes it (the harness's engine, its sink aimed nowhere). */
async function firstEvent(h: ReturnType<typeof makeWebhookEngine>) {
  const published: Parameters<typeof h.events.publish>[0][] = [];
  const original = h.events.publish.bind(h.events);
  h.events.publish = (event, options) => {
    published.push(event);
    return original(event, options);
  };
  (
    await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: directRequest(VISA) })
  )._unsafeUnwrap();
  await h.engine.deliverEvents();
  const [event] = published;
  if (event === undefined) throw new Error('no event');
  return event;
}
