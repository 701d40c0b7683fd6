import { deepFreeze } from '../domain/immutable.js';

/**
 * Where the engine reports traces and metrics (docs/observability.md). `createOpenTelemetry` of
 * `paystate/otel` builds one on `@opentelemetry/api`; without one the engine reports nothing
 * (`noTelemetry`) and builds no attribute. What a port throws is swallowed (`guardTelemetry`).
 */

/** Span and metric attributes: never card data, tokens or authentication values. */
export type TelemetryAttributes = Readonly<Record<string, string | number | boolean>>;

/** A span the engine started; it ends it once. */
export interface TelemetrySpan {
  /** Whether anything is recorded: when false the engine builds no attribute for `end`. */
  readonly recording: boolean;
  /** Runs `fn` with this span as the active one, so that spans an adapter starts inside nest under it. */
  within<T>(fn: () => T): T;
  /**
   * Ends the span with its outcome (`ok`, or an error code: the span's status is then an error)
   * and `attributes`; returns how long it lasted in seconds, as the port measured it.
   */
  end(outcome: string, attributes?: TelemetryAttributes): number;
}

/** The metrics the engine records: their names, units and meaning are the port's (docs/observability.md). */
export const TELEMETRY_METRICS = deepFreeze({
  payments: {
    name: 'paystate.payments',
    kind: 'counter',
    unit: '{payment}',
    description: 'Payments that reached a final state, by state and failure reason.',
  },
  portCallDuration: {
    name: 'paystate.port.call.duration',
    kind: 'histogram',
    unit: 's',
    description: 'How long a port call took, its retries included, by port, operation and outcome.',
  },
  outboxLag: {
    name: 'paystate.outbox.lag',
    kind: 'histogram',
    unit: 's',
    description: 'Time from an event to its delivery to the event sink.',
  },
  sweeperBacklog: {
    name: 'paystate.sweeper.backlog',
    kind: 'gauge',
    unit: '{payment}',
    description: 'Due payments the sweeper found at the start of a tick, by kind (expiry, inquiry).',
  },
} as const);

/** One of `TELEMETRY_METRICS`, by its key. */
export type TelemetryMetric = keyof typeof TELEMETRY_METRICS;

/** Reads a request header by its lower-case name: `undefined` when absent. */
export type TraceHeaderReader = (name: string) => string | undefined;

export interface Telemetry {
  /** False only for `noTelemetry`: the engine then skips telemetry altogether. */
  readonly enabled: boolean;
  /**
   * Whether a span or a metric would be recorded now. Asked as each command, background tick or
   * port call outside them starts: when false the engine starts no span and records no metric for
   * it (an SDK registered later is seen at the next one). Optional: without it, always true.
   */
  isRecording?(): boolean;
  /**
   * Starts a span named `name`: a child of `parent`, or without one of the caller's active
   * context (a host's HTTP request span, say).
   */
  startSpan(name: string, attributes: TelemetryAttributes, parent?: TelemetrySpan): TelemetrySpan;
  /**
   * Starts a host's server span (an HTTP request) whose parent is the trace context the request
   * carries (`header` reads its headers: `traceparent`, `tracestate`). Optional: without it, none.
   */
  startServerSpan?(name: string, attributes: TelemetryAttributes, header: TraceHeaderReader): TelemetrySpan;
  /** Adds `value` to a counter, records it in a histogram or sets a gauge (`TELEMETRY_METRICS`). */
  record(metric: TelemetryMetric, value: number, attributes: TelemetryAttributes): void;
}

const noSpan: TelemetrySpan = Object.freeze({
  recording: false,
  within: <T>(fn: () => T): T => fn(),
  end: () => 0,
});

/** Reports nothing: the default. */
export const noTelemetry: Telemetry = Object.freeze({
  enabled: false,
  isRecording: () => false,
  startSpan: () => noSpan,
  record: () => undefined,
});

/**
 * `telemetry` with its throws swallowed (a span that fails to start is none; a failed `end` or
 * `record` is lost; `isRecording` that throws is false), so that a host's faulty port never fails
 * a command. `enabled` is read once; the guard always has `isRecording`.
 */
export function guardTelemetry(telemetry: Telemetry): Telemetry {
  let enabled: boolean;
  try {
    enabled = telemetry.enabled === true;
  } catch {
    enabled = false;
  }
  if (!enabled) return noTelemetry;
  const isRecording = telemetry.isRecording;
  return {
    enabled,
    isRecording:
      typeof isRecording === 'function'
        ? () => {
            try {
              return isRecording.call(telemetry) === true;
            } catch {
              return false;
            }
          }
        : () => true,
    startSpan(name, attributes, parent) {
      try {
        // The port's own span as the parent, not the guard around it.
        const own = parent instanceof GuardedSpan ? parent.span : parent;
        const span = telemetry.startSpan(name, attributes, own);
        return typeof span === 'object' && span !== null ? new GuardedSpan(span) : noSpan;
      } catch {
        return noSpan;
      }
    },
    ...(telemetry.startServerSpan !== undefined && {
      startServerSpan(name: string, attributes: TelemetryAttributes, header: TraceHeaderReader): TelemetrySpan {
        try {
          const span = telemetry.startServerSpan?.(name, attributes, header);
          return typeof span === 'object' && span !== null ? new GuardedSpan(span) : noSpan;
        } catch {
          return noSpan;
        }
      },
    }),
    record(metric, value, attributes) {
      try {
        telemetry.record(metric, value, attributes);
      } catch {
        // Lost: there is nowhere to say so that would not fail too.
      }
    },
  };
}

/** A port's span with its throws swallowed (`guardTelemetry`). */
class GuardedSpan implements TelemetrySpan {
  readonly span: TelemetrySpan;
  readonly recording: boolean;

  constructor(span: TelemetrySpan) {
    this.span = span;
    let recording: boolean;
    try {
      recording = span.recording === true;
    } catch {
      recording = false;
    }
    this.recording = recording;
  }

  within<T>(fn: () => T): T {
    let ran = false;
    try {
      return this.span.within(() => {
        ran = true;
        return fn();
      });
    } catch (error) {
      // `fn`'s own throw goes on; the span's, before it ran `fn`, is swallowed and `fn` runs alone.
      if (ran) throw error;
      return fn();
    }
  }

  end(outcome: string, attributes?: TelemetryAttributes): number {
    try {
      const seconds = this.span.end(outcome, attributes);
      return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds : 0;
    } catch {
      return 0;
    }
  }
}
