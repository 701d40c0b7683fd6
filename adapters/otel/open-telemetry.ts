import {
  context,
  INVALID_TRACEID,
  metrics,
  propagation,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  createNoopMeter,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Meter,
  type MeterProvider,
  type Span,
  type TextMapGetter,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import {
  TELEMETRY_METRICS,
  type Telemetry,
  type TelemetryAttributes,
  type TelemetryMetric,
  type TelemetrySpan,
  type TraceHeaderReader,
} from '../../src/ports/telemetry.js';

/** The name the tracer and the meter go by (the instrumentation scope). */
export const INSTRUMENTATION_SCOPE = 'paystate';

/** Options of `createOpenTelemetry`: where spans, metrics and trace context go; each defaults to the global one. */
export interface OpenTelemetryOptions {
  /** Where spans go. Default the global one (`trace.getTracerProvider()`), which may be registered later. */
  readonly tracerProvider?: TracerProvider;
  /**
   * Where metrics go. Default the global one (`metrics.getMeterProvider()`) as it is now: register
   * the SDK's `MeterProvider` before calling `createOpenTelemetry`, or pass it here.
   */
  readonly meterProvider?: MeterProvider;
  /** Reads an HTTP request's trace context (`traceparent`); default the global `propagation` the SDK registers. */
  readonly propagator?: TextMapPropagator;
}

/** Headers read through the HTTP layer's reader: the propagator asks by name only. */
const headerGetter: TextMapGetter<TraceHeaderReader> = {
  get: (header, key) => header(key.toLowerCase()),
  keys: () => [],
};

/** Bucket boundaries, in seconds: port calls from 5 ms to 30 s; the outbox from 100 ms to a day. */
const PORT_CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const OUTBOX_LAG_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 21_600, 86_400];

type Recorder = (value: number, attributes: Attributes) => void;

function recorders(meter: Meter): Readonly<Record<TelemetryMetric, Recorder>> {
  const options = (metric: TelemetryMetric, buckets?: number[]) => ({
    unit: TELEMETRY_METRICS[metric].unit,
    description: TELEMETRY_METRICS[metric].description,
    ...(buckets !== undefined && { advice: { explicitBucketBoundaries: buckets } }),
  });
  const payments = meter.createCounter(TELEMETRY_METRICS.payments.name, options('payments'));
  const portCalls = meter.createHistogram(
    TELEMETRY_METRICS.portCallDuration.name,
    options('portCallDuration', PORT_CALL_BUCKETS),
  );
  const outboxLag = meter.createHistogram(TELEMETRY_METRICS.outboxLag.name, options('outboxLag', OUTBOX_LAG_BUCKETS));
  const backlog = meter.createGauge(TELEMETRY_METRICS.sweeperBacklog.name, options('sweeperBacklog'));
  return {
    payments: (value, attributes) => payments.add(value, attributes),
    portCallDuration: (value, attributes) => portCalls.record(value, attributes),
    outboxLag: (value, attributes) => outboxLag.record(value, attributes),
    sweeperBacklog: (value, attributes) => backlog.record(value, attributes),
  };
}

/** The API's no-op tracer provider: what its proxy (the global provider) delegates to until an SDK registers. */
const NOOP_TRACER_PROVIDER: TracerProvider = new ProxyTracerProvider().getDelegate();

/**
 * Whether `provider` is the API's proxy with no SDK behind it (yet): its spans are no-ops. Asked
 * at each command, so an SDK registered later is seen. Any other provider may record.
 */
function tracesNothing(provider: TracerProvider): boolean {
  const proxy = provider as Partial<ProxyTracerProvider>;
  return typeof proxy.getDelegate === 'function' && proxy.getDelegate() === NOOP_TRACER_PROVIDER;
}

/** A span of `@opentelemetry/api`, timed by `performance.now()` for the duration the engine records. */
class OpenTelemetrySpan implements TelemetrySpan {
  readonly recording: boolean;
  readonly #span: Span;
  readonly #parent: Context;
  #context: Context | undefined;
  readonly #started = performance.now();

  /** A span of no trace at all (the API's no-op, no SDK): `within` and its children keep the caller's context. */
  readonly #inert: boolean;

  constructor(span: Span, parent: Context) {
    this.#span = span;
    this.#parent = parent;
    this.recording = span.isRecording();
    this.#inert = !this.recording && span.spanContext().traceId === INVALID_TRACEID;
  }

  /** The context whose active span this is: the parent of the spans started within it (made when first asked). */
  get context(): Context {
    if (this.#inert) return context.active();
    this.#context ??= trace.setSpan(this.#parent, this.#span);
    return this.#context;
  }

  within<T>(fn: () => T): T {
    return this.#inert ? fn() : context.with(this.context, fn);
  }

  end(outcome: string, attributes?: TelemetryAttributes): number {
    const seconds = (performance.now() - this.#started) / 1000;
    const span = this.#span;
    if (this.recording) {
      // One attribute at a time: the SDK copies each anyway, and a spread of them would be garbage.
      if (attributes !== undefined) span.setAttributes(attributes);
      span.setAttribute('paystate.outcome', outcome);
      span.setAttribute('paystate.duration_ms', seconds * 1000);
      if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
    }
    span.end();
    return seconds;
  }
}

/**
 * The engine's `Telemetry` on `@opentelemetry/api` (docs/observability.md): spans of the tracer
 * and metrics of the meter named `paystate`. With no SDK registered the API records nothing, at
 * the cost of its no-op calls.
 */
export function createOpenTelemetry(options: OpenTelemetryOptions = {}): Telemetry {
  const tracerProvider = options.tracerProvider ?? trace.getTracerProvider();
  const tracer: Tracer = tracerProvider.getTracer(INSTRUMENTATION_SCOPE);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_SCOPE);
  const record = recorders(meter);
  const metered = meter !== createNoopMeter();
  return {
    enabled: true,
    isRecording: metered ? () => true : () => !tracesNothing(tracerProvider),
    startSpan(name, attributes, parent) {
      const from = parent instanceof OpenTelemetrySpan ? parent.context : context.active();
      return new OpenTelemetrySpan(tracer.startSpan(name, { attributes }, from), from);
    },
    startServerSpan(name, attributes, header) {
      const from = (options.propagator ?? propagation).extract(ROOT_CONTEXT, header, headerGetter);
      return new OpenTelemetrySpan(tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, from), from);
    },
    record(metric, value, attributes) {
      record[metric](value, attributes);
    },
  };
}
