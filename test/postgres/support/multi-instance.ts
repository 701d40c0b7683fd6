import { setTimeout as sleep } from 'node:timers/promises';
import { ok, type Result } from 'neverthrow';
import type pg from 'pg';
import { expect } from 'vitest';
import { createMemoryCardVault, createTestClock, type TestClock } from '../../../adapters/memory/index.js';
import { createSandboxAcquirer } from '../../../adapters/sandbox/index.js';
import { isFinalState, type InternalState } from '../../../src/domain/payment-state.js';
import type { DomainEvent, EventSink, Logger, PaymentError } from '../../../src/index.js';
import { makePostgresEngine, type PostgresEngineHarness } from './postgres-engine.js';
import { createStatelessThreeDS } from './stateless-three-ds.js';

/*
 * Several engine instances in one process, each with its own pool, repository instance id and
 * background worker, sharing what several processes would share outside the database: the
 * acquirer (the sandbox's, which counts `authorize` per payment), the issuer (3DS results checked
 * by signature), the card vault, the event consumer and the clock.
 */

const HOUR = 60 * 60_000;

/** One event consumer for every instance: events in the order they were published, across instances. */
export interface SharedSink extends EventSink {
  readonly published: DomainEvent[];
}

export function sharedSink(): SharedSink {
  const published: DomainEvent[] = [];
  return {
    published,
    publish(event) {
      published.push(event);
      return ok(undefined);
    },
  };
}

/** What a client was answered: `ok`, or the error's code (and `outcome`, when a write may have landed). */
export interface Answer {
  readonly command: string;
  readonly code: string;
  readonly outcome?: 'unknown';
  readonly message?: string;
  /** The payment the answer is about, when it is known. */
  readonly paymentId?: string;
  readonly state?: string;
}

export function answerOf(
  command: string,
  result: Result<{ readonly id: string; readonly state: string }, PaymentError>,
): Answer {
  if (result.isOk()) return { command, code: 'ok', paymentId: result.value.id, state: result.value.state };
  const { error } = result;
  return {
    command,
    code: error.code,
    ...(error.code === 'unavailable' && error.outcome !== undefined && { outcome: error.outcome }),
    message: error.message,
  };
}

