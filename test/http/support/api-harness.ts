import type { Telemetry } from '../../../src/ports/telemetry.js';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import {
  createMemoryCardVault,
  createMemoryCredentialStore,
  createMemoryEventSink,
  createMemoryIdempotencyStore,
  createMemoryPaymentRepository,
  createSequentialIdGenerator,
  createTestClock,
  type SandboxConfig,
} from '../../../adapters/memory/index.js';
import {
  createNodeRequestListener,
  createFetchHandler,
  createNodeListener,
  type FetchHandlerOptions,
} from '../../../adapters/http/index.js';
import {
  createServer as createExpressServer,
  paystate,
  paystateErrorHandler,
} from '../../../adapters/http/express/index.js';
import { paystate as paystateFastify, paystateFrameworkErrors } from '../../../adapters/http/fastify/index.js';
import {
  createChallengeResponse,
  createSandboxAcquirer,
  createSandboxThreeDSProvider,
} from '../../../adapters/sandbox/index.js';
import {
  createPaymentEngine,
  type Logger,
  type PaymentEngineOptions,
  type PaymentRepository,
} from '../../../src/index.js';

/** Two partners; alpha has two profiles. Tokens are test values. */
export const CONFIG: SandboxConfig = {
  partners: [
    {
      id: 'partner_alpha',
      profiles: [
        { id: 'profile_alpha_main', name: 'Alpha Shop' },
        { id: 'profile_alpha_second', name: 'Alpha Outlet' },
      ],
    },
    { id: 'partner_beta', profiles: [{ id: 'profile_beta_main', name: 'Beta Store' }] },
  ],
  clients: [
    {
      token: 'tok_alpha_compliant_7Kq2XvL9',
      partner_id: 'partner_alpha',
      profile_ids: ['profile_alpha_main', 'profile_alpha_second'],
      pci_dss_compliant: true,
    },
    {
      token: 'tok_alpha_hosted_4Wm8NpR2cZ',
      partner_id: 'partner_alpha',
      profile_ids: ['profile_alpha_main', 'profile_alpha_second'],
      pci_dss_compliant: false,
    },
    {
      token: 'tok_alpha_second_only_6Ty3Hb',
      partner_id: 'partner_alpha',
      profile_ids: ['profile_alpha_second'],
      pci_dss_compliant: false,
    },
    {
      token: 'tok_beta_compliant_9Jd5QsV1',
      partner_id: 'partner_beta',
      profile_ids: ['profile_beta_main'],
      pci_dss_compliant: true,
    },
  ],
};

export const TOKENS = {
  alphaCompliant: 'tok_alpha_compliant_7Kq2XvL9',
  alphaHosted: 'tok_alpha_hosted_4Wm8NpR2cZ',
  alphaSecondOnly: 'tok_alpha_second_only_6Ty3Hb',
  betaCompliant: 'tok_beta_compliant_9Jd5QsV1',
} as const;

export const CHALLENGE_SECRET = 'http-test-secret';

