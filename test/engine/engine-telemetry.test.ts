import { trace, type Attributes } from '@opentelemetry/api';
import type { Histogram } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOpenTelemetry } from '../../adapters/otel/index.js';
import type { Telemetry, TelemetrySpan } from '../../src/ports/telemetry.js';
import { compliantClient, hostedTokenOf, makeEngineHarness } from '../support/engine-harness.js';
import { makeOtelSdk, parentOf, useAsyncContext } from '../support/otel-sdk.js';
import { cardSubmission, directRequest, hostedRequest } from '../support/requests.js';

const APPROVED = '4242424242424242';
const INSUFFICIENT_FUNDS = '4000000000009995';
const CHALLENGE = '4000000000003220';
const CVC = '987';

let removeContext: () => void;
beforeAll(() => {
  removeContext = useAsyncContext();
});
afterAll(() => removeContext());

let sdk: ReturnType<typeof makeOtelSdk>;
afterEach(async () => {
  await sdk.shutdown();
  trace.disable();
});

function harness(adapters: Parameters<typeof makeEngineHarness>[2] = {}, options = {}) {
  sdk = makeOtelSdk();
  const telemetry = createOpenTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
  return makeEngineHarness(options, 0, { telemetry, ...adapters });
}

const named = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);

describe('OpenTelemetry spans', () => {
  it('gives each command a span, the child of the caller’s span, and each port call a span under it', async () => {
    const h = harness();
    const host = sdk.tracerProvider.getTracer('host');
    const payment = await host.startActiveSpan('POST /v1/payments', async (span) => {
      const created = await h.engine.createPayment({
        client: compliantClient,
        profileId: 'profile_0001',
        body: directRequest(APPROVED),
      });
      span.end();
      return created._unsafeUnwrap();
    });
    const spans = sdk.finished();
    const [request] = named(spans, 'POST /v1/payments');
    const [command] = named(spans, 'paystate createPayment');
    expect(request).toBeDefined();
    expect(command).toBeDefined();
    expect(parentOf(command!)).toBe(request!.spanContext().spanId);
    expect(command!.spanContext().traceId).toBe(request!.spanContext().traceId);
    expect(command!.attributes).toMatchObject({
      'paystate.command': 'createPayment',
      'paystate.operation': 'createPayment',
      'paystate.payment.id': payment.id,
      'paystate.outcome': 'ok',
    });
    expect(command!.attributes['paystate.duration_ms']).toBeTypeOf('number');
    const ports = spans.filter((span) => span.name.startsWith('paystate ') && span !== command);
    // The direct flow: 3DS (not required), the intent, the authorization, the outcome (docs/architecture.md).
    expect(ports.map((span) => span.name)).toEqual([
      'paystate threeDS.authenticate',
      'paystate repository.insert',
      'paystate acquirer.authorize',
      'paystate repository.update',
    ]);
    for (const span of ports) {
      expect(parentOf(span)).toBe(command!.spanContext().spanId);
      expect(span.attributes['paystate.payment.id']).toBe(payment.id);
      expect(span.attributes['paystate.outcome']).toBe('ok');
      expect(span.attributes['paystate.retries']).toBe(0);
    }
    expect(ports[2]!.attributes).toMatchObject({ 'paystate.port': 'acquirer', 'paystate.operation': 'authorize' });
  });

  it('ends a failed command’s span as an error with its code, and counts a port call’s retries', async () => {
    let failures = 1;
    const h = harness(
      {
        repository: {
          failOn: (method) =>
            method === 'load' && failures-- > 0
              ? { code: 'unavailable', message: 'down for a moment', retryable: true }
              : null,
        },
      },
      { retries: 2 },
    );
    const created = (
      await h.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: hostedRequest() })
    )._unsafeUnwrap();
    await h.engine.getPayment({ profileId: 'profile_0001', paymentId: created.id });
    const missing = await h.engine.getPayment({ profileId: 'profile_0001', paymentId: `payment_${'f'.repeat(32)}` });
    expect(missing._unsafeUnwrapErr().code).toBe('not_found');

    const spans = sdk.finished();
    const loads = named(spans, 'paystate repository.load');
    expect(loads[0]!.attributes).toMatchObject({ 'paystate.retries': 1, 'paystate.outcome': 'ok' });
    const [, failed] = named(spans, 'paystate getPayment');
    expect(failed!.attributes['paystate.outcome']).toBe('not_found');
    expect(failed!.status).toMatchObject({ code: 2, message: 'not_found' });
  });

  it('puts no card number, CVC, page token or 3DS value in any span or metric attribute', async () => {
    const h = harness();
    await h.engine.createPayment({
      client: compliantClient,
      profileId: 'profile_0001',
      body: directRequest(APPROVED, { creditcard: { ...directRequest(APPROVED)['creditcard']!, cvc: CVC } }),
    });
    const hosted = (
      await h.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: hostedRequest() })
    )._unsafeUnwrap();
    const token = hostedTokenOf(hosted);
    const challenged = (
      await h.engine.submitCard({ paymentId: hosted.id, token, body: cardSubmission(CHALLENGE) })
    )._unsafeUnwrap();
    expect(challenged.state).toBe('processing');
    const answer = await h.challengeAnswer(hosted.id, 'authorise');
    expect((await h.engine.completeChallenge(answer))._unsafeUnwrap().state).toBe('succeeded');
    // A card number sent where an id goes: never an attribute.
    await h.engine.getPayment({ profileId: 'profile_0001', paymentId: APPROVED });
    await h.engine.deliverEvents();

    const attributes: Attributes[] = await sdk.allAttributes();
    expect(attributes.length).toBeGreaterThan(20);
    const secrets = [APPROVED, CHALLENGE, token, answer.cres, answer.transactionId];
    const KNOWN = /^(?:payment_[0-9a-f]{32}|[a-z][A-Za-z_.]*)$/;
    for (const set of attributes) {
      for (const [key, value] of Object.entries(set)) {
        expect(key).toMatch(/^paystate\.[a-z_.]+$/);
        if (typeof value === 'number' || typeof value === 'boolean') continue;
        expect(typeof value, key).toBe('string');
        expect(value as string, key).toMatch(KNOWN);
        expect(value, key).not.toBe(CVC);
        for (const secret of secrets) expect(value as string, key).not.toContain(secret);
      }
    }
  });
});

