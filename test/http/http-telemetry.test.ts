import { trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNodeListener } from '../../adapters/http/index.js';
import { createOpenTelemetry } from '../../adapters/otel/index.js';
import type { Telemetry } from '../../src/ports/telemetry.js';
import { closeAll, listenApp } from '../express/support/express-host.js';
import { makeOtelSdk, parentOf, useAsyncContext } from '../support/otel-sdk.js';
import { directRequest } from '../support/requests.js';
import { makeApi, TOKENS } from './support/api-harness.js';
import { get, post } from './support/client.js';

const MAIN = 'profile_alpha_main';
const CARD = '4242424242424242';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CALLER_SPAN}-01`;

let removeContext: () => void;
beforeAll(() => {
  removeContext = useAsyncContext();
});
afterAll(() => removeContext());

let sdk: ReturnType<typeof makeOtelSdk>;
afterEach(async () => {
  await closeAll();
  await sdk.shutdown();
  trace.disable();
});

async function serve() {
  sdk = makeOtelSdk();
  const telemetry = createOpenTelemetry({
    tracerProvider: sdk.tracerProvider,
    meterProvider: sdk.meterProvider,
    propagator: new W3CTraceContextPropagator(),
  });
  const api = makeApi({ telemetry });
  return { api, origin: await listenApp(createNodeListener(api.handlerOptions)) };
}

const serverSpans = (spans: ReadableSpan[]) => spans.filter((span) => span.name.startsWith('HTTP '));

describe('the HTTP request span', () => {
  it('joins the incoming traceparent, and the engine’s command and port spans nest under it', async () => {
    const { origin } = await serve();
    const answer = await post(`${origin}/v1/profiles/${MAIN}/payments`, TOKENS.alphaCompliant, directRequest(CARD), {
      traceparent: TRACEPARENT,
      'idempotency-key': 'k-trace',
    });
    expect(answer.status).toBe(201);
    const spans = sdk.finished();
    const [http] = serverSpans(spans);
    expect(http?.name).toBe('HTTP POST /v1/profiles/:profile_id/payments');
    expect(http?.kind).toBe(1); // SpanKind.SERVER
    expect(http?.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(http!)).toBe(CALLER_SPAN);
    expect(http?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/profiles/:profile_id/payments',
      'http.response.status_code': 201,
      'url.scheme': 'http',
      'paystate.request.id': answer.headers['request-id'],
    });
    const command = spans.find((span) => span.name === 'paystate createPayment');
    expect(command?.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(command!)).toBe(http!.spanContext().spanId);
    const ports = spans.filter((span) => parentOf(span) === command!.spanContext().spanId);
    expect(ports.length).toBeGreaterThan(0);
    for (const port of ports) expect(port.spanContext().traceId).toBe(TRACE_ID);
    const text = JSON.stringify(spans.map((span) => span.attributes));
    expect(text).not.toContain(CARD);
    expect(text).not.toContain(TOKENS.alphaCompliant);
  });

  it('starts a new trace without a traceparent, names a route by its pattern, marks a 4xx as no error', async () => {
    const { origin } = await serve();
    const answer = await get(`${origin}/v1/profiles/${MAIN}/payments/pay_missing_1`, TOKENS.alphaCompliant);
    expect(answer.status).toBe(404);
    const [http] = serverSpans(sdk.finished());
    expect(http?.name).toBe('HTTP GET /v1/profiles/:profile_id/payments/:payment_id');
    expect(http?.name).not.toContain('pay_missing_1');
    expect(parentOf(http!)).toBeUndefined();
    expect(http?.attributes['http.response.status_code']).toBe(404);
    expect(http?.status.code).not.toBe(2); // SpanStatusCode.ERROR
  });

  it('names a path no route matches by its method alone', async () => {
    const { origin } = await serve();
    const answer = await get(`${origin}/v1/nowhere/secret_123`, TOKENS.alphaCompliant);
    expect(answer.status).toBe(404);
    const [http] = serverSpans(sdk.finished());
    expect(http?.name).toBe('HTTP GET');
    expect(http?.attributes['http.route']).toBeUndefined();
  });

  it('starts no span while no SDK is registered, and joins the traceparent once one is', async () => {
    sdk = makeOtelSdk(); // not registered yet
    const otel = createOpenTelemetry({ propagator: new W3CTraceContextPropagator() });
    let started = 0;
    const telemetry: Telemetry = {
      ...otel,
      startServerSpan: (name, attributes, header) => {
        started += 1;
        return otel.startServerSpan!(name, attributes, header);
      },
    };
    const api = makeApi({ telemetry });
    const origin = await listenApp(createNodeListener(api.handlerOptions));
    const pay = (key: string) =>
      post(`${origin}/v1/profiles/${MAIN}/payments`, TOKENS.alphaCompliant, directRequest(CARD), {
        traceparent: TRACEPARENT,
        'idempotency-key': key,
      });
    expect((await pay('k-before')).status).toBe(201);
    expect(started).toBe(0);
    expect(trace.setGlobalTracerProvider(sdk.tracerProvider)).toBe(true);
    expect((await pay('k-after')).status).toBe(201);
    expect(started).toBe(1);
    const [http, ...more] = serverSpans(sdk.finished());
    expect(more).toEqual([]);
    expect(http?.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(http!)).toBe(CALLER_SPAN);
    const command = sdk.finished().find((span) => span.name === 'paystate createPayment');
    expect(parentOf(command!)).toBe(http!.spanContext().spanId);
  });
});
