import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post } from '../http/support/client.js';
import {
  cardFields,
  createHostedPayment,
  formTarget,
  openPage,
  postForm,
  PCI_TOKEN,
  HOSTED_TOKEN,
} from '../hosted-page/support/page-session.js';
import { directRequest } from '../support/requests.js';
import { dumpDatabase } from './support/database-dump.js';
import { startTestDatabase, type TestDatabase } from './support/embedded-postgres.js';
import {
  on,
  sandboxFiles,
  startInstance,
  stopInstance,
  type SandboxFiles,
  type SandboxInstance,
} from './support/sandbox-instances.js';

/*
 * Several `paystate demo` processes on one Postgres act as one sandbox (decisions.md section 10):
 * a cardholder's requests land on whichever instance, and an instance may die at any time.
 */

const CHALLENGE_CARD = '4000000000003220';
const TIMEOUT_CARD = '4000000000000119';
const RETURN_URL = 'http://127.0.0.1:9/return?order=1';

let database: TestDatabase;
let files: SandboxFiles;
const instances: SandboxInstance[] = [];

async function instance(name: string): Promise<SandboxInstance> {
  const started = await startInstance(name, files);
  instances.push(started);
  return started;
}

/** How many cards the database's vault holds for a payment. */
async function vaultRows(paymentId: string): Promise<number> {
  const client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM paystate_card_vault WHERE payment_id = $1',
      [paymentId],
    );
    return rows[0]?.n ?? -1;
  } finally {
    await client.end();
  }
}

/** The payment as the API of `where` reads it. */
async function read(where: SandboxInstance, id: string, token = HOSTED_TOKEN) {
  const answer = await get(`${where.url}/v1/profiles/profile_webshop/payments/${id}`, token);
  expect(answer.status).toBe(200);
  return answer.json as { state: string; failure_reason?: string };
}

/** Reads the payment on `where` until it is in `state` (the sweeper's work), for up to `ms`. */
async function until(where: SandboxInstance, id: string, state: string, ms = 30_000, token = HOSTED_TOKEN) {
  const deadline = Date.now() + ms;
  for (;;) {
    const payment = await read(where, id, token);
    if (payment.state === state || Date.now() > deadline) return payment;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Creates a hosted payment on `created` and sends the challenge card from the page on `paid`: the challenge URL. */
async function startChallenge(created: SandboxInstance, paid: SandboxInstance) {
  const { payment, pageUrl } = await createHostedPayment(created.url, RETURN_URL);
  const page = await openPage(on(paid, pageUrl));
  expect(page.status).toBe(200);
  const answer = await postForm(
    formTarget(on(paid, pageUrl)),
    { token: page.token ?? '', csrf: page.csrf ?? '', ...cardFields(CHALLENGE_CARD) },
    page.cookie,
  );
  expect(answer.status).toBe(303);
  const challengeUrl = String(answer.headers['location']);
  expect(challengeUrl).toContain('/sandbox/issuer/challenge/');
  return { id: payment.id as string, challengeUrl };
}

/** Opens the issuer's page on `where` and answers it there, as the cardholder's browser would. */
async function answerChallenge(where: SandboxInstance, challengeUrl: string, decision: 'authorise' | 'refuse') {
  const url = on(where, challengeUrl);
  const page = await openPage(url);
  expect(page.status).toBe(200);
  expect(page.text).toContain('Confirm this payment');
  return postForm(url, { csrf: page.csrf ?? '', decision }, page.cookie);
}

describe('several sandbox instances on one Postgres, as separate processes', () => {
  let a: SandboxInstance;
  let b: SandboxInstance;
  let c: SandboxInstance;

  beforeAll(async () => {
    database = await startTestDatabase();
    files = sandboxFiles(database.connectionString, { sweep_interval_ms: 100, inquiry_first_delay_ms: 300 });
    // All at once, as an operator's orchestrator starts them: they migrate and import the same
    // config concurrently on a fresh database.
    [a, b, c] = await Promise.all([instance('A'), instance('B'), instance('C')]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(instances.map((started) => stopInstance(started, 'SIGKILL')));
    await database?.close();
  });

  it('takes a hosted page loaded on A and posted to B', async () => {
    const { payment, pageUrl } = await createHostedPayment(a.url, RETURN_URL);
    const page = await openPage(pageUrl);
    expect(page.status).toBe(200);
    const answer = await postForm(
      formTarget(on(b, pageUrl)),
      { token: page.token ?? '', csrf: page.csrf ?? '', ...cardFields('4242424242424242') },
      page.cookie,
    );
    expect(answer.status).toBe(303);
    expect(answer.headers['location']).toBe(RETURN_URL);
    expect((await read(c, payment.id)).state).toBe('succeeded');
  });

  it('completes on B a challenge started on A, and on A one started on C', async () => {
    const first = await startChallenge(a, a);
    expect(new URL(first.challengeUrl).port).toBe(new URL(a.url).port);
    const answered = await answerChallenge(b, first.challengeUrl, 'authorise');
    expect(answered.status).toBe(303);
    expect(answered.headers['location']).toBe(RETURN_URL);
    expect((await read(c, first.id)).state).toBe('succeeded');

    const second = await startChallenge(c, c);
    expect((await answerChallenge(a, second.challengeUrl, 'refuse')).status).toBe(303);
    const refused = await read(b, second.id);
    expect(refused).toMatchObject({ state: 'failed', failure_reason: 'authentication_refused' });
  });

  it('completes on B a challenge whose instance A was killed, with the card in the database encrypted', async () => {
    const doomed = await instance('A2');
    const { id, challengeUrl } = await startChallenge(doomed, doomed);

    // The card waits in the vault now: a dump holds no card number, no CVC field, and no vault key.
    expect(await vaultRows(id)).toBe(1);
    const dump = await dumpDatabase(database.connectionString);
    expect(dump.text).toContain(id);
    for (const forbidden of [CHALLENGE_CARD, '4000 0000 0000 3220', '"cvc"', '"number"']) {
      expect(dump.text, `${forbidden} in a dump (${dump.how})`).not.toContain(forbidden);
    }
    for (const { key } of files.secrets.card_vault_keys) {
      const bytes = Buffer.from(key, 'base64');
      for (const form of [key, bytes.toString('hex'), bytes.toString('base64url')]) {
        expect(dump.text, `a vault key in a dump (${dump.how})`).not.toContain(form);
      }
    }
    for (const secret of [files.secrets.csrf_secret, files.secrets.challenge_secret]) {
      expect(dump.text).not.toContain(secret);
    }

    await stopInstance(doomed, 'SIGKILL');
    const answered = await answerChallenge(b, challengeUrl, 'authorise');
    expect(answered.status).toBe(303);
    expect((await read(c, id)).state).toBe('succeeded');
    expect(await vaultRows(id)).toBe(0);
  });

  it("reconciles on B's sweeper every time-out card authorized on A before A was killed", async () => {
    const doomed = await instance('A3');
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const created = await post(
        `${doomed.url}/v1/profiles/profile_webshop/payments`,
        PCI_TOKEN,
        directRequest(TIMEOUT_CARD),
      );
      expect(created.status).toBe(201);
      expect(created.json.state).toBe('processing');
      ids.push(created.json.id as string);
    }
    await stopInstance(doomed, 'SIGKILL');
    for (const id of ids) {
      expect(await until(b, id, 'succeeded', 30_000, PCI_TOKEN)).toMatchObject({ state: 'succeeded' });
    }
    expect(c.process.child.exitCode).toBeNull();
  });
});
