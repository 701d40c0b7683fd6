import { guardTelemetry, type Telemetry } from '../ports/telemetry.js';

/** Each host's telemetry port, guarded once (`guardTelemetry`). */
const guarded = new WeakMap<object, Telemetry>();

/**
 * The engine's telemetry port (`ctx.ports.telemetry`), guarded so that its throws never fail a command, or none when the
 * host gave none, one that reports nothing, or one that records nothing now (`isRecording`, asked at each call): then
 * the engine builds no span and no attribute.
 */
export function telemetryOf(port: unknown): Telemetry | undefined {
  if (typeof port !== 'object' || port === null) return undefined;
  let telemetry = guarded.get(port);
  if (telemetry === undefined) {
    telemetry = guardTelemetry(port as Telemetry);
    guarded.set(port, telemetry);
  }
  return telemetry.enabled && telemetry.isRecording?.() !== false ? telemetry : undefined;
}
