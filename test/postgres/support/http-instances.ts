import type pg from 'pg';
import { expect } from 'vitest';
import type { SandboxConfig } from '../../../adapters/memory/index.js';
import { createFetchHandler, type FetchHandler } from '../../../adapters/http/index.js';
import { createPostgresCredentialStore, createPostgresIdempotencyStore } from '../../../adapters/postgres/index.js';
import type { Logger } from '../../../src/index.js';
import type { Instances } from './multi-instance.js';

/*
 * The HTTP API (`createFetchHandler`) of each engine instance, on that instance's pool: Postgres
 * credentials and idempotency keys as well as payments. A test sends each request to one
 * instance, as a load balancer would.
 */

export const HTTP_PROFILE = 'profile_http_shop';
export const HTTP_TOKEN = 'tok_http_failures_compliant';

export const HTTP_CONFIG: SandboxConfig = {
  partners: [{ id: 'partner_http', profiles: [{ id: HTTP_PROFILE, name: 'HTTP Shop' }] }],
  clients: [{ token: HTTP_TOKEN, partner_id: 'partner_http', profile_ids: [HTTP_PROFILE], pci_dss_compliant: true }],
};

/** An answer as the client read it. */
export interface HttpResult {
  readonly status: number;
  readonly retryAfter: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
  readonly json: any;
  readonly text: string;
}

export interface HttpInstances {
  readonly handlers: readonly FetchHandler[];
  /** Error lines of the HTTP layer that report a defect (`unhandled error`): none expected. */
  readonly defects: string[];
  send(instance: number, request: { method: string; path: string; body?: unknown; key?: string }): Promise<HttpResult>;
}

export async function httpInstances(pools: readonly pg.Pool[], group: Instances): Promise<HttpInstances> {
  const defects: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: (fields, message) => {
      if (message.includes('unhandled') || message.includes('defect'))
        defects.push(`${message} ${JSON.stringify(fields)}`);
    },
  };
  const imported = await createPostgresCredentialStore({ pool: pools[0] as pg.Pool }).importConfig(HTTP_CONFIG);
  expect(imported.isOk()).toBe(true);
  const handlers = pools.map((pool, index) =>
    createFetchHandler({
      engine: group.instances[index]?.engine ?? (undefined as never),
      credentials: createPostgresCredentialStore({ pool }),
      idempotency: createPostgresIdempotencyStore({ pool }),
      clock: group.clock,
      logger,
      storeTimeoutMs: 3_000,
    }),
  );
  return {
    handlers,
    defects,
    send: async (instance, request) => {
      const handler = handlers[instance % handlers.length] as FetchHandler;
      const response = await handler(
        new Request(`http://paystate.test${request.path}`, {
          method: request.method,
          headers: {
            authorization: `Bearer ${HTTP_TOKEN}`,
            ...(request.body !== undefined && { 'content-type': 'application/json' }),
            ...(request.key !== undefined && { 'idempotency-key': request.key }),
          },
          ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
        }),
      );
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, retryAfter: response.headers.get('retry-after'), json, text };
    },
  };
}

/**
 * What a client may be answered while the database fails: never a 500; a 503 says either to retry
 * (`Retry-After`) or, when a create's write may have landed, `payment_may_exist: true`.
 */
export function expectClassified(result: HttpResult, what: string): void {
  expect(result.status, `${what}: ${result.text}`).not.toBe(500);
  if (result.status === 503) {
    const mayExist = result.json?.payment_may_exist === true;
    expect(mayExist || result.retryAfter !== null, `${what}: a 503 says when to retry or that it may exist`).toBe(true);
    expect(result.json?.code).toBe('unavailable');
  }
}