/** Counts answers by command and code, for the test's log. */
export function tally(answers: readonly Answer[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const answer of answers) {
    const key = `${answer.command}: ${answer.code}${answer.outcome === undefined ? '' : `/${answer.outcome}`}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort());
}

export interface Instances {
  readonly clock: TestClock;
  readonly sink: SharedSink;
  readonly acquirer: ReturnType<typeof createSandboxAcquirer>;
  readonly instances: readonly PostgresEngineHarness[];
  /** Error lines that report a defect (an adapter that threw, an engine bug): none expected. */
  readonly defects: string[];
  /** Stops the background workers (if started) and closes the repositories; the pools stay the caller's. */
  close(): Promise<void>;
  startWorkers(intervalMs: number): void;
}

export interface InstancesOptions {
  readonly retries?: number;
  readonly storageMs?: number;
  readonly claimLeaseMs?: number;
  readonly outboxLeaseMs?: number;
}

/** An engine per pool, sharing clock, sink, acquirer, 3DS verifier and card vault. */
export function engineInstances(pools: readonly pg.Pool[], options: InstancesOptions = {}): Instances {
  const clock = createTestClock();
  const vault = createMemoryCardVault(clock);
  const sink = sharedSink();
  const acquirer = createSandboxAcquirer();
  const defects: string[] = [];
  const logger = (name: string): Logger => ({
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    // A store that fails is logged as an error too (a tick failed, an outcome left for
    // reconciliation): expected here. A defect is not.
    error: (fields, message) => {
      if (message.includes('defect')) defects.push(`${name}: ${message} ${JSON.stringify(fields)}`);
    },
  });
  const instances = pools.map((pool, index) =>
    makePostgresEngine({
      pool,
      seed: index + 1,
      clock,
      cardVault: vault,
      acquirer,
      threeDS: createStatelessThreeDS(),
      eventSink: sink,
      logger: logger(`instance-${index}`),
      repository: { claimLeaseMs: options.claimLeaseMs ?? 2_000, outboxLeaseMs: options.outboxLeaseMs ?? 2_000 },
      options: { retries: options.retries ?? 2, timeouts: { storageMs: options.storageMs ?? 4_000 } },
    }),
  );
  const workers: { stop(options?: { waitMs?: number }): Promise<void> }[] = [];
  return {
    clock,
    sink,
    acquirer,
    instances,
    defects,
    startWorkers: (intervalMs) => {
      for (const instance of instances) workers.push(instance.engine.startBackgroundWorker({ intervalMs }));
    },
    close: async () => {
      await Promise.all(workers.map((worker) => worker.stop({ waitMs: 5_000 })));
      for (const instance of instances) await instance.close();
    },
  };
}

/**
 * Moves the shared clock on an hour at a time while the background workers run, until every
 * payment is final and every event delivered; throws after `timeoutMs` of real time.
 */
export async function settle(admin: pg.Pool, clock: TestClock, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await admin.query<{ open: number; undelivered: number }>(
      `SELECT (SELECT count(*)::int FROM paystate_payments
               WHERE state NOT IN ('succeeded', 'failed', 'expired')) AS open,
              (SELECT count(*)::int FROM paystate_outbox WHERE delivered_at IS NULL) AS undelivered`,
    );
    if (rows[0]?.open === 0 && rows[0].undelivered === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`not settled within ${timeoutMs} ms: ${JSON.stringify(rows[0])}`);
    }
    clock.advance(HOUR);
    await sleep(100);
  }
}

export interface SettledChecks {
  readonly admin: pg.Pool;
  readonly instances: Instances;
  readonly answers: readonly Answer[];
  /** Card numbers used: never in a row, an event or an error message. */
  readonly cards: readonly string[];
  /** Error codes a client may be answered here. */
  readonly allowedCodes: readonly string[];
  /**
   * Whether `answers` holds every create (then no more payments may be stored than creates
   * answered `ok` or `outcome: 'unknown'`). Default true.
   */
  readonly allCreates?: boolean;
}

/**
 * What must hold once everything settled, whatever failed on the way:
 * - no defect logged, no answer outside `allowedCodes` (never `internal_error`, the 500);
 * - every payment final, asked of the acquirer once if it succeeded or was declined, else never;
 * - every payment a create answered `ok` is stored, every payment answered in a final state is
 *   stored in it (no lost write), and no more payments are stored than creates answered `ok` or
 *   `outcome: 'unknown'`;
 * - every stored event was published, each payment's first deliveries in its outbox order;
 * - no card number in any row, event or error message.
 */
export async function expectSettled(checks: SettledChecks): Promise<void> {
  const { admin, instances, answers } = checks;
  expect(instances.defects).toEqual([]);
  for (const answer of answers) {
    expect(checks.allowedCodes, `${answer.command}: ${answer.message ?? ''}`).toContain(answer.code);
    for (const card of checks.cards) expect(answer.message ?? '').not.toContain(card);
  }

  const { rows: payments } = await admin.query<{ id: string; state: InternalState; failure_reason: string | null }>(
    'SELECT id, state, failure_reason FROM paystate_payments',
  );
  for (const payment of payments) {
    expect(isFinalState(payment.state), `${payment.id} is ${payment.state}`).toBe(true);
    const asked = payment.state === 'succeeded' || payment.failure_reason === 'declined';
    expect(
      instances.acquirer.authorizeCalls(payment.id),
      `authorize calls of ${payment.id} (${payment.state}, ${payment.failure_reason ?? '-'})`,
    ).toBe(asked ? 1 : 0);
  }

  const stored = new Set(payments.map((payment) => payment.id));
  // No write answered `ok` was lost: a payment answered in a final state is stored in it.
  const stateOf = new Map(payments.map((payment) => [payment.id, payment.state]));
  for (const answer of answers) {
    if (answer.code !== 'ok' || answer.paymentId === undefined) continue;
    if (['succeeded', 'failed', 'expired'].includes(answer.state ?? '')) {
      expect(stateOf.get(answer.paymentId), `${answer.command} answered ${answer.paymentId} ${answer.state}`).toBe(
        answer.state,
      );
    }
  }
  const creates = answers.filter((answer) => answer.command.startsWith('create'));
  for (const answer of creates) {
    if (answer.code === 'ok') expect(stored.has(answer.paymentId ?? ''), `${answer.paymentId} stored`).toBe(true);
  }
  const mayExist = creates.filter((answer) => answer.code === 'ok' || answer.outcome === 'unknown').length;
  if (checks.allCreates ?? true) expect(payments.length).toBeLessThanOrEqual(mayExist);

  const { rows: outbox } = await admin.query<{ payment_id: string; event_id: string }>(
    'SELECT payment_id, event_id FROM paystate_outbox ORDER BY sequence',
  );
  const firstDeliveries = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const event of instances.sink.published) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    firstDeliveries.set(event.paymentId, [...(firstDeliveries.get(event.paymentId) ?? []), event.id]);
  }
  expect(seen.size).toBe(outbox.length);
  for (const id of stored) {
    const events = outbox.filter((row) => row.payment_id === id).map((row) => row.event_id);
    expect(firstDeliveries.get(id) ?? [], `events of ${id}`).toEqual(events);
  }

  const { rows: dump } = await admin.query<{ text: string }>(
    `SELECT row_to_json(p)::text AS text FROM paystate_payments p UNION ALL SELECT event::text FROM paystate_outbox`,
  );
  for (const row of dump) for (const card of checks.cards) expect(row.text).not.toContain(card);
}
