import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCardVault, createTestClock } from '../../adapters/memory/index.js';
import { isFinalState } from '../../src/domain/payment-state.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { forkWorker, type Worker } from './support/fork-worker.js';
import { serveCardVault } from './support/ipc-card-vault.js';
import { useMigratedDatabase } from './support/migrated-database.js';
import { compliantClient, makePostgresEngine } from './support/postgres-engine.js';
import type { RaceOperation, RaceResult } from './support/race-worker.js';
import { ACQUIRER_CALLS_TABLE, authorizeCalls, createRecordingAcquirer } from './support/recording-acquirer.js';

/*
 * Several engine instances in separate processes race on the same payments: two cardholders
 * submitting the hosted form at once, a challenge accepted and refused at once, and a sweeper
 * whose clock has reached the deadlines expiring them at the same time.
 */

const db = useMigratedDatabase();
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const WORKERS = 3;
const ROUNDS = 8;
const PER_KIND = 6;
/** Hosted page and challenge both expire 10 minutes after creation, so one sweep finds both due. */
const TIMEOUT = 10 * MINUTE;

const workers: Worker[] = [];
const parentClock = createTestClock();
const vault = createMemoryCardVault(parentClock);

beforeAll(async () => {
  await db.pool.query(ACQUIRER_CALLS_TABLE);
  const started = await Promise.all(
    Array.from({ length: WORKERS }, (_, index) =>
      forkWorker('./race-worker.ts', {
        RACE_DATABASE_URL: db.connectionString,
        RACE_WORKER: `worker-${index}`,
        RACE_SEED: String(index + 1),
      }),
    ),
  );
  for (const worker of started) {
    serveCardVault(worker.child, vault);
    workers.push(worker);
  }
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
});

describe('engines in separate processes racing on the same payments', () => {
  it('end every payment in exactly one final state, authorized at most once, with events matching', async () => {
    const parent = makePostgresEngine({
      pool: db.pool,
      seed: 100,
      clock: parentClock,
      cardVault: vault,
      acquirer: createRecordingAcquirer({ pool: db.pool, caller: 'parent' }),
      options: { hostedPageTimeoutMs: TIMEOUT, challengeTimeoutMs: TIMEOUT },
    });
    const hostedIds: string[] = [];
    const challengedIds: string[] = [];
    const results: RaceResult[] = [];
    let requestId = 0;

    for (let round = 0; round < ROUNDS; round++) {
      const base = Date.UTC(2026, 0, 15, 12) + round * DAY;
      parentClock.set(base);
      const submits: RaceOperation[] = [];
      const accepts: RaceOperation[] = [];
      const refusals: RaceOperation[] = [];
      for (let index = 0; index < PER_KIND; index++) {
        const hosted = (
          await parent.engine.createPayment({
            client: compliantClient,
            profileId: 'profile_0001',
            body: hostedRequest(),
          })
        )._unsafeUnwrap();
        hostedIds.push(hosted.id);
        submits.push({
          kind: 'submit',
          paymentId: hosted.id,
          token: parent.hostedToken(hosted),
          card: '4242424242424242',
        });

        const challenged = (
          await parent.engine.createPayment({
            client: compliantClient,
            profileId: 'profile_0001',
            body: directRequest('4000000000003220'),
          })
        )._unsafeUnwrap();
        expect(challenged.next?.redirect).toContain('acs.sandbox.test');
        challengedIds.push(challenged.id);
        accepts.push({ kind: 'challenge', ...(await parent.challengeAnswer(challenged.id, 'authorise')) });
        refusals.push({ kind: 'challenge', ...(await parent.challengeAnswer(challenged.id, 'refuse')) });
      }

      // Round-robin roles: one worker's clock is at the deadline (it sweeps, and its own
      // submits and acceptances come too late); the others are a millisecond before it.
      const sweeper = round % WORKERS;
      const runs = workers.map((worker, index) => {
        const late = index === sweeper;
        const accepting = (index - sweeper + WORKERS) % WORKERS === 1;
        const operations: RaceOperation[] = late
          ? [{ kind: 'sweep' }, { kind: 'sweep' }, ...submits, ...accepts]
          : [...submits, ...(accepting ? accepts : refusals), { kind: 'sweep' }];
        return worker.request<{ results: RaceResult[] }>(
          { type: 'run', id: ++requestId, now: late ? base + TIMEOUT : base + TIMEOUT - 1, operations },
          'ran',
        );
      });
      for (const run of await Promise.all(runs)) results.push(...run.results);
    }

    // Losers get clean answers: a lost compare-and-set or a payment that moved on.
    const outcomes = new Map<string, number>();
    for (const result of results) outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
    for (const outcome of outcomes.keys()) expect(['ok', 'conflict', 'invalid_state']).toContain(outcome);
    expect((outcomes.get('conflict') ?? 0) + (outcomes.get('invalid_state') ?? 0)).toBeGreaterThan(0);

    const records = new Map<string, PaymentRecord>();
    for (const id of [...hostedIds, ...challengedIds]) {
      records.set(id, (await parent.engine.getPaymentRecord(id))._unsafeUnwrap());
    }
    const calls = await authorizeCalls(db.pool);
    const { rows: eventRows } = await db.pool.query<{ payment_id: string; event_type: string; state: string }>(
      `SELECT payment_id, event_type, event->'payment'->>'state' AS state FROM paystate_outbox ORDER BY sequence`,
    );
    const eventsOf = (id: string) => eventRows.filter((row) => row.payment_id === id);

    const finals = new Map<string, number>();
    for (const [id, record] of records) {
      expect(isFinalState(record.state), `${id} is ${record.state}`).toBe(true);
      finals.set(record.state, (finals.get(record.state) ?? 0) + 1);

      const authorized = calls.get(id) ?? 0;
      expect(authorized, `authorize calls of ${id}`).toBeLessThanOrEqual(1);
      expect(authorized).toBe(record.state === 'succeeded' ? 1 : 0);
      expect(record.authorization !== null).toBe(record.state === 'succeeded');

      const events = eventsOf(id);
      const types = events.map((event) => event.event_type);
      expect(types.filter((type) => type === 'payment.created')).toHaveLength(1);
      const terminal = events.filter((event) =>
        ['payment.succeeded', 'payment.failed', 'payment.expired'].includes(event.event_type),
      );
      expect(terminal, `terminal events of ${id}`).toHaveLength(1);
      expect(terminal[0]?.event_type).toBe(`payment.${record.state}`);
      expect(terminal[0]?.state).toBe(record.state);
      expect(types.at(-1)).toBe(`payment.${record.state}`);
      if (challengedIds.includes(id))
        expect(types.filter((type) => type === 'payment.action_required')).toHaveLength(1);
    }
    expect([...finals.values()].reduce((sum, count) => sum + count, 0)).toBe(ROUNDS * PER_KIND * 2);
    await parent.close();
  });
});
