// The engine's spans and metrics in the OpenTelemetry SDK (docs/observability.md). A host that
// already runs the SDK (`@opentelemetry/sdk-node`) only passes `createOpenTelemetry()`.
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createPaymentEngine } from 'paystate';
import { createMemoryCardVault, createMemoryPaymentRepository } from 'paystate/memory';
import { createCryptoIdGenerator, systemClock } from 'paystate/node';
import { createOpenTelemetry } from 'paystate/otel';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from 'paystate/sandbox';

// 1. The SDK, as a host registers it (here exporting to memory, to print what it got).
const spans = new InMemorySpanExporter();
const reader = new PeriodicExportingMetricReader({
  exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
});
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));

// 2. The engine, given the telemetry port (after the SDK: the meter is taken as it is now).
const engine = createPaymentEngine({
  repository: createMemoryPaymentRepository(),
  cardVault: createMemoryCardVault(systemClock),
  acquirer: createSandboxAcquirer(),
  threeDS: createSandboxThreeDSProvider({
    secret: 'acs-secret',
    challengeUrl: (id, tx) => `https://pay.example/3ds/${id}/${tx}`,
  }),
  clock: systemClock,
  ids: createCryptoIdGenerator(),
  telemetry: createOpenTelemetry(),
});

// 3. A direct-flow payment inside the host's own span (an HTTP request, say): the command's span is its child.
const shop = { id: 'client_shop', partnerId: 'partner_1', profileIds: ['profile_1'], pciDssCompliant: true };
const address = { thoroughfare: 'Damrak 1', locality: 'Amsterdam', postal_code: '1012 LG', country: 'NL' };
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', address };
const creditcard = {
  number: '4242424242424242',
  cvc: '123',
  expiration: '2030-12-01T00:00:00.000Z',
  holder_name: 'Ada Lovelace',
};
const user = {
  ip_address: '203.0.113.7',
  user_agent: 'Mozilla/5.0',
  accept: 'text/html',
  accept_encoding: 'gzip',
  accept_language: 'en-GB',
  language: 'en-GB',
  screen_width: 1920,
  screen_height: 1080,
  java_enabled: false,
  javascript_enabled: true,
  color_depth: 24,
  timezone_offset: -60,
};
const body = {
  method: 'creditcard',
  currency: 'EUR',
  amount: 1999,
  billing: ada,
  shipping: ada,
  creditcard,
  user,
  session: { redirect_url: 'https://shop.example/return' },
};

await trace.getTracer('shop').startActiveSpan('POST /checkout', async (span) => {
  (await engine.createPayment({ client: shop, profileId: 'profile_1', body })).match(
    (payment) => console.log('payment', payment.state),
    (error) => console.error(error.code, error.message),
  );
  span.end();
});

// 4. What the SDK got: the span tree, then the payments counter.
const finished = spans.getFinishedSpans();
const depth = (id: string | undefined): number => {
  const parent = finished.find((span) => span.spanContext().spanId === id);
  return parent === undefined ? 0 : 1 + depth(parent.parentSpanContext?.spanId);
};
for (const span of [...finished].sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1])) {
  console.log(
    `${'  '.repeat(depth(span.parentSpanContext?.spanId))}${span.name} ${String(span.attributes['paystate.outcome'] ?? '')}`.trimEnd(),
  );
}
const { resourceMetrics } = await reader.collect();
for (const metric of resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics)) {
  if (metric.descriptor.name !== 'paystate.payments') continue;
  for (const point of metric.dataPoints)
    console.log(metric.descriptor.name, JSON.stringify(point.attributes), point.value);
}
