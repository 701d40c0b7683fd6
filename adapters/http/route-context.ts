import type { Result } from 'neverthrow';
import type { PaymentEngine } from '../../src/engine/payment-engine.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Client, CredentialStore } from '../../src/ports/credential-store.js';
import type { IdempotencyStore } from '../../src/ports/idempotency-store.js';
import type { Logger } from '../../src/ports/logger.js';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';
import type { HttpAnswer } from './http-answer.js';
import type { HttpRequest } from './http-request.js';
import type { Problem } from './problem-details.js';

/** What the routes reach the world through. */
export interface HttpDeps {
  readonly engine: PaymentEngine;
  readonly credentials: CredentialStore;
  readonly idempotency: IdempotencyStore;
  readonly clock: Clock;
  /** The API's logger; a request logs to its own (`RouteContext.logger`), which adds its id. */
  readonly logger: Logger;
  readonly problemTypeBase: string;
  readonly idempotencyTtlMs: number;
  readonly idempotencyStaleAfterMs: number;
  /** The deadline of each credential store and idempotency store call. */
  readonly storeTimeoutMs: number;
  /** Takes one turn per authenticated request; none: no limit. */
  readonly rateLimit?: RateLimiter;
}

/** One authenticated request matched to a route. */
export interface RouteContext {
  readonly deps: HttpDeps;
  readonly request: HttpRequest;
  /** The request target parsed (for the query). */
  readonly url: URL;
  /** The query as the client sent it, with its `?` (`''`: none). */
  readonly search: string;
  /** The path below the mount prefix (`/v1/...`). */
  readonly path: string;
  /** The mount prefix links are written under (`''` or `/api`). */
  readonly basePath: string;
  readonly params: Readonly<Record<string, string>>;
  readonly client: Client;
  /** The request's id (`Request-Id`): given to the engine's commands, for their log lines. */
  readonly requestId: string;
  /** `deps.logger` with the request's id on every line: what the route and its store calls log to. */
  readonly logger: Logger;
}

export type RouteHandler = (context: RouteContext) => Promise<Result<HttpAnswer, Problem>>;

/** One endpoint: the app registers it behind authentication, rate limit and content negotiation. */
export interface RouteDefinition {
  /** `GET` routes also answer `HEAD`. */
  readonly method: 'GET' | 'POST';
  /** Segments; `:name` captures one segment. */
  readonly pattern: readonly string[];
  /** Name for logs, e.g. `POST /v1/profiles/{profile_id}/payments`. */
  readonly name: string;
  readonly handler: RouteHandler;
}

/** A route parameter the router guarantees to be present. */
export function param(context: RouteContext, name: string): string {
  const value = context.params[name];
  if (value === undefined) throw new Error(`route parameter ${name} missing`);
  return value;
}
