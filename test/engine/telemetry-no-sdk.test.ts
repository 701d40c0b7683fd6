import { trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenTelemetry } from '../../adapters/otel/index.js';
import type { Telemetry, TelemetrySpan } from '../../src/ports/telemetry.js';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { makeOtelSdk, parentOf, useAsyncContext } from '../support/otel-sdk.js';
import { directRequest } from '../support/requests.js';

const APPROVED = '4242424242424242';

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

/** `telemetry` with every span it starts kept in `started`; without its `isRecording` when `probe` is false. */
function watch(telemetry: Telemetry, probe = true) {
  const started: TelemetrySpan[] = [];
  const watched: Telemetry = {
    enabled: telemetry.enabled,
    ...(probe && { isRecording: () => telemetry.isRecording?.() !== false }),
    startSpan: (name, attributes, parent) => {
      const span = telemetry.startSpan(name, attributes, parent);
      started.push(span);
      return span;
    },
    record: (metric, value, attributes) => telemetry.record(metric, value, attributes),
  };
  return { watched, started };
}

async function directPayment(h: ReturnType<typeof makeEngineHarness>) {
  const payment = await h.engine.createPayment({
    client: compliantClient,
    profileId: 'profile_0001',
    body: directRequest(APPROVED),
  });
  return payment._unsafeUnwrap();
}

describe('without an SDK', () => {
  it('records nothing: every span the API gives is a no-op, and the engine works as without telemetry', async () => {
    sdk = makeOtelSdk(); // registered nowhere: what a host without an SDK has
    const api = createOpenTelemetry();
    // Without `isRecording` the engine starts its spans, and the API's are no-ops.
    const { watched, started } = watch(api, false);
    const h = makeEngineHarness({}, 0, { telemetry: watched });
    expect((await directPayment(h)).state).toBe('succeeded');
    // The command and its four port calls (see test/engine/engine-telemetry.test.ts).
    expect(started.length).toBe(5);
    expect(started.every((span) => !span.recording)).toBe(true);
    expect(sdk.finished()).toEqual([]);
    expect(await sdk.points('paystate.payments')).toEqual([]);
  });

  it('says it records nothing, so the engine starts no span at all', async () => {
    sdk = makeOtelSdk();
    const api = createOpenTelemetry();
    expect(api.isRecording?.()).toBe(false);
    const { watched, started } = watch(api);
    const h = makeEngineHarness({}, 0, { telemetry: watched });
    expect((await directPayment(h)).state).toBe('succeeded');
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect((await h.engine.sweep()).isOk()).toBe(true);
    expect(started).toEqual([]);
  });

  it('picks up an SDK registered after createOpenTelemetry, at the next command', async () => {
    sdk = makeOtelSdk();
    const { watched, started } = watch(createOpenTelemetry());
    const h = makeEngineHarness({}, 0, { telemetry: watched });
    await directPayment(h);
    expect(started).toEqual([]);

    expect(trace.setGlobalTracerProvider(sdk.tracerProvider)).toBe(true);
    expect(watched.isRecording?.()).toBe(true);
    const payment = await directPayment(h);
    const spans = sdk.finished();
    expect(spans.map((span) => span.name)).toEqual([
      'paystate threeDS.authenticate',
      'paystate repository.insert',
      'paystate acquirer.authorize',
      'paystate repository.update',
      'paystate createPayment',
    ]);
    const command = spans.at(-1)!;
    expect(command.attributes).toMatchObject({ 'paystate.payment.id': payment.id, 'paystate.outcome': 'ok' });
    for (const span of spans.slice(0, -1)) {
      expect(parentOf(span)).toBe(command.spanContext().spanId);
      expect(span.attributes['paystate.retries']).toBe(0);
    }
  });

  it('records metrics when only a meter provider is given, with no tracer SDK', async () => {
    sdk = makeOtelSdk();
    const telemetry = createOpenTelemetry({ meterProvider: sdk.meterProvider });
    expect(telemetry.isRecording?.()).toBe(true);
    const h = makeEngineHarness({}, 0, { telemetry });
    await directPayment(h);
    expect(sdk.finished()).toEqual([]);
    const payments = await sdk.points('paystate.payments');
    expect(payments.map((point) => [point.attributes['paystate.payment.state'], point.value])).toEqual([
      ['succeeded', 1],
    ]);
    const calls = await sdk.points('paystate.port.call.duration');
    expect(calls.map((point) => point.attributes['paystate.operation']).sort()).toEqual([
      'authenticate',
      'authorize',
      'insert',
      'update',
    ]);
  });
});
