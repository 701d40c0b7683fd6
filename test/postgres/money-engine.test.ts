import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createMemoryCardVault } from '../../adapters/memory/index.js';
import { createCryptoIdGenerator, systemClock } from '../../adapters/node/index.js';
import { createPostgresPaymentRepository, createPostgresSandboxStores } from '../../adapters/postgres/index.js';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from '../../adapters/sandbox/index.js';
import { createPaymentEngine, type Client } from '../../src/index.js';
import { directRequest } from '../support/requests.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';

const db = useMigratedDatabase();

const client: Client = { id: 'client_pg', partnerId: 'partner_pg', profileIds: ['profile_pg'], pciDssCompliant: true };

/**
 * An engine instance on a pool of its own: another process, as far as the database can tell. Its
 * simulated acquirer keeps its records in the same database, so each instance's acquirer knows the
 * other's authorizations and refunds, as one real acquirer would.
 */
function instance() {
  const pool = new pg.Pool({ connectionString: db.connectionString, max: 4 });
  pool.on('error', () => undefined);
  const repository = createPostgresPaymentRepository({ pool });
  const stores = createPostgresSandboxStores(pool);
  const engine = createPaymentEngine({
    repository,
    acquirer: createSandboxAcquirer({ store: stores.authorizations, operationStore: stores.operations }),
    threeDS: createSandboxThreeDSProvider({ challengeUrl: () => 'https://acs.invalid/', secret: 'pg-money' }),
    cardVault: createMemoryCardVault(systemClock),
    clock: systemClock,
    ids: createCryptoIdGenerator(),
  });
  return { engine, close: async () => (await repository.close(), await pool.end()) };
}

describe('engine money operations on Postgres, two instances', () => {
  it('two concurrent refunds of 60 on a payment of 100: one refund, one amount_exceeds_refundable, every time', async () => {
    await resetTables(db.pool);
    const [one, two] = [instance(), instance()];
    try {
      for (let round = 0; round < 10; round++) {
        const body = directRequest('4242424242424242', { amount: 100 });
        // Each instance takes its turn at creating the payment: either may be the one that knows it first.
        const creator = round % 2 === 0 ? one : two;
        const payment = (await creator.engine.createPayment({ client, profileId: 'profile_pg', body }))._unsafeUnwrap();
        expect(payment.state).toBe('succeeded');
        const answers = await Promise.all(
          [one, two].map(({ engine }) =>
            engine.refundPayment({ paymentId: payment.id, profileId: 'profile_pg', body: { amount: 60 } }),
          ),
        );
        const refunds = answers.filter((answer) => answer.isOk());
        expect(refunds).toHaveLength(1);
        expect(refunds[0]?._unsafeUnwrap()).toMatchObject({ amount: 60, state: 'succeeded' });
        const refused = answers.find((answer) => answer.isErr());
        expect(refused?._unsafeUnwrapErr().code).toBe('amount_exceeds_refundable');
        const after = (await two.engine.getPayment({ paymentId: payment.id, profileId: 'profile_pg' }))._unsafeUnwrap();
        expect(after).toMatchObject({ amount_captured: 100, amount_refunded: 60 });
        const { rows } = await db.pool.query<{ kind: string; amount: string; state: string }>(
          'SELECT kind, amount::text, state FROM paystate_operations WHERE payment_id = $1',
          [payment.id],
        );
        expect(rows).toEqual([{ kind: 'refund', amount: '60', state: 'succeeded' }]);
      }
    } finally {
      await one.close();
      await two.close();
    }
  });
});
