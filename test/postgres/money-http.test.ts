import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresAdapters, createPostgresSandboxStores } from '../../adapters/postgres/index.js';
import {
  BUNDLED_SANDBOX_CONFIG,
  processSandboxSecrets,
  startSandboxServer,
} from '../../adapters/sandbox-server/index.js';
import { directRequest } from '../support/requests.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';

// decisions.md section 8 on Postgres, over real sockets: two sandbox instances on one database;
// two refunds of 60 on a payment of 100 (and two captures of 60), one sent to each instance at
// once: one 201 and one 409, never two, round after round.

const db = useMigratedDatabase();
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

const TOKEN = 'sandbox_pci_compliant_token';
const COLLECTION = '/v1/profiles/profile_webshop/payments';
const ROUNDS = 10;

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('money operations over HTTP, two instances on one Postgres', () => {
  it(`concurrent refunds and captures of 60 on 100: one 201 and one 409 (${ROUNDS} rounds each)`, async () => {
    await resetTables(db.pool);
    const secrets = processSandboxSecrets(undefined);
    const [a, b] = await Promise.all(
      [1, 2].map(async () => {
        const adapters = await createPostgresAdapters({ pool: db.pool, migrate: false });
        const { repository, idempotency, credentials } = adapters;
        const simulator = createPostgresSandboxStores(db.pool);
        const server = await startSandboxServer({
          port: 0,
          secrets,
          rateLimit: false,
          storage: { repository, idempotency, credentials, simulator },
        });
        closers.push(
          () => server.close(),
          () => adapters.close(),
        );
        return { server, credentials };
      }),
    );
    if (a === undefined || b === undefined) throw new Error('two instances');
    (await a.credentials.importConfig(BUNDLED_SANDBOX_CONFIG))._unsafeUnwrap();
    for (let round = 0; round < ROUNDS; round += 1) {
      const created = await post(`${a.server.url}${COLLECTION}`, directRequest('4242424242424242', { amount: 100 }));
      expect(created.status).toBe(201);
      const refunds = `${COLLECTION}/${String(created.json['id'])}/refunds`;
      const answers = await Promise.all([
        post(`${a.server.url}${refunds}`, { amount: 60 }),
        post(`${b.server.url}${refunds}`, { amount: 60 }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect(answers.find((answer) => answer.status === 409)?.json['code']).toBe('amount_exceeds_refundable');

      const manual = await post(
        `${b.server.url}${COLLECTION}`,
        directRequest('4242424242424242', { amount: 100, capture_method: 'manual' }),
      );
      const captures = `${COLLECTION}/${String(manual.json['id'])}/captures`;
      const captured = await Promise.all([
        post(`${a.server.url}${captures}`, { amount: 60, final: false }),
        post(`${b.server.url}${captures}`, { amount: 60, final: false }),
      ]);
      expect(captured.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect(captured.find((answer) => answer.status === 409)?.json['code']).toBe('amount_exceeds_capturable');
    }
    const { rows } = await db.pool.query<{ kind: string; count: string }>(
      'SELECT kind, count(*)::text AS count FROM paystate_operations GROUP BY kind ORDER BY kind',
    );
    expect(rows).toEqual([
      { kind: 'capture', count: String(ROUNDS) },
      { kind: 'refund', count: String(ROUNDS) },
    ]);
  }, 120_000);
});
