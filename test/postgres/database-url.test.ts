import { describe, expect, it } from 'vitest';
import { closedPort } from '../support/closed-port.js';
import { createPostgresAdapters, createPostgresPaymentRepository } from '../../adapters/postgres/index.js';
import { checkDatabaseUrl } from '../../adapters/shared/database-url.js';
import { recordingLogger } from '../support/request-id-answers.js';

describe('checkDatabaseUrl', () => {
  it('names host:port/database of a Postgres URL, never its user or password', () => {
    const target = (url: string) => checkDatabaseUrl(url, '--database-url')._unsafeUnwrap().target;
    expect(target('postgres://shop:hunter2@db.internal:6543/orders')).toBe('db.internal:6543/orders');
    expect(target('postgresql://shop@db.internal/orders?sslmode=require')).toBe('db.internal:5432/orders');
    expect(target('postgres://shop:hunter2@[::1]:5433/my%20db')).toBe('[::1]:5433/my db');
    expect(target('postgres:///orders?host=/var/run/postgresql')).toBe('/var/run/postgresql:5432/orders');
    expect(target('postgres://shop:hunter2@db.internal')).toBe('db.internal:5432');
    expect(checkDatabaseUrl('postgres://u:p@h/d', 'x')._unsafeUnwrap().url).toBe('postgres://u:p@h/d');
  });

  it('refuses what is not a postgres:// or postgresql:// URL, naming the source and never the value', () => {
    for (const [value, said] of [
      ['localhost', 'DATABASE_URL is not a URL'],
      ['localhost:5432', 'DATABASE_URL is not a URL'],
      ['shop:hunter2@db.internal/orders', 'DATABASE_URL is not a URL'],
      ['postgres://shop:hunter2@db.internal:port/orders', 'DATABASE_URL is not a URL'],
      ['mysql://shop:hunter2@db.internal/orders', 'DATABASE_URL is a mysql: URL, not a Postgres one'],
      ['https://db.internal/', 'DATABASE_URL is a https: URL, not a Postgres one'],
    ] as const) {
      const refused = checkDatabaseUrl(value, 'DATABASE_URL')._unsafeUnwrapErr();
      expect(refused, value).toBe(
        `${said}: give a postgres:// or postgresql:// URL, such as postgres://user:password@host:5432/database`,
      );
    }
  });
});

// Found by a new user: a sandbox whose database could not be reached logged a warning that it
// could not release the outbox lease, which it never had, before the error that mattered.
describe('close() of adapters that never asked for the outbox lease', () => {
  it('has no lease to release: no statement, no warning, on a database never reached', async () => {
    const connectionString = `postgres://u:p@127.0.0.1:${await closedPort()}/x`;
    const logger = recordingLogger();
    const adapters = await createPostgresAdapters({ connectionString, migrate: false, logger });
    const repository = createPostgresPaymentRepository({ connectionString, logger });
    expect((await adapters.repository.load('payment_x')).isErr()).toBe(true);
    await Promise.all([adapters.close(), repository.close()]);
    expect(logger.logs).toEqual([]);
  });

  it('one that asked for it tries to release it, and says when it could not', async () => {
    const logger = recordingLogger();
    const repository = createPostgresPaymentRepository({
      connectionString: `postgres://u:p@127.0.0.1:${await closedPort()}/x`,
      logger,
    });
    expect((await repository.readOutbox({ now: Date.now(), limit: 10 })).isErr()).toBe(true);
    await repository.close();
    expect(logger.logs).toMatchObject([
      {
        level: 'warn',
        message: 'Postgres payment repository: close step failed',
        fields: { step: 'release the outbox lease' },
      },
    ]);
  });
});
