import { createPaymentEngine, type BackgroundWorker } from '../../src/engine/payment-engine.js';
import type { PaymentEngineOptions } from '../../src/engine/engine-options.js';
import type { CardVault } from '../../src/ports/card-vault.js';
import type { Clock } from '../../src/ports/clock.js';
import type { CredentialStore } from '../../src/ports/credential-store.js';
import type { IdempotencyStore } from '../../src/ports/idempotency-store.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';
import { silentLogger, type Logger } from '../../src/ports/logger.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  composePages,
  createHealthHandlers,
  createFetchHandler,
  createNodeListener,
  createOpenApiPages,
  STORE_TIMEOUT_MS,
  type FetchHandler,
  type FetchHandlerOptions,
  createSandboxPages,
  type SandboxPageDeps,
} from '../http/index.js';
import {
  createMemoryCardVault,
  createMemoryCredentialStore,
  type MemoryCredentialStore,
  createMemoryIdempotencyStore,
  type MemoryIdempotencyStore,
  createMemoryPaymentRepository,
  type MemoryPaymentRepository,
  type SandboxConfig,
  type SandboxSchedules,
} from '../memory/index.js';
import { createCryptoIdGenerator, createHmacPageTokens, systemClock } from '../node/index.js';
import {
  createChallengeResponse,
  type SandboxAuthorizationStore,
  type SandboxChallengeStore,
  type SandboxOperationStore,
  createSandboxAcquirer,
  type SandboxAcquirer,
  createSandboxThreeDSProvider,
  type SandboxThreeDSProvider,
} from '../sandbox/index.js';
import { createWebhookEventSink, type WebhookEventSinkOptions } from '../webhooks/index.js';
import { createSandboxEventSink } from './sandbox-event-sink.js';
import { BUNDLED_SANDBOX_CONFIG } from './sandbox-config.js';
import { sandboxRateLimiter } from './sandbox-rate-limit.js';
import { scheduleEngineOptions } from './sandbox-schedules.js';
import { processSandboxSecrets, type SandboxSecrets } from './sandbox-secrets.js';

/** Where the sandbox keeps payments, idempotency keys and credentials. */
export interface SandboxStorage {
  readonly repository: PaymentRepository;
  readonly idempotency: IdempotencyStore;
  readonly credentials: CredentialStore;
  /**
   * Deletes what is no longer needed (the Postgres adapters' `housekeep`); the sandbox server
   * runs it every minute. Without it the server purges expired idempotency keys only.
   */
  readonly housekeep?: (now: number) => unknown;
  /** Where card data waits between a challenge and authorization. Default in memory (one instance). */
  readonly cardVault?: CardVault;
  /**
   * Where the simulated acquirer and issuer keep their state. Default in memory (one instance);
   * `createPostgresSandboxStores` of `paystate/postgres` lets every instance serve every challenge.
   */
  readonly simulator?: {
    readonly authorizations: SandboxAuthorizationStore;
    readonly challenges: SandboxChallengeStore;
    /** Captures, cancels and refunds, for inquiries from any instance. Default in memory. */
    readonly operations?: SandboxOperationStore;
  };
}

/** The default storage: everything in memory, gone when the process ends. */
export interface MemorySandboxStorage extends SandboxStorage {
  readonly repository: MemoryPaymentRepository;
  readonly idempotency: MemoryIdempotencyStore;
  readonly credentials: MemoryCredentialStore;
}

