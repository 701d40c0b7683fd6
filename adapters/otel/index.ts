/**
 * `paystate/otel`: the engine's spans and metrics on `@opentelemetry/api`, an optional peer
 * dependency (docs/observability.md).
 */
export { createOpenTelemetry, INSTRUMENTATION_SCOPE, type OpenTelemetryOptions } from './open-telemetry.js';
