import type { MiddlewareHandler } from 'hono';
import { guardTelemetry, type Telemetry } from '../../src/ports/telemetry.js';
import type { AppEnv } from './app-env.js';

/**
 * A server span per request joined to its `traceparent` (observability.md); undefined without a
 * telemetry that starts server spans, none while it records nothing.
 */
export function telemetryMiddleware(telemetry: Telemetry | undefined): MiddlewareHandler<AppEnv> | undefined {
  if (telemetry === undefined) return undefined;
  const guarded = guardTelemetry(telemetry);
  const start = guarded.startServerSpan;
  if (start === undefined) return undefined;
  return async (c, next) => {
    // Nothing would be recorded (no SDK yet): no span, no context, no attribute.
    if (guarded.isRecording?.() === false) return next();
    const method = c.req.method;
    // The matched route's pattern (`/v1/payments/:payment_id`), never the raw path with its ids.
    const route = c.req.matchedRoutes.filter((matched) => matched.method !== 'ALL').at(-1)?.path;
    const span = start(
      route === undefined ? `HTTP ${method}` : `HTTP ${method} ${route}`,
      {
        'http.request.method': method,
        // The scheme of the request's absolute URL: what precedes its first colon.
        'url.scheme': c.req.url.slice(0, c.req.url.indexOf(':')),
        'paystate.request.id': c.get('requestId'),
        ...(route !== undefined && { 'http.route': route }),
      },
      (name) => c.req.header(name),
    );
    let status = 500;
    try {
      await span.within(() => next());
      status = c.res.status;
    } finally {
      // A 5xx is the server's failure; a 4xx is the client's and leaves the span's status unset.
      span.end(status >= 500 ? `http_${status}` : 'ok', { 'http.response.status_code': status });
    }
  };
}
