import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_WEBHOOK_USER_AGENT,
  parseWebhookEvent,
  verifyWebhookSignature,
  type WebhookEvent,
} from '../../adapters/webhooks/index.js';
import { containsCardNumber } from '../../src/domain/card-number.js';
import { makeEvent, makeSucceededRecord } from '../contracts/fixtures.js';
import { compliantClient } from '../support/engine-harness.js';
import { CHALLENGE_CARD, PROFILE, VISA } from '../support/engine-helpers.js';
import { directRequest } from '../support/requests.js';
import { makeWebhookEngine, SECRET } from './support/webhook-engine.js';
import { headerOf, startReceiver, type ReceivedRequest, type Receiver } from './support/webhook-receiver.js';

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

type Harness = ReturnType<typeof makeWebhookEngine>;

async function createDirect(h: Harness, card: string) {
  return (
    await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: directRequest(card) })
  )._unsafeUnwrap();
}

/** The request's event, verified with `SECRET` at the engine's time. */
function eventOf(h: Harness, request: ReceivedRequest): WebhookEvent {
  const parsed = parseWebhookEvent({
    payload: request.body,
    header: request.headers['paystate-signature'],
    secrets: SECRET,
    now: h.clock.now(),
  });
  if (parsed.isErr()) throw new Error(`${parsed.error.code}: ${parsed.error.message}`);
  return parsed.value;
}

const summary = (h: Harness, requests: readonly ReceivedRequest[]) =>
  requests.map((request) => {
    const event = eventOf(h, request);
    return `${event.type} ${event.data.payment.id}`;
  });