/** Options of `createSandboxApp`: only `baseUrl` is required. */
export interface SandboxAppOptions<S extends SandboxStorage = MemorySandboxStorage> {
  /**
   * Storage to use instead of memory (e.g. the Postgres adapters of `paystate/postgres`, with
   * the config's credentials imported).
   */
  readonly storage?: S;
  /**
   * The hosted page's CSRF key, the simulated issuer's signing key and the key of the hosted page
   * links (`createHmacPageTokens`: no link is stored). Instances behind one address must share
   * them. Default: the config's `secrets`, each one missing made at random for this process.
   */
  readonly secrets?: SandboxSecrets;
  /** Lifetimes and the first inquiry delay. Default the config's `schedules`; `engineOptions` wins where both set one. */
  readonly schedules?: SandboxSchedules;
  /** Partners, profiles and clients. Default: the bundled sandbox config. */
  readonly config?: SandboxConfig;
  /**
   * The server's own base URL (`http://127.0.0.1:3000`), read when a URL is made: the hosted
   * page of a payment is `{base}/pay/{id}?token=…` and the simulated issuer's challenge page
   * `{base}/sandbox/issuer/challenge/{payment_id}/{transaction_id}`.
   */
  readonly baseUrl: () => string;
  /** Where the engine, the API and the pages log. Default silent. */
  readonly logger?: Logger;
  /** The time the sandbox sees. Default the system clock. */
  readonly clock?: Clock;
  /** Simulated latency of the acquirer, in milliseconds. Default 0. */
  readonly acquirerLatencyMs?: number;
  /** Simulated latency of the 3DS server, in milliseconds. Default 0. */
  readonly threeDSLatencyMs?: number;
  /**
   * The simulated acquirer's retrieval reference numbers (`SandboxAcquirerOptions.rrn`), for
   * predictable answers in tests. Default 12 random digits.
   */
  readonly rrn?: () => string;
  /**
   * The simulated 3DS server's transaction ids (`SandboxThreeDSOptions.transactionId`), for
   * predictable challenge URLs in tests. Default a random UUID.
   */
  readonly transactionId?: () => string;
  /** Engine tuning (expiry times, time-outs); the URLs above are set here. */
  readonly engineOptions?: Omit<PaymentEngineOptions, 'hostedPageUrl'>;
  /**
   * How long the API and the pages wait for the credential and idempotency stores (see
   * `ApiOptions.storeTimeoutMs`). Default 5000 ms.
   */
  readonly storeTimeoutMs?: number;
  /** Makes the id of each request (`Request-Id`, logs): see `ApiOptions.requestId`. Default `req_` and 32 hex digits. */
  readonly requestId?: () => string;
  /**
   * Limits how often each client may call the API (`ApiOptions.rateLimit`); `false`: no limit.
   * Default the config's `rate_limit`, else 25 requests a second with bursts of 100 per client
   * (`DEFAULT_SANDBOX_RATE_LIMIT`), counted in memory by each instance on its own.
   */
  readonly rateLimit?: RateLimiter | false;
  /**
   * Also POSTs every event, signed, to a webhook endpoint besides logging it: the options of
   * `createWebhookEventSink` (`paystate/webhooks`), whose signatures take their time from the
   * sandbox's clock. A `RangeError` for a bad `url` or secret, as there.
   */
  readonly webhook?: Omit<WebhookEventSinkOptions, 'clock'>;
}

/**
 * The sandbox wired together: in-memory adapters, the simulated acquirer and 3DS, the handler, and
 * the health probes `/healthz` and `/readyz`.
 */
export interface SandboxApp<S extends SandboxStorage = MemorySandboxStorage> extends SandboxPageDeps {
  /** The v1 API and the sandbox's pages, as a fetch handler. */
  readonly handler: FetchHandler;
  /** The same as a node:http request listener (what the sandbox server runs). */
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
  readonly repository: S['repository'];
  readonly credentials: S['credentials'];
  readonly idempotency: S['idempotency'];
  /** The storage's housekeeping (`SandboxStorage.housekeep`), or purging expired idempotency keys. */
  housekeep(now: number): Promise<unknown>;
  /** The simulated acquirer (inspect its authorizations, inject faults). */
  readonly acquirer: SandboxAcquirer;
  /** The simulated 3DS server and issuer. */
  readonly threeDS: SandboxThreeDSProvider;
  /** The page keys it runs with (`SandboxAppOptions.secrets`). */
  readonly secrets: SandboxSecrets;
}

/** The background worker of each sandbox app (`startSandboxServer` starts it), for `/healthz` and `/readyz`. */
const workers = new WeakMap<object, BackgroundWorker>();

