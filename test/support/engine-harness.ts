import {
  createMemoryCardVault,
  createMemoryEventSink,
  createMemoryPaymentRepository,
  createSequentialIdGenerator,
  createTestClock,
} from '../../adapters/memory/index.js';
import type {
  MemoryEventSinkOptions,
  MemoryPaymentRepository,
  MemoryPaymentRepositoryOptions,
} from '../../adapters/memory/index.js';
import {
  createChallengeResponse,
  createSandboxAcquirer,
  createSandboxThreeDSProvider,
} from '../../adapters/sandbox/index.js';
import type { SandboxAcquirerOptions, SandboxThreeDSOptions } from '../../adapters/sandbox/index.js';
import type { Client, Logger, PageTokens, Payment, PaymentEngine, PaymentEngineOptions } from '../../src/index.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import type { Telemetry } from '../../src/ports/telemetry.js';
import { createPaymentEngine } from '../../src/index.js';

export const CHALLENGE_SECRET = 'engine-test-secret';

export const compliantClient: Client = {
  id: 'client_compliant',
  partnerId: 'partner_0001',
  profileIds: ['profile_0001', 'profile_0002'],
  pciDssCompliant: true,
};

export const hostedOnlyClient: Client = {
  id: 'client_hosted_only',
  partnerId: 'partner_0001',
  profileIds: ['profile_0001'],
  pciDssCompliant: false,
};

/** Options passed on to the adapters a harness builds (fault injection, latency). */
export interface HarnessAdapterOptions {
  readonly acquirer?: SandboxAcquirerOptions;
  readonly threeDS?: Pick<SandboxThreeDSOptions, 'failWith' | 'latencyMs'>;
  readonly events?: MemoryEventSinkOptions;
  readonly repository?: MemoryPaymentRepositoryOptions;
  /** What the engine gets in place of the memory repository (which the harness still exposes). */
  readonly wrapRepository?: (repository: MemoryPaymentRepository) => PaymentRepository;
  /** The engine's logger instead of the one that collects `logs` (which then stays empty). */
  readonly logger?: Logger;
  /** Hosted page tokens made from a key (`createHmacPageTokens`) instead of stored random ones. */
  readonly pageTokens?: PageTokens;
  /** Where the engine reports spans and metrics (`createOpenTelemetry`); default none. */
  readonly telemetry?: Telemetry;
}

/** What the simulated issuer page would post back for a payment's challenge, signed with `secret`. */
export function challengeAnswerFor(engine: PaymentEngine, secret: string) {
  return async (paymentId: string, decision: 'authorise' | 'refuse') => {
    const record = (await engine.getPaymentRecord(paymentId))._unsafeUnwrap();
    const transactionId = record.threeDS?.transactionId ?? '';
    return { paymentId, transactionId, cres: createChallengeResponse({ secret, paymentId, transactionId, decision }) };
  };
}

/** The hosted page token carried by `next.redirect`. */
export function hostedTokenOf(payment: Payment): string {
  return new URL(payment.next?.redirect ?? 'http://x/').searchParams.get('token') ?? '';
}

/** An engine on in-memory adapters and the sandbox simulators, with a hand-driven clock. */
export function makeEngineHarness(options: PaymentEngineOptions = {}, seed = 0, adapters: HarnessAdapterOptions = {}) {
  const clock = createTestClock();
  const ids = createSequentialIdGenerator(seed);
  const repository = createMemoryPaymentRepository(adapters.repository);
  const acquirer = createSandboxAcquirer(adapters.acquirer);
  const threeDS = createSandboxThreeDSProvider({
    ...adapters.threeDS,
    challengeUrl: (paymentId, transactionId) => `https://acs.sandbox.test/challenge/${paymentId}/${transactionId}`,
    secret: CHALLENGE_SECRET,
    // EMV 3DS transaction ids are UUIDs, which the engine checks: sequential ones here.
    transactionId: (() => {
      let n = 0;
      return () => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
    })(),
  });
  const cardVault = createMemoryCardVault(clock);
  const events = createMemoryEventSink(adapters.events);
  const logs: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
  const logger = {
    debug: (fields: Record<string, unknown>, message: string) => logs.push({ level: 'debug', fields, message }),
    info: (fields: Record<string, unknown>, message: string) => logs.push({ level: 'info', fields, message }),
    warn: (fields: Record<string, unknown>, message: string) => logs.push({ level: 'warn', fields, message }),
    error: (fields: Record<string, unknown>, message: string) => logs.push({ level: 'error', fields, message }),
  };
  const engine = createPaymentEngine({
    repository: adapters.wrapRepository?.(repository) ?? repository,
    acquirer,
    threeDS,
    cardVault,
    clock,
    ids,
    events,
    logger: adapters.logger ?? logger,
    ...(adapters.pageTokens !== undefined && { pageTokens: adapters.pageTokens }),
    ...(adapters.telemetry !== undefined && { telemetry: adapters.telemetry }),
    options: { retries: 0, ...options },
  });

  const challengeAnswer = challengeAnswerFor(engine, CHALLENGE_SECRET);
  const hostedToken = hostedTokenOf;

  return { engine, clock, ids, repository, acquirer, threeDS, cardVault, events, logs, challengeAnswer, hostedToken };
}

export type EngineHarness = ReturnType<typeof makeEngineHarness>;
