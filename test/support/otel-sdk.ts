import { context } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** The OpenTelemetry SDK as a host registers it, exporting to memory: spans as they end, metrics when collected. */
export function makeOtelSdk() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  /** Every data point of the metric `name` collected now, with its attributes. */
  const points = async (name: string): Promise<DataPoint<number | Histogram>[]> => {
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .filter((metric) => metric.descriptor.name === name)
      .flatMap((metric) => metric.dataPoints as DataPoint<number | Histogram>[]);
  };
  /** Every attribute of every span and data point collected so far. */
  const allAttributes = async (): Promise<Attributes[]> => {
    const { resourceMetrics } = await reader.collect();
    const metricAttributes = resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .flatMap((metric) => metric.dataPoints.map((point) => point.attributes));
    return [...spans.getFinishedSpans().map((span) => span.attributes), ...metricAttributes];
  };
  return {
    spans,
    tracerProvider,
    meterProvider,
    points,
    allAttributes,
    finished: (): ReadableSpan[] => spans.getFinishedSpans(),
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** Registers the async-hooks context manager (as a host's SDK does) and answers the function that removes it. */
export function useAsyncContext(): () => void {
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  return () => {
    manager.disable();
    context.disable();
  };
}

/** The parent span id of a span (sdk-trace-base 2.x: `parentSpanContext`). */
export const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;
