import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPostgresPool } from '../../adapters/postgres/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { useMigratedDatabase } from './support/migrated-database.js';
import { answerOf, engineInstances, expectSettled, settle, tally, type Answer } from './support/multi-instance.js';
import { compliantClient, type PostgresEngineHarness } from './support/postgres-engine.js';

/*
 * The server stopped (fast shutdown: every session terminated, then connections refused) and
 * started again while two engine instances take commands and run their background workers, on
 * pools the adapter creates (`createPostgresPool`). While it is down every command answers a
 * classified `unavailable`; once it is back the same pools and engines work again, without a
 * restart of theirs; and once the sweepers have run every invariant holds (`expectSettled`).
 * Needs the embedded server (a `DATABASE_URL` server cannot be restarted by the test).
 */

const db = useMigratedDatabase();
const external = (process.env['DATABASE_URL'] ?? '') !== '';
const CARDS = ['4242424242424242', '4000000000000119'];

async function until(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

describe.skipIf(external)('the server restarts under two engine instances', () => {
  it('answers unavailable while it is down, works again once it is up, and loses nothing', async () => {
    const control = db.database.server;
    if (control === null) throw new Error('needs the embedded server');
    const pools: pg.Pool[] = [0, 1].map((index) =>
      createPostgresPool(db.connectionString, {
        max: 4,
        connectionTimeoutMs: 1_000,
        applicationName: `restart-${index}`,
      }),
    );
    const group = engineInstances(pools, { retries: 2, storageMs: 2_000 });
    group.startWorkers(20);

    const answers: Answer[] = [];
    // Where the server was when each command started and ended.
    type Phase = 'up' | 'down' | 'restarted';
    const phases: { readonly start: Phase; readonly end: Phase; readonly answer: Answer }[] = [];
    let phase: Phase = 'up';
    let running = true;
    const load = group.instances.map(async (instance: PostgresEngineHarness, index) => {
      for (let count = 0; running; count++) {
        const start = phase;
        const body = count % 3 === 2 ? hostedRequest() : directRequest(CARDS[(count + index) % CARDS.length] ?? '');
        const result = await instance.engine.createPayment({
          client: compliantClient,
          profileId: 'profile_0001',
          body,
        });
        const answer = answerOf('create', result);
        answers.push(answer);
        phases.push({ start, end: phase, answer });
        await sleep(5);
      }
    });
    const count = (code: string, start: Phase, end: Phase) =>
      phases.filter((entry) => entry.start === start && entry.end === end && entry.answer.code === code).length;

    let stopped = false;
    try {
      await until('payments created before the stop', () => count('ok', 'up', 'up') >= 10);
      stopped = true;
      await control.stop();
      phase = 'down';
      await until('unavailable while the server is down', () => count('unavailable', 'down', 'down') >= 6);
      // Nothing started and answered while the server was down succeeded.
      expect(count('ok', 'down', 'down')).toBe(0);
      phase = 'restarted';
      await control.start();
      stopped = false;
      await until('payments created after the restart', () => count('ok', 'restarted', 'restarted') >= 20);
    } finally {
      running = false;
      await Promise.all(load);
      if (stopped) await control.start();
    }

    await settle(db.pool, group.clock);
    await group.close();
    for (const pool of pools) await pool.end();
    console.log({ published: group.sink.published.length, answers: tally(answers) });
    await expectSettled({
      admin: db.pool,
      instances: group,
      answers,
      cards: CARDS,
      allowedCodes: ['ok', 'unavailable'],
    });
  });
});
