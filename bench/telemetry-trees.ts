/**
 * A direct lifecycle's telemetry without the engine, with the SDK: through `paystate/otel` and
 * straight on the SDK's tracer and meter, so that the telemetry bench's SDK figures read fairly
 * (what the SDK costs whoever calls it).
 */
import { context, trace } from '@opentelemetry/api';
import { createOpenTelemetry } from '../adapters/otel/index.js';
import type { Telemetry } from '../src/index.js';
import { makeOtelSdk, useAsyncContext } from '../test/support/otel-sdk.js';
import { collectGarbage, percentile, rate } from './measure.js';

/** The port calls of a direct lifecycle, each a span in the command's (docs/observability.md). */
const LIFECYCLE_PORTS = [
  ['threeDS', 'authenticate'],
  ['repository', 'insert'],
  ['acquirer', 'authorize'],
  ['repository', 'update'],
] as const;

/**
 * A direct lifecycle's telemetry as the engine asks it of the port, without the engine: the
 * command's span, its four port calls' spans run within it, their durations and the payment's
 * count. `call` is what each port span runs.
 */
export function spanTree(telemetry: Telemetry): (call: number) => void {
  const ports = LIFECYCLE_PORTS.map(([port, operation]) => ({
    name: `paystate ${port}.${operation}`,
    attributes: { 'paystate.port': port, 'paystate.operation': operation },
    recorded: { 'paystate.port': port, 'paystate.operation': operation, 'paystate.outcome': 'ok' },
  }));
  return (call) => {
    const command = telemetry.startSpan('paystate createPayment', {
      'paystate.command': 'createPayment',
      'paystate.operation': 'createPayment',
    });
    command.within(() => {
      for (const port of ports) {
        const span = telemetry.startSpan(port.name, port.attributes, command);
        span.within(() => call);
        telemetry.record('portCallDuration', span.end('ok', { 'paystate.retries': 0 }), port.recorded);
      }
    });
    command.end('ok');
    telemetry.record('payments', 1, { 'paystate.payment.state': 'succeeded' });
  };
}

/**
 * `spanTree` straight on the SDK's tracer and meter, with the same names, attributes, nesting and
 * active contexts: what the SDK itself costs for a lifecycle's telemetry, whoever calls it.
 */
export function bareSdkSpanTree(sdk: Pick<ReturnType<typeof makeOtelSdk>, 'tracerProvider' | 'meterProvider'>) {
  const tracer = sdk.tracerProvider.getTracer('bare');
  const meter = sdk.meterProvider.getMeter('bare');
  const durations = meter.createHistogram('bare.port.call.duration', { unit: 's' });
  const payments = meter.createCounter('bare.payments');
  const ports = LIFECYCLE_PORTS.map(([port, operation]) => ({
    name: `paystate ${port}.${operation}`,
    attributes: { 'paystate.port': port, 'paystate.operation': operation },
    recorded: { 'paystate.port': port, 'paystate.operation': operation, 'paystate.outcome': 'ok' },
  }));
  return (call: number): void => {
    const command = tracer.startSpan('paystate createPayment', {
      attributes: { 'paystate.command': 'createPayment', 'paystate.operation': 'createPayment' },
    });
    const within = trace.setSpan(context.active(), command);
    context.with(within, () => {
      for (const port of ports) {
        const span = tracer.startSpan(port.name, { attributes: port.attributes }, within);
        context.with(trace.setSpan(within, span), () => call);
        span.setAttributes({ 'paystate.retries': 0, 'paystate.outcome': 'ok' });
        span.end();
        durations.record(0.001, port.recorded);
      }
    });
    command.setAttribute('paystate.outcome', 'ok');
    command.end();
    payments.add(1, { 'paystate.payment.state': 'succeeded' });
  };
}

/** With the SDK: `spanTree` through `paystate/otel` and `bareSdkSpanTree`, in trees per second (median of 3 each). */
export async function sdkTrees(seconds: number): Promise<{ adapter: number; bare: number }> {
  const removeContext = useAsyncContext();
  const sdk = makeOtelSdk();
  try {
    const adapter = spanTree(
      createOpenTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }),
    );
    const bare = bareSdkSpanTree(sdk);
    const figures = { adapter: [] as number[], bare: [] as number[] };
    for (let round = 0; round < 3; round++) {
      for (const [name, tree] of [
        ['adapter', adapter],
        ['bare', bare],
      ] as const) {
        sdk.spans.reset();
        collectGarbage();
        // Awaited one by one, as a lifecycle is: the span processor's export runs in the promises
        // it makes, which a synchronous loop would leave until after the clock stopped.
        let call = 0;
        figures[name].push(await rate(async () => tree(call++), seconds));
      }
    }
    return { adapter: percentile(figures.adapter, 50), bare: percentile(figures.bare, 50) };
  } finally {
    await sdk.shutdown();
    removeContext();
  }
}
