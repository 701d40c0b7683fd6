import { setTimeout as sleep } from 'node:timers/promises';
import type { Result } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentError } from '../../src/index.js';
import { cardSubmission, directRequest, hostedRequest } from '../support/requests.js';
import { namedPool } from './support/backends.js';
import { useMigratedDatabase } from './support/migrated-database.js';
import { answerOf, engineInstances, expectSettled, settle, tally, type Answer } from './support/multi-instance.js';
import { compliantClient, type PostgresEngineHarness } from './support/postgres-engine.js';
import type pg from 'pg';

/*
 * Three engine instances (separate pools, background workers and repository instance ids) on one
 * database, racing on the same payments (the hosted form submitted through two instances at once,
 * a challenge accepted through one and refused through another, the sweepers and outbox readers
 * of all three) while another session kills their backends at random: in the middle of creates,
 * card submissions, outcome writes, sweeps, claims and outbox reads, and idle pooled connections
 * too. Once the killing stops and the sweepers have run, every invariant holds
 * (`expectSettled`): nothing authorized twice, no write or event lost, no event out of order,
 * every payment final, every answer a classified error.
 */

const db = useMigratedDatabase();
const ROUNDS = 8;
const PER_KIND = 6;
const MINUTE = 60_000;
/** Approved; challenged; approved on the hosted page; declined; timed out, approved on inquiry. */
const CARDS = ['4242424242424242', '4000000000003220', '5555555555554444', '4000000000000002', '4000000000000119'];
const DIRECT = ['4242424242424242', '4000000000000002', '4000000000000119'];

let admin: pg.Pool;
beforeAll(() => {
  admin = namedPool(db.connectionString, 'chaos-admin', { max: 4 });
});
afterAll(async () => {
  await admin.end();
});

async function chaos(retries: number): Promise<void> {
  await admin.query(`TRUNCATE paystate_operations, paystate_payments, paystate_outbox;
    UPDATE paystate_outbox_lease SET holder = NULL, held_until = NULL`);
  const pools = [0, 1, 2].map((index) =>
    namedPool(db.connectionString, `chaos-${index}`, { max: 4, connectionTimeoutMillis: 3_000 }),
  );
  const group = engineInstances(pools, { retries });
  const [first, second, third] = group.instances as [
    PostgresEngineHarness,
    PostgresEngineHarness,
    PostgresEngineHarness,
  ];
  group.startWorkers(15);

  let killing = true;
  let kills = 0;
  const killer = (async () => {
    for (let round = 0; killing; round++) {
      // Mostly statements in flight; every fifth round any connection, idle ones in the pools too.
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND application_name LIKE 'chaos-_'
           AND (state = 'active' OR $1::boolean)
         ORDER BY random() LIMIT 2`,
        [round % 5 === 0],
      );
      kills += rowCount ?? 0;
      await sleep(3 + (round % 7));
    }
  })();

  const answers: Answer[] = [];
  const record =
    (command: string) =>
    <T extends { readonly id: string; readonly state: string }>(result: Result<T, PaymentError>) => {
      answers.push(answerOf(command, result));
      return result;
    };
  const create = async (instance: PostgresEngineHarness, command: string, body: Record<string, unknown>) =>
    record(command)(await instance.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body }));

  for (let round = 0; round < ROUNDS; round++) {
    const hosted: { id: string; token: string }[] = [];
    const challenged: string[] = [];
    const creates: Promise<unknown>[] = [];
    for (let index = 0; index < PER_KIND; index++) {
      const creator = group.instances[index % 3] as PostgresEngineHarness;
      creates.push(
        create(creator, 'create hosted', hostedRequest()).then((result) => {
          if (result.isOk()) hosted.push({ id: result.value.id, token: creator.hostedToken(result.value) });
        }),
        create(creator, 'create challenged', directRequest('4000000000003220')).then((result) => {
          if (result.isOk() && result.value.next?.redirect !== undefined) challenged.push(result.value.id);
        }),
        create(creator, 'create direct', directRequest(DIRECT[index % DIRECT.length] ?? '')),
        // Never paid: the sweepers expire it.
        create(creator, 'create abandoned', hostedRequest()),
      );
    }
    await Promise.all(creates);
    const races: Promise<unknown>[] = [];
    for (const payment of hosted) {
      for (const instance of [second, third]) {
        races.push(
          (async () =>
            record('submit')(
              await instance.engine.submitCard({
                paymentId: payment.id,
                token: payment.token,
                body: cardSubmission('5555555555554444'),
              }),
            ))(),
        );
      }
    }
    for (const id of challenged) {
      // Signed by the issuer (no database involved); each instance verifies it.
      const [accept, refuse] = await Promise.all([
        first.challengeAnswer(id, 'authorise').catch(() => null),
        first.challengeAnswer(id, 'refuse').catch(() => null),
      ]);
      if (accept !== null) races.push((async () => record('accept')(await second.engine.completeChallenge(accept)))());
      if (refuse !== null) races.push((async () => record('refuse')(await third.engine.completeChallenge(refuse)))());
    }
    await Promise.all(races);
    group.clock.advance(MINUTE);
  }
  killing = false;
  await killer;
  await settle(admin, group.clock);
  await group.close();
  for (const pool of pools) await pool.end();

  console.log({ retries, kills, published: group.sink.published.length, answers: tally(answers) });
  expect(kills).toBeGreaterThan(0);
  // Two instances answering one payment at once: one of them loses.
  expect(
    answers.filter((answer) => answer.code === 'conflict' || answer.code === 'invalid_state').length,
  ).toBeGreaterThan(0);
  await expectSettled({
    admin,
    instances: group,
    answers,
    cards: CARDS,
    allowedCodes: ['ok', 'conflict', 'invalid_state', 'unavailable'],
  });
}

describe('three engines on one database while their backends are killed', () => {
  it('with the engine retrying (retries 2): every invariant holds', async () => {
    await chaos(2);
  });

  it('without retries, so that killed writes reach the client as unavailable: every invariant holds', async () => {
    await chaos(0);
  });
});
