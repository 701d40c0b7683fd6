import { createServer, type AddressInfo } from 'node:net';
import pg, { type Pool } from 'pg';
import { describe, expect, it, vi } from 'vitest';
import {
  asUnavailable,
  classifyPostgresError,
  classifyStatementFailure,
  isNotSentError,
} from '../../adapters/postgres/index.js';
import { runStatement } from '../../adapters/postgres/run-statement.js';

/*
 * When a failed statement certainly never reached the server (`notSent`), and when it may have:
 * only then can the engine answer a plain `unavailable` instead of "the payment may exist". Being
 * wrong the one way sends clients to reconcile for nothing; the other way lets them create a
 * second payment, so anything after the statement was handed to a connection counts as sent.
 */

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isNotSentError: errors that by themselves say nothing was sent', () => {
  it.each([
    ['refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['unknown host', withCode('getaddrinfo ENOTFOUND db.internal', 'ENOTFOUND')],
    ['name lookup failing for now', withCode('getaddrinfo EAI_AGAIN db.internal', 'EAI_AGAIN')],
    ['no free connection in time (pg-pool)', new Error('timeout exceeded when trying to connect')],
    ['no new connection in time (pg-pool)', new Error('Connection terminated due to connection timeout')],
    ['the pool ended', new Error('Cannot use a pool after calling end on the pool')],
    ['a broken client (pg)', new Error('Client has encountered a connection error and is not queryable')],
    ['a closed client (pg)', new Error('Client was closed and is not queryable')],
  ])('%s', (_name, error) => {
    expect(isNotSentError(error)).toBe(true);
    expect(classifyStatementFailure(error, 'query')).toMatchObject({ code: 'unavailable', notSent: true });
  });

  it.each([
    ['a reset', withCode('read ECONNRESET', 'ECONNRESET')],
    ['a broken pipe', withCode('write EPIPE', 'EPIPE')],
    ['a socket time-out', withCode('read ETIMEDOUT', 'ETIMEDOUT')],
    ['an unreachable host (also said of an open connection)', withCode('EHOSTUNREACH', 'EHOSTUNREACH')],
    ['the connection lost', new Error('Connection terminated unexpectedly')],
    ['the connection ended', new Error('Connection terminated')],
    ['no answer in time (query_timeout)', new Error('Query read timeout')],
    ['the server shutting down (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['a statement time-out (57014)', withCode('canceling statement due to statement timeout', '57014')],
    ['a server error whose text quotes a pg message', withCode('Client was closed and is not queryable', 'P0001')],
    ['something else', new Error('boom')],
    ['not an error', 'Connection refused'],
  ])('not %s', (_name, error) => {
    expect(isNotSentError(error)).toBe(false);
    expect(classifyStatementFailure(error, 'query')).not.toHaveProperty('notSent');
  });

  it('a failure to get a connection is not sent, whatever it is', () => {
    for (const error of [
      new Error('Connection terminated unexpectedly'),
      withCode('password authentication failed for user "paystate"', '28P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('sorry, too many clients already', '53300'),
    ]) {
      expect(classifyStatementFailure(error, 'connect')).toEqual({ ...classifyPostgresError(error), notSent: true });
    }
    // classifyPostgresError itself says nothing of it: its table is unchanged.
    expect(classifyPostgresError(withCode('connect ECONNREFUSED', 'ECONNREFUSED'))).not.toHaveProperty('notSent');
  });

  it('asUnavailable keeps it, and adds it nowhere', () => {
    const refused = classifyStatementFailure(withCode('connect ECONNREFUSED', 'ECONNREFUSED'), 'connect');
    expect(asUnavailable(refused)).toEqual({
      code: 'unavailable',
      message: refused.message,
      retryable: true,
      notSent: true,
    });
    const lost = classifyStatementFailure(new Error('Connection terminated unexpectedly'), 'query');
    expect(asUnavailable(lost)).not.toHaveProperty('notSent');
  });

  it('names an ended pool', () => {
    expect(classifyPostgresError(new Error('Cannot use a pool after calling end on the pool'))).toEqual({
      code: 'unavailable',
      message: 'The Postgres pool has been ended (closed)',
      retryable: false,
    });
  });
});

const STATEMENT = { name: 'paystate_test_statement', text: 'SELECT 1' };

/** A pool whose `connect` does what `connect` says, handing out a client whose `query` does what `query` says. */
function fakePool(connect: 'fails' | 'works', query?: () => Promise<unknown>) {
  const release = vi.fn();
  const client = { on: vi.fn(), off: vi.fn(), release, query: vi.fn(query) };
  // pg-pool's callback form, which checkOut uses (it listens for errors in the callback itself).
  const pool = {
    connect: (callback: (error: Error | undefined, given?: typeof client) => void) => {
      if (connect === 'fails') callback(new Error('Connection terminated unexpectedly'));
      else callback(undefined, client);
    },
  };
  return { pool: pool as unknown as Pool, client, release };
}

describe('runStatement: where the failure came from', () => {
  it('getting a connection failed (even as a lost connection): notSent, and no statement was run', async () => {
    const { pool, client } = fakePool('fails');
    const result = await runStatement(pool, STATEMENT, [], true);
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'unavailable', retryable: true, notSent: true });
    expect(client.query).not.toHaveBeenCalled();
  });

  it('the connection lost after the statement was handed to it: may have been sent; the connection is dropped', async () => {
    const { pool, release } = fakePool('works', () => Promise.reject(new Error('Connection terminated unexpectedly')));
    const result = await runStatement(pool, STATEMENT, [], true);
    const failure = result._unsafeUnwrapErr();
    expect(failure).toMatchObject({ code: 'unavailable', retryable: true });
    expect(failure).not.toHaveProperty('notSent');
    expect(release).toHaveBeenCalledWith(true);
  });

  it('an answer: given back to the pool', async () => {
    const { pool, release, client } = fakePool('works', () => Promise.resolve({ rows: [{ one: 1 }], rowCount: 1 }));
    const result = await runStatement(pool, STATEMENT, [7], true);
    expect(result._unsafeUnwrap().rows).toEqual([{ one: 1 }]);
    expect(client.query).toHaveBeenCalledWith({ name: STATEMENT.name, text: STATEMENT.text, values: [7] });
    expect(release).toHaveBeenCalledWith(undefined);
  });

  it('a real pool on a port nobody listens on: refused, notSent', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const pool = new pg.Pool({ connectionString: `postgres://u:p@127.0.0.1:${port}/db`, max: 1 });
    pool.on('error', () => undefined);
    const result = await runStatement(pool, STATEMENT, [], false);
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'unavailable', retryable: true, notSent: true });
    await pool.end();
    // And once the pool has ended: nothing is sent either.
    const ended = await runStatement(pool, STATEMENT, [], false);
    expect(ended._unsafeUnwrapErr()).toMatchObject({ retryable: false, notSent: true });
  });
});