export interface LogLine {
  readonly level: string;
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

/** Counts calls per port, so a test can prove a refused request reached no port but the credential store. */
export interface PortCalls {
  readonly counts: Map<string, number>;
  /** Calls of every port except the credential store. */
  beyondCredentials(): number;
}

function counted<T extends object>(name: string, target: T, calls: Map<string, number>): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const key = `${name}.${String(property)}`;
        calls.set(key, (calls.get(key) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}

export interface ApiHarnessOptions {
  readonly acquirerLatencyMs?: number;
  readonly threeDSLatencyMs?: number;
  /** Given to the engine and the API both. Default none. */
  readonly telemetry?: Telemetry;
}

/** The API on in-memory adapters and the sandbox simulators, every port counted. */
export function makeApi(options: ApiHarnessOptions = {}) {
  const clock = createTestClock();
  const counts = new Map<string, number>();
  const repository = createMemoryPaymentRepository();
  const acquirer = createSandboxAcquirer({ latencyMs: options.acquirerLatencyMs ?? 0 });
  const threeDS = createSandboxThreeDSProvider({
    challengeUrl: (paymentId, transactionId) => `https://acs.sandbox.test/challenge/${paymentId}/${transactionId}`,
    secret: CHALLENGE_SECRET,
    latencyMs: options.threeDSLatencyMs ?? 0,
  });
  const cardVault = createMemoryCardVault(clock);
  const events = createMemoryEventSink();
  const idempotency = createMemoryIdempotencyStore();
  const credentials = createMemoryCredentialStore(CONFIG);
  const logs: LogLine[] = [];
  const logger: Logger = {
    debug: (fields, message) => logs.push({ level: 'debug', fields, message }),
    info: (fields, message) => logs.push({ level: 'info', fields, message }),
    warn: (fields, message) => logs.push({ level: 'warn', fields, message }),
    error: (fields, message) => logs.push({ level: 'error', fields, message }),
  };
  const engine = createPaymentEngine({
    repository: counted('repository', repository, counts),
    acquirer: counted('acquirer', acquirer, counts),
    threeDS: counted('threeDS', threeDS, counts),
    cardVault: counted('cardVault', cardVault, counts),
    clock,
    ids: counted('ids', createSequentialIdGenerator(7), counts),
    events: counted('events', events, counts),
    logger,
    ...(options.telemetry !== undefined && { telemetry: options.telemetry }),
    options: { retries: 0, hostedPageUrl: ({ id, token }) => `https://pay.sandbox.test/pay/${id}?token=${token}` },
  });
  const handlerOptions: FetchHandlerOptions = {
    engine,
    credentials: counted('credentials', credentials, counts),
    idempotency: counted('idempotency', idempotency, counts),
    clock,
    logger,
    ...(options.telemetry !== undefined && { telemetry: options.telemetry }),
  };
  const calls: PortCalls = {
    counts,
    beyondCredentials: () =>
      [...counts].filter(([key]) => !key.startsWith('credentials.')).reduce((sum, [, n]) => sum + n, 0),
  };

  /** What the issuer would post back for this payment's challenge. */
  const challengeAnswer = async (paymentId: string, decision: 'authorise' | 'refuse') => {
    const record = (await engine.getPaymentRecord(paymentId))._unsafeUnwrap();
    const transactionId = record.threeDS?.transactionId ?? '';
    return {
      paymentId,
      transactionId,
      cres: createChallengeResponse({ secret: CHALLENGE_SECRET, paymentId, transactionId, decision }),
    };
  };

  /** Errors logged by the HTTP layer's catch-all: must stay empty whatever a client sends. */
  const unhandled = () => logs.filter((line) => line.level === 'error' && line.message.startsWith('unhandled'));

  return {
    engine,
    clock,
    repository,
    acquirer,
    threeDS,
    idempotency,
    credentials,
    logs,
    calls,
    handlerOptions,
    challengeAnswer,
    unhandled,
  };
}

export type ApiHarness = ReturnType<typeof makeApi>;

/**
 * An engine on the harness's clock, acquirer, 3DS provider and logger over another repository
 * (one a test wraps to lose answers or crash), to put in `handlerOptions.engine`.
 */
export function engineOver(
  api: ApiHarness,
  repository: PaymentRepository,
  options: PaymentEngineOptions = { retries: 0 },
) {
  return createPaymentEngine({
    repository,
    acquirer: api.acquirer,
    threeDS: api.threeDS,
    cardVault: createMemoryCardVault(api.clock),
    clock: api.clock,
    ids: createSequentialIdGenerator(11),
    ...(api.handlerOptions.logger !== undefined && { logger: api.handlerOptions.logger }),
    options,
  });
}

/** Every entry point that takes the handler's options, each of which must check them alike. */
export const OPTION_ENTRY_POINTS = [
  ['createFetchHandler', createFetchHandler],
  ['createNodeListener', createNodeListener],
  ['paystate() in Express', paystate],
  ['createServer(options) in Express', createExpressServer],
  ['paystate() in Fastify', paystateFastify],
] as const;

/** How the handler is served in a test. */
export type ServerKind =
  | 'node:http'
  | 'node:http + fetch bridge'
  | 'express router (fetch handler)'
  | 'express, json parser first, mounted at /api'
  | 'fastify plugin, mounted at /api';

export const SERVER_KINDS: readonly ServerKind[] = [
  'node:http',
  'node:http + fetch bridge',
  'express router (fetch handler)',
  'express, json parser first, mounted at /api',
  'fastify plugin, mounted at /api',
];

export interface RunningServer {
  readonly kind: ServerKind;
  /** Origin plus mount path: prepend to `/v1/...`. */
  readonly base: string;
  /** The mount path (`''` or `/api`); links are written under it. */
  readonly basePath: string;
  readonly port: number;
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** Serves the harness's handler on 127.0.0.1, on a free port, in one of the supported ways. */
export async function serve(kind: ServerKind, api: ApiHarness): Promise<RunningServer> {
  let server: Server;
  let basePath = '';
  switch (kind) {
    case 'node:http':
      server = createHttpServer(createNodeListener(api.handlerOptions));
      break;
    case 'node:http + fetch bridge':
      server = createHttpServer(createNodeRequestListener(createFetchHandler(api.handlerOptions)));
      break;
    case 'express router (fetch handler)':
      server = createHttpServer(createExpressServer(createFetchHandler(api.handlerOptions)));
      break;
    case 'express, json parser first, mounted at /api': {
      basePath = '/api';
      const app = express();
      app.use(express.json());
      app.get('/health', (_req, res) => {
        res.json({ ok: true });
      });
      app.use('/api', paystate(api.handlerOptions));
      app.use('/api', paystateErrorHandler());
      server = createHttpServer(app);
      break;
    }
    case 'fastify plugin, mounted at /api':
      return serveFastify(kind, api);
  }
  const port = await listen(server);
  return {
    kind,
    base: `http://127.0.0.1:${port}${basePath}`,
    basePath,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A Fastify app with a route of its own and paystate's plugin under `/api`, its router's refusals
 * answered by `paystateFrameworkErrors`, listening with `app.listen`.
 */
async function serveFastify(kind: ServerKind, api: ApiHarness): Promise<RunningServer> {
  const app = Fastify({ frameworkErrors: paystateFrameworkErrors() });
  app.get('/health', () => ({ ok: true }));
  await app.register(paystateFastify(api.handlerOptions), { prefix: '/api' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    kind,
    base: `http://127.0.0.1:${port}/api`,
    basePath: '/api',
    port,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