/** Makes `worker` the one the app's health pages report (a stopping worker makes both `503`). */
export function attachWorker(app: object, worker: BackgroundWorker): void {
  workers.set(app, worker);
}

/** Builds the sandbox (docs/http-api.md, The sandbox) without listening anywhere. */
export function createSandboxApp<S extends SandboxStorage = MemorySandboxStorage>(
  options: SandboxAppOptions<S>,
): SandboxApp<S> {
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const secrets = options.secrets ?? processSandboxSecrets(options.config?.secrets);
  const storage: S =
    options.storage ??
    ({
      repository: createMemoryPaymentRepository(),
      credentials: createMemoryCredentialStore(options.config ?? BUNDLED_SANDBOX_CONFIG, { clock }),
      idempotency: createMemoryIdempotencyStore(),
    } satisfies MemorySandboxStorage as unknown as S);
  const { repository, credentials, idempotency } = storage;
  const acquirer = createSandboxAcquirer({
    latencyMs: options.acquirerLatencyMs ?? 0,
    ...(options.rrn !== undefined && { rrn: options.rrn }),
    ...(storage.simulator !== undefined && { store: storage.simulator.authorizations }),
    ...(storage.simulator?.operations !== undefined && { operationStore: storage.simulator.operations }),
  });
  const threeDS = createSandboxThreeDSProvider({
    secret: secrets.challenge,
    latencyMs: options.threeDSLatencyMs ?? 0,
    ...(storage.simulator !== undefined && { store: storage.simulator.challenges }),
    ...(options.transactionId !== undefined && { transactionId: options.transactionId }),
    challengeUrl: (paymentId, transactionId) =>
      `${options.baseUrl()}/sandbox/issuer/challenge/${encodeURIComponent(paymentId)}/${encodeURIComponent(transactionId)}`,
  });
  const engine = createPaymentEngine({
    repository,
    acquirer,
    threeDS,
    cardVault: storage.cardVault ?? createMemoryCardVault(clock),
    clock,
    ids: createCryptoIdGenerator(),
    pageTokens: createHmacPageTokens(secrets.pageLink),
    events: createSandboxEventSink(
      logger,
      options.webhook === undefined ? undefined : createWebhookEventSink({ ...options.webhook, clock }),
    ),
    logger,
    options: {
      ...scheduleEngineOptions(options.schedules ?? options.config?.schedules),
      ...options.engineOptions,
      hostedPageUrl: ({ id, token }) =>
        `${options.baseUrl()}/pay/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`,
    },
  });

  const app: SandboxApp<S> = {
    engine,
    handler: (request) => handler(request),
    listener: (req, res) => listener(req, res),
    repository,
    credentials,
    idempotency,
    housekeep: async (now) =>
      storage.housekeep === undefined ? idempotency.purgeExpired(now) : storage.housekeep(now),
    acquirer,
    threeDS,
    clock,
    logger,
    baseUrl: options.baseUrl,
    storeTimeoutMs: options.storeTimeoutMs ?? STORE_TIMEOUT_MS,
    secrets,
    challengeResponse: (paymentId, transactionId, decision) =>
      createChallengeResponse({ secret: secrets.challenge, paymentId, transactionId, decision }),
  };
  const rateLimit = sandboxRateLimiter(options.rateLimit, options.config?.rate_limit);
  const handlerOptions: FetchHandlerOptions = {
    engine,
    credentials,
    idempotency,
    clock,
    logger,
    ...(options.storeTimeoutMs !== undefined && { storeTimeoutMs: options.storeTimeoutMs }),
    ...(options.requestId !== undefined && { requestId: options.requestId }),
    ...(rateLimit !== undefined && { rateLimit }),
    pages: composePages(
      createHealthHandlers({ engine, worker: () => workers.get(app) }).pages,
      createOpenApiPages(),
      createSandboxPages(app),
    ),
  };
  const handler = createFetchHandler(handlerOptions);
  // It hands the hosted page the socket's address for 3DS, never the client's word.
  const listener = createNodeListener(handlerOptions);
  return app;
}
