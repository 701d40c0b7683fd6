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
  /** The span's attributes at its start: the same object for every call (the port copies it). */
  readonly started: TelemetryAttributes;
  /** The duration metric's attributes by outcome, made once each (up to `MAX_OUTCOMES`). */
  readonly recorded: Map<string, TelemetryAttributes>;
}

/** The outcomes whose metric attributes are kept per `port.operation`; a port with more gets fresh ones. */
const MAX_OUTCOMES = 32;

/** The names of each `port.operation` the engine calls, made once (a few dozen in all). */
const names = new Map<string, PortNames>();

function namesOf(name: string): PortNames {
  let found = names.get(name);
  if (found === undefined) {
    const dot = name.indexOf('.');
    const portName = dot < 0 ? name : name.slice(0, dot);
    const operation = dot < 0 ? name : name.slice(dot + 1);
    found = {
      spanName: `paystate ${name}`,
      portName,
      operation,
      started: Object.freeze({ [ATTRIBUTES.port]: portName, [ATTRIBUTES.operation]: operation }),
      recorded: new Map(),
    };
    names.set(name, found);
  }
  return found;
}

/** The duration metric's attributes of a call of `names` that ended with `outcome`. */
function recordedAttributes(names: PortNames, outcome: string): TelemetryAttributes {
  let attributes = names.recorded.get(outcome);
  if (attributes === undefined) {
    attributes = Object.freeze({
      [ATTRIBUTES.port]: names.portName,
      [ATTRIBUTES.operation]: names.operation,
      [ATTRIBUTES.outcome]: outcome,
    });
    if (names.recorded.size < MAX_OUTCOMES) names.recorded.set(outcome, attributes);
  }
  return attributes;
}

/**
 * A port call's span, started when made: `wrap` counts each attempt and runs it within the span;
 * `end` ends it with the call's outcome and records its duration (`paystate.port.call.duration`).
 */
export class PortSpan {
  readonly #port: PortTelemetry;
  readonly #names: PortNames;
  readonly #span: TelemetrySpan;
  #attempts = 0;

  constructor(port: PortTelemetry) {
    this.#port = port;
    this.#names = namesOf(port.name);
    this.#span = port.telemetry.startSpan(this.#names.spanName, this.#names.started, port.parent);
  }

  /** `call`, counting its attempts and running each within the span. */
  wrap<A extends unknown[], R>(call: (...args: A) => R): (...args: A) => R {
    return (...args) => {
      this.#attempts += 1;
      return this.#span.within(() => call(...args));
    };
  }

  end(outcome: string): void {
    const span = this.#span;
    const { paymentId } = this.#port;
    const retries = this.#attempts > 1 ? this.#attempts - 1 : 0;
    const seconds = span.recording
      ? span.end(
          outcome,
          paymentId !== undefined
            ? { [ATTRIBUTES.retries]: retries, [ATTRIBUTES.paymentId]: paymentId }
            : { [ATTRIBUTES.retries]: retries },
        )
      : span.end(outcome);
    this.#port.telemetry.record('portCallDuration', seconds, recordedAttributes(this.#names, outcome));
  }
}
