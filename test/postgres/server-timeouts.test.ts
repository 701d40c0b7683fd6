import { describe, expect, it } from 'vitest';
import { classifyPostgresError, createPostgresPaymentRepository } from '../../adapters/postgres/index.js';
import { isConnectionError } from '../../adapters/postgres/classify-error.js';
import { directRequest } from '../support/requests.js';
import { holdTableLock, namedPool, waitForBackend } from './support/backends.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';
import { compliantClient, createDirect, makePostgresEngine } from './support/postgres-engine.js';

/*
 * Server-side time-outs hit by the adapter's statements while another session holds a lock:
 * `statement_timeout` (57014) and `lock_timeout` (55P03) cancel the statement, `transaction_timeout`
 * (PostgreSQL 17; 25P04) ends the session. Each leaves nothing written and is worth trying again.
 *
 * Found by the failure-injection review: `transaction_timeout`, which a DBA may set on the role and
 * which also limits the implicit transaction of a single statement, ended a statement that waited
 * for a lock with 25P04, and the adapter read it as class 25 (invalid transaction state), not
 * retryable: the engine did not try again and answered 503 where one more attempt succeeds. So
 * was 25P03 (idle_in_transaction_session_timeout), which ends the session as well.
 */

const db = useMigratedDatabase();

const serverVersion = async (): Promise<number> =>
  Number((await db.pool.query<{ v: string }>(`SELECT current_setting('server_version_num') AS v`)).rows[0]?.v);

describe('server-side time-outs hit by a statement that waits for a lock', () => {
  for (const [setting, code] of [
    ['statement_timeout=300', '57014'],
    ['lock_timeout=300', '55P03'],
    ['transaction_timeout=300', '25P04'],
  ] as const) {
    it(`${setting}: a write fails retryably (${code}), nothing is written`, async (context) => {
      if (setting.startsWith('transaction_timeout') && (await serverVersion()) < 170000) context.skip();
      await resetTables(db.pool);
      const pool = namedPool(db.connectionString, 'timeouts-victim', { max: 2, options: `-c ${setting}` });
      const harness = makePostgresEngine({ pool: db.pool, seed: 3 });
      const repository = createPostgresPaymentRepository({ pool });
      // A record to write: the intent of a direct payment, made by an engine and read back.
      const payment = await createDirect(harness);
      const record = (await harness.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
      await db.pool.query('TRUNCATE paystate_operations, paystate_payments, paystate_outbox');
      const lock = await holdTableLock(db.connectionString, 'paystate_payments', 'ACCESS EXCLUSIVE');
      try {
        const failure = (await repository.insert(record, []))._unsafeUnwrapErr();
        expect(failure).toMatchObject({ code: 'unavailable', retryable: true });
        expect(failure.message).toContain(`(${code})`);
      } finally {
        await lock.release();
      }
      expect((await db.pool.query('SELECT 1 FROM paystate_payments')).rowCount).toBe(0);
      await harness.close();
      await repository.close();
      await pool.end();
    });
  }

  it('transaction_timeout: the engine tries again, and the payment is made once the lock goes', async (context) => {
    if ((await serverVersion()) < 170000) context.skip();
    await resetTables(db.pool);
    const pool = namedPool(db.connectionString, 'timeouts-engine', {
      max: 2,
      options: '-c transaction_timeout=300',
    });
    const harness = makePostgresEngine({ pool, seed: 4, options: { retries: 2 } });
    const lock = await holdTableLock(db.connectionString, 'paystate_payments', 'ACCESS EXCLUSIVE');
    let created: Awaited<ReturnType<typeof harness.engine.createPayment>>;
    try {
      const creating = harness.engine.createPayment({
        client: compliantClient,
        profileId: 'profile_0001',
        body: directRequest('4242424242424242'),
      });
      // The first attempt waits for the lock until the server ends its session.
      const pid = await waitForBackend(db.pool, { applicationName: 'timeouts-engine', waiting: 'lock' });
      const deadline = Date.now() + 20_000;
      while ((await db.pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount !== 0) {
        if (Date.now() > deadline) throw new Error('transaction_timeout did not end the session');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await lock.release();
      created = await creating;
    } finally {
      await lock.release();
    }
    expect(created._unsafeUnwrap().state).toBe('succeeded');
    expect(harness.sandboxAcquirer.authorizeCalls(created._unsafeUnwrap().id)).toBe(1);
    expect(harness.repository.writes.inserts).toBeGreaterThanOrEqual(2);
    await harness.close();
    await pool.end();
  });

  it('25P03 and 25P04 end the session: a lost connection, retryable', () => {
    for (const code of ['25P03', '25P04']) {
      const error = Object.assign(new Error('terminating connection due to a time-out'), { code });
      expect(classifyPostgresError(error)).toMatchObject({ code: 'unavailable', retryable: true });
      expect(isConnectionError(error)).toBe(true);
    }
    // Other class 25 states stay what they were: not retryable.
    expect(classifyPostgresError(Object.assign(new Error('x'), { code: '25P02' }))).toMatchObject({ retryable: false });
  });
});
