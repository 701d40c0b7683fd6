import type pg from 'pg';
import {
  createMemoryCardVault,
  createMemoryEventSink,
  createSequentialIdGenerator,
  createTestClock,
  type TestClock,
} from '../../../adapters/memory/index.js';
import {
  createPostgresPaymentRepository,
  type PostgresPaymentRepository,
  type PostgresPaymentRepositoryTuning,
} from '../../../adapters/postgres/index.js';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from '../../../adapters/sandbox/index.js';
import type {
  Acquirer,
  CardVault,
  EventSink,
  Logger,
  Payment,
  PaymentEngineOptions,
  PaymentRepository,
  ThreeDSProvider,
} from '../../../src/index.js';
import { createPaymentEngine } from '../../../src/index.js';
import { challengeAnswerFor, compliantClient, hostedTokenOf } from '../../support/engine-harness.js';
import { directRequest } from '../../support/requests.js';

export const CHALLENGE_SECRET = 'postgres-test-secret';

export { compliantClient };

/** Counts the repository's writes (each one commit) while passing every call on. */
export interface CountingRepository extends PaymentRepository {
  readonly writes: { inserts: number; updates: number };
}

export function countingRepository(inner: PaymentRepository): CountingRepository {
  const writes = { inserts: 0, updates: 0 };
  return {
    writes,
    insert: (record, events) => {
      writes.inserts += 1;
      return inner.insert(record, events);
    },
    update: (record, events) => {
      writes.updates += 1;
      return inner.update(record, events);
    },
    load: (id) => inner.load(id),
    list: (query) => inner.list(query),
    findDue: (query) => inner.findDue(query),
    readOutbox: (query) => inner.readOutbox(query),
    markDelivered: (sequences) => inner.markDelivered(sequences),
    deferDelivery: (deferrals) => inner.deferDelivery(deferrals),
    insertOperation: (write) => inner.insertOperation(write),
    updateOperation: (write) => inner.updateOperation(write),
    loadOperation: (id) => inner.loadOperation(id),
    listOperations: (query) => inner.listOperations(query),
    findDueOperations: (query) => inner.findDueOperations(query),
    ...(inner.holdOutbox !== undefined && { holdOutbox: inner.holdOutbox.bind(inner) }),
    ...(inner.holdClaim !== undefined && { holdClaim: inner.holdClaim.bind(inner) }),
  };
}

export interface PostgresEngineHarnessOptions {
  readonly pool: pg.Pool;
  /** Id generator seed; give every engine sharing a database its own. */
  readonly seed?: number;
  readonly clock?: TestClock;
  readonly acquirer?: Acquirer;
  readonly threeDS?: ThreeDSProvider;
  readonly cardVault?: CardVault;
  readonly options?: PaymentEngineOptions;
  readonly repository?: PostgresPaymentRepositoryTuning;
  /** The engine's event sink instead of the harness's memory sink (which then receives nothing). */
  readonly eventSink?: EventSink;
  readonly logger?: Logger;
}

/**
 * An engine like `test/support/engine-harness.ts` builds (sandbox acquirer and 3DS, in-memory
 * card vault and event sink, hand-driven clock) but storing payments in Postgres.
 */
export function makePostgresEngine(config: PostgresEngineHarnessOptions) {
  const clock = config.clock ?? createTestClock();
  const ids = createSequentialIdGenerator(config.seed ?? 0);
  const postgres: PostgresPaymentRepository = createPostgresPaymentRepository({
    pool: config.pool,
    ...config.repository,
  });
  const repository = countingRepository(postgres);
  const sandboxAcquirer = createSandboxAcquirer();
  const acquirer = config.acquirer ?? sandboxAcquirer;
  let transactions = 0;
  const threeDS =
    config.threeDS ??
    createSandboxThreeDSProvider({
      challengeUrl: (paymentId, transactionId) => `https://acs.sandbox.test/challenge/${paymentId}/${transactionId}`,
      secret: CHALLENGE_SECRET,
      // EMV 3DS transaction ids are UUIDs, which the engine checks: the seed, then a sequence.
      transactionId: () =>
        `${(config.seed ?? 0).toString(16).padStart(8, '0')}-0000-4000-8000-${(++transactions).toString(16).padStart(12, '0')}`,
    });
  const cardVault = config.cardVault ?? createMemoryCardVault(clock);
  const events = createMemoryEventSink();
  const engine = createPaymentEngine({
    repository,
    acquirer,
    threeDS,
    cardVault,
    clock,
    ids,
    events: config.eventSink ?? events,
    ...(config.logger !== undefined && { logger: config.logger }),
    options: { retries: 2, ...config.options },
  });

  const challengeAnswer = challengeAnswerFor(engine, CHALLENGE_SECRET);
  const hostedToken = hostedTokenOf;

  return {
    engine,
    clock,
    repository,
    postgres,
    acquirer,
    sandboxAcquirer,
    threeDS,
    cardVault,
    events,
    challengeAnswer,
    hostedToken,
    close: () => postgres.close(),
  };
}

export type PostgresEngineHarness = ReturnType<typeof makePostgresEngine>;

/** A direct payment with the approved test card, created through the harness's engine (it must succeed). */
export async function createDirect(harness: PostgresEngineHarness): Promise<Payment> {
  return (
    await harness.engine.createPayment({
      client: compliantClient,
      profileId: 'profile_0001',
      body: directRequest('4242424242424242'),
    })
  )._unsafeUnwrap();
}