describe('webhook delivery over a real socket', () => {
  it('POSTs payment.created, payment.action_required and payment.succeeded in order, each signed and verifiable', async () => {
    receiver = await startReceiver();
    const h = makeWebhookEngine({ url: `${receiver.origin}/hooks/payments` });
    const payment = await createDirect(h, CHALLENGE_CARD);
    expect(payment.state).toBe('processing');
    expect((await h.engine.completeChallenge(await h.challengeAnswer(payment.id, 'authorise'))).isOk()).toBe(true);

    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(3);
    const { requests } = receiver;
    expect(requests.map((request) => eventOf(h, request).type)).toEqual([
      'payment.created',
      'payment.action_required',
      'payment.succeeded',
    ]);
    const stored = (await h.engine.getPayment({ profileId: PROFILE, paymentId: payment.id }))._unsafeUnwrap();
    for (const request of requests) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/hooks/payments');
      const event = eventOf(h, request);
      expect(headerOf(request, 'content-type')).toBe('application/json');
      expect(headerOf(request, 'user-agent')).toBe(DEFAULT_WEBHOOK_USER_AGENT);
      expect(headerOf(request, 'paystate-event-id')).toBe(event.id);
      expect(headerOf(request, 'idempotency-key')).toBe(event.id);
      expect(headerOf(request, 'paystate-event-type')).toBe(event.type);
      expect(headerOf(request, 'paystate-signature')).toMatch(
        new RegExp(`^t=${Math.floor(h.clock.now() / 1000)},v1=[0-9a-f]{64}$`),
      );
      expect(
        verifyWebhookSignature({
          payload: request.body.toString('utf8'),
          header: headerOf(request, 'paystate-signature'),
          secrets: SECRET,
          now: h.clock.now(),
        }).isOk(),
      ).toBe(true);
      expect(Object.keys(event).sort()).toEqual(['created', 'data', 'id', 'partner_id', 'profile_id', 'type']);
      expect(event).toMatchObject({
        id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        partner_id: compliantClient.partnerId,
        profile_id: PROFILE,
      });
      expect(event.data.payment.id).toBe(payment.id);
    }
    // The last event carries the payment as the API shows it.
    expect(eventOf(h, requests[2] as ReceivedRequest).data.payment).toEqual(JSON.parse(JSON.stringify(stored)));
  });

  it('never sends card data: no card number, no CVC, BIN and last four at most', async () => {
    receiver = await startReceiver();
    const h = makeWebhookEngine({ url: `${receiver.origin}/hooks` });
    const body = directRequest(VISA, {
      creditcard: { number: VISA, cvc: '987', expiration: '2030-12-01T00:00:00.000Z', holder_name: 'Ada Lovelace' },
    });
    (await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body }))._unsafeUnwrap();
    await h.engine.deliverEvents();
    expect(receiver.requests).toHaveLength(2);
    for (const request of receiver.requests) {
      const text = request.body.toString('utf8');
      expect(text).not.toContain(VISA);
      expect(containsCardNumber(text)).toBe(false);
      expect(text).not.toMatch(/"(?:number|cvc)"/);
      expect(text).not.toContain('"987"');
      const card = eventOf(h, request).data.payment.creditcard?.card;
      expect(card).toMatchObject({ bin: '42424242', last4: '4242' });
    }
  });

  it('a receiver that answers 503 gets the event again, later, and then the rest in order', async () => {
    receiver = await startReceiver((_, n) => ({ status: n === 0 ? 503 : 200 }));
    const h = makeWebhookEngine({ url: `${receiver.origin}/hooks` });
    const payment = await createDirect(h, VISA);

    // 503 is retryable: the event is deferred, and as the sink seems down the batch ends there.
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    expect(receiver.requests).toHaveLength(1);
    expect(h.logs.some((line) => line.message === 'event sink refused an event; it will be offered again')).toBe(true);
    // Not due yet: nothing is sent.
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    expect(receiver.requests).toHaveLength(1);

    h.clock.advance(1_000);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(summary(h, receiver.requests)).toEqual([
      `payment.created ${payment.id}`,
      `payment.created ${payment.id}`,
      `payment.succeeded ${payment.id}`,
    ]);
    const [first, again] = receiver.requests.map((request) => headerOf(request, 'paystate-signature'));
    // The same event, signed anew at the time it was sent again.
    expect(headerOf(receiver.requests[0] as ReceivedRequest, 'paystate-event-id')).toBe(
      headerOf(receiver.requests[1] as ReceivedRequest, 'paystate-event-id'),
    );
    expect(first).not.toBe(again);
  });

  it("the engine's own retries of one delivery send the event again at once after a 503", async () => {
    receiver = await startReceiver((_, n) => ({ status: n === 0 ? 503 : 204 }));
    const h = makeWebhookEngine({ url: `${receiver.origin}/hooks` }, { retries: 1 });
    await createDirect(h, VISA);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(receiver.requests.map((request) => eventOf(h, request).type)).toEqual([
      'payment.created',
      'payment.created',
      'payment.succeeded',
    ]);
  });

  it("a 400 defers only that event: its payment's later events wait, other payments' go on", async () => {
    let refusedPayment = '';
    receiver = await startReceiver((request) => {
      const event = JSON.parse(request.body.toString('utf8')) as WebhookEvent;
      return { status: event.data.payment.id === refusedPayment ? 400 : 204 };
    });
    const h = makeWebhookEngine({ url: `${receiver.origin}/hooks` });
    const refused = await createDirect(h, VISA);
    refusedPayment = refused.id;
    const other = await createDirect(h, VISA);

    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(summary(h, receiver.requests)).toEqual([
      `payment.created ${refused.id}`,
      `payment.created ${other.id}`,
      `payment.succeeded ${other.id}`,
    ]);

    refusedPayment = '';
    h.clock.advance(1_000);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(summary(h, receiver.requests.slice(3))).toEqual([
      `payment.created ${refused.id}`,
      `payment.succeeded ${refused.id}`,
    ]);
  });

  it('does not follow a redirect: the event is refused, and the other location never sees a request', async () => {
    receiver = await startReceiver((request) =>
      request.path === '/hooks' ? { status: 307, headers: { location: '/elsewhere' } } : { status: 204 },
    );
    const h = makeWebhookEngine({ url: `${receiver.origin}/hooks` });
    await createDirect(h, VISA);
    const answer = await h.events.publish(makeEvent(makeSucceededRecord()));
    expect(answer._unsafeUnwrapErr()).toEqual({
      code: 'unavailable',
      message: `Webhook endpoint ${new URL(receiver.origin).host} answered 307: redirects are not followed`,
      retryable: false,
    });

    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    expect(receiver.requests.map((request) => request.path)).toEqual(['/hooks', '/hooks']);
  });

  it('a receiver that never answers is aborted through the signal once the engine stops waiting', async () => {
    receiver = await startReceiver(() => 'hang');
    const h = makeWebhookEngine({ url: `${receiver.origin}/hooks` }, { timeouts: { eventSinkMs: 200 } });
    await createDirect(h, VISA);
    const started = performance.now();
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);
    await receiver.waitForAbandoned(1);
    expect(receiver.requests).toHaveLength(1);
    expect(h.logs.some((line) => line.message === 'event sink refused an event; it will be offered again')).toBe(true);
  });

  it("the sink's own timeoutMs aborts a call before the engine's time-out, as a retryable failure", async () => {
    receiver = await startReceiver(() => 'hang');
    const h = makeWebhookEngine(
      { url: `${receiver.origin}/hooks`, timeoutMs: 100 },
      { timeouts: { eventSinkMs: 30_000 } },
    );
    const answer = await h.events.publish(makeEvent(makeSucceededRecord()));
    expect(answer._unsafeUnwrapErr()).toEqual({
      code: 'unavailable',
      message: `Webhook endpoint ${new URL(receiver.origin).host} did not answer within 100 ms`,
      retryable: true,
    });
    await receiver.waitForAbandoned(1);
  });

  it('a receiver that is not there is a retryable failure the call certainly never sent', async () => {
    receiver = await startReceiver();
    const origin = receiver.origin;
    await receiver.close();
    receiver = undefined;
    const h = makeWebhookEngine({ url: `${origin}/hooks` });
    const answer = await h.events.publish(makeEvent(makeSucceededRecord()));
    expect(answer._unsafeUnwrapErr()).toEqual({
      code: 'unavailable',
      message: `Webhook call to ${new URL(origin).host} failed: ECONNREFUSED`,
      retryable: true,
      notSent: true,
    });
  });
});