describe('OpenTelemetry spans of the background worker', () => {
  it('makes each tick a span, the parent of its port calls', async () => {
    const h = harness();
    await h.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: directRequest(APPROVED) });
    const worker = h.engine.startBackgroundWorker({ intervalMs: 10 });
    try {
      await vi.waitFor(() => expect(h.events.events().length).toBe(2), { timeout: 2_000, interval: 5 });
    } finally {
      await worker.stop();
    }
    const spans = sdk.finished();
    const [sweep] = named(spans, 'paystate sweep tick');
    const delivery = named(spans, 'paystate delivery tick').find((tick) =>
      spans.some((span) => span.name === 'paystate events.publish' && parentOf(span) === tick.spanContext().spanId),
    );
    expect(sweep?.attributes['paystate.outcome']).toBe('ok');
    expect(delivery?.attributes['paystate.outcome']).toBe('ok');
    const children = (tick: ReadableSpan) =>
      spans.filter((span) => parentOf(span) === tick.spanContext().spanId).map((span) => span.name);
    expect(children(sweep!)).toEqual(['paystate repository.findDue', 'paystate cardVault.purgeExpired']);
    expect(children(delivery!)).toEqual([
      'paystate repository.readOutbox',
      'paystate events.publish',
      'paystate events.publish',
      'paystate repository.markDelivered',
    ]);
  });
});

describe('OpenTelemetry metrics', () => {
  it('counts payments by final state and failure reason, and times port calls by port and operation', async () => {
    const h = harness();
    for (const number of [APPROVED, APPROVED, INSUFFICIENT_FUNDS]) {
      await h.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: directRequest(number) });
    }
    const payments = await sdk.points('paystate.payments');
    const counted = payments.map((point) => [point.attributes, point.value]);
    expect(counted).toEqual(
      expect.arrayContaining([
        [{ 'paystate.payment.state': 'succeeded' }, 2],
        [{ 'paystate.payment.state': 'failed', 'paystate.failure_reason': 'insufficient_funds' }, 1],
      ]),
    );
    expect(counted).toHaveLength(2);
    const calls = await sdk.points('paystate.port.call.duration');
    const authorize = calls.find((point) => point.attributes['paystate.operation'] === 'authorize');
    expect(authorize?.attributes).toEqual({
      'paystate.port': 'acquirer',
      'paystate.operation': 'authorize',
      'paystate.outcome': 'ok',
    });
    expect((authorize?.value as Histogram).count).toBe(3);
  });

  it('measures the outbox lag from the event to its delivery, by the clock', async () => {
    const h = harness();
    await h.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: directRequest(APPROVED) });
    h.clock.advance(4_000);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBeGreaterThan(0);
    const lag = await sdk.points('paystate.outbox.lag');
    expect(lag.length).toBeGreaterThan(0);
    for (const point of lag) {
      const histogram = point.value as Histogram;
      expect(histogram.min).toBe(4);
      expect(histogram.max).toBe(4);
      expect(point.attributes['paystate.event.type']).toMatch(/^payment\./);
    }
  });

  it('sets the sweeper backlog to the due payments a tick finds', async () => {
    const h = harness();
    for (let i = 0; i < 3; i++) {
      await h.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: hostedRequest() });
    }
    h.clock.advance(2 * 60 * 60 * 1000);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(3);
    const backlog = await sdk.points('paystate.sweeper.backlog');
    expect(backlog.map((point) => [point.attributes['paystate.sweep.kind'], point.value])).toEqual(
      expect.arrayContaining([
        ['expiry', 3],
        ['inquiry', 0],
      ]),
    );
    const expired = await sdk.points('paystate.payments');
    expect(expired.map((point) => [point.attributes['paystate.payment.state'], point.value])).toEqual([['expired', 3]]);
  });
});

describe('a telemetry port that throws', () => {
  const boom = (): never => {
    throw new Error('telemetry down');
  };
  const throwingSpan: TelemetrySpan = { recording: true, within: boom, end: boom };
  it.each([
    ['startSpan throws', { enabled: true, startSpan: boom, record: boom }],
    ['its spans throw', { enabled: true, startSpan: () => throwingSpan, record: boom }],
    ['isRecording throws', { enabled: true, isRecording: boom, startSpan: boom, record: boom }],
  ] as [string, Telemetry][])('fails no command when %s', async (_, telemetry) => {
    sdk = makeOtelSdk();
    const h = makeEngineHarness({}, 0, { telemetry });
    const payment = await h.engine.createPayment({
      client: compliantClient,
      profileId: 'profile_0001',
      body: directRequest(APPROVED),
    });
    expect(payment._unsafeUnwrap().state).toBe('succeeded');
    expect(
      (await h.engine.getPayment({ profileId: 'profile_0001', paymentId: payment._unsafeUnwrap().id })).isOk(),
    ).toBe(true);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect((await h.engine.sweep()).isOk()).toBe(true);
  });
});
