import type { Telemetry, TelemetryAttributes, TelemetrySpan } from '../ports/telemetry.js';

/**
 * The span of each port call (docs/observability.md): what `run-port` reports of a call, its
 * retries included. Attributes are names, engine-made ids and codes only, never what the call
 * carries (card data, tokens).
 */

/** The attribute names the engine sets. */
export const ATTRIBUTES = Object.freeze({
  command: 'paystate.command',
  paymentId: 'paystate.payment.id',
  port: 'paystate.port',
  operation: 'paystate.operation',
  outcome: 'paystate.outcome',
  retries: 'paystate.retries',
  state: 'paystate.payment.state',
  failureReason: 'paystate.failure_reason',
  eventType: 'paystate.event.type',
  sweepKind: 'paystate.sweep.kind',
} as const);

/** A port call's telemetry, as `traced` gives it to `run-port`: the port, its parent span, the payment. */
export interface PortTelemetry {
  readonly telemetry: Telemetry;
  /** `port.operation`, e.g. `acquirer.authorize`. */
  readonly name: string;
  readonly parent: TelemetrySpan | undefined;
  /** The payment the call is about (an id the engine made or checked), if any. */
  readonly paymentId: string | undefined;
}

/** An error code as an attribute: a short snake_case code, else `port_error` (a port's code is the adapter's). */
const CODE = /^[a-z][a-z0-9_]{0,39}$/;
export const outcomeCode = (code: unknown): string =>
  typeof code === 'string' && CODE.test(code) ? code : 'port_error';

interface PortNames {
  readonly spanName: string;
  readonly portName: string;
  readonly operation: string;
}

/** The names of each `port.operation` the engine calls, made once (a few dozen in all). */
const names = new Map<string, PortNames>();

function namesOf(name: string): PortNames {
  let found = names.get(name);
  if (found === undefined) {
    const dot = name.indexOf('.');
    found = {
      spanName: `paystate ${name}`,
      portName: dot < 0 ? name : name.slice(0, dot),
      operation: dot < 0 ? name : name.slice(dot + 1),
    };
    names.set(name, found);
  }
  return found;
}

/**
 * A port call's span, started now: `wrap` counts each attempt and runs it within the span; `end`
 * ends it with the call's outcome and records its duration (`paystate.port.call.duration`).
 */
export function startPortSpan(port: PortTelemetry): {
  wrap<F extends (...args: never[]) => unknown>(call: F): F;
  end(outcome: string): void;
} {
  const { spanName, portName, operation } = namesOf(port.name);
  const span = port.telemetry.startSpan(
    spanName,
    { [ATTRIBUTES.port]: portName, [ATTRIBUTES.operation]: operation },
    port.parent,
  );
  let attempts = 0;
  return {
    wrap: <F extends (...args: never[]) => unknown>(call: F): F =>
      ((...args: Parameters<F>) => {
        attempts += 1;
        return span.within(() => call(...args));
      }) as F,
    end(outcome) {
      const attributes: TelemetryAttributes | undefined = span.recording
        ? {
            [ATTRIBUTES.retries]: Math.max(0, attempts - 1),
            ...(port.paymentId !== undefined && { [ATTRIBUTES.paymentId]: port.paymentId }),
          }
        : undefined;
      const seconds = span.end(outcome, attributes);
      port.telemetry.record('portCallDuration', seconds, {
        [ATTRIBUTES.port]: portName,
        [ATTRIBUTES.operation]: operation,
        [ATTRIBUTES.outcome]: outcome,
      });
    },
  };
}
