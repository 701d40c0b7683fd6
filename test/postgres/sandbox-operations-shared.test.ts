import { afterAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import {
  createPostgresAdapters,
  createPostgresSandboxStores,
  type PostgresAdapters,
} from '../../adapters/postgres/index.js';
import { createSandboxApp, processSandboxSecrets } from '../../adapters/sandbox-server/index.js';
import type { Client } from '../../src/ports/index.js';
import { directRequest } from '../support/requests.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';

// decisions.md section 10: the sandbox acquirer keeps its captures and refunds in Postgres, so a
// refund whose answer was lost on one instance is found by another instance's inquiry.

const db = useMigratedDatabase();
const opened: PostgresAdapters[] = [];
afterAll(async () => {
  for (const adapters of opened) await adapters.close();
});

const HOUR = 3_600_000;

describe('the sandbox acquirer on Postgres, two instances', () => {
  it('a refund timed out on A (card 4000000000007726) is settled by the inquiry of B', async () => {
    await resetTables(db.pool);
    const clock = createTestClock(Date.parse('2026-11-28T12:00:00Z'));
    const secrets = processSandboxSecrets(undefined);
    const [a, b] = await Promise.all(
      [1, 2].map(async () => {
        const adapters = await createPostgresAdapters({ pool: db.pool, migrate: false });
        opened.push(adapters);
        const { repository, idempotency, credentials } = adapters;
        const simulator = createPostgresSandboxStores(db.pool);
        return createSandboxApp({
          storage: { repository, idempotency, credentials, simulator },
          secrets,
          clock,
          baseUrl: () => 'http://pay.sandbox.test',
        });
      }),
    );
    if (a === undefined || b === undefined) throw new Error('two instances');
    const profileId = 'profile_webshop';
    const client: Client = {
      id: 'client_shared',
      partnerId: 'partner_sandbox',
      profileIds: [profileId],
      pciDssCompliant: true,
    };
    const body = directRequest('4000000000007726', { amount: 10_000, capture_method: 'manual' });
    const payment = (await a.engine.createPayment({ client, profileId, body }))._unsafeUnwrap();
    expect(payment.state).toBe('succeeded');
    const target = { paymentId: payment.id, profileId };
    expect((await a.engine.capturePayment({ ...target, body: { amount: 6_000 } }))._unsafeUnwrap().state).toBe(
      'succeeded',
    );
    const refund = (await a.engine.refundPayment({ ...target, body: { amount: 1_000 } }))._unsafeUnwrap();
    expect(refund.state).toBe('processing');
    for (let i = 0; i < 5; i += 1) {
      clock.advance(HOUR);
      if ((await b.engine.sweep())._unsafeUnwrap().stillUnknown === 0) break;
    }
    const settled = (await b.engine.getRefund({ ...target, operationId: refund.id }))._unsafeUnwrap();
    expect(settled.state).toBe('succeeded');
    expect((await a.engine.getPayment(target))._unsafeUnwrap()).toMatchObject({
      amount_captured: 6_000,
      amount_refunded: 1_000,
    });
  });
});
