import { err, ok, type Result } from 'neverthrow';
import type { Pool, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import type { PortFailure } from '../../src/ports/port-result.js';
import { closeTimeoutMs, poolCloser, type PoolCloseOptions } from './bounded-close.js';
import { asUnavailable, classifyStatementFailure, type PostgresFailure } from './classify-error.js';
import { checkOut, resolveConnection, type CheckedOutClient, type PostgresConnectionOptions } from './connection.js';

/** One SQL statement of the adapter, named so that `pg` prepares it once per connection. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/** Runs one statement; `unavailable` for any failure (`asUnavailable`). */
export type Run = <R extends QueryResultRow>(
  statement: Statement,
  values: readonly unknown[],
) => Promise<Result<QueryResult<R>, PortFailure<'unavailable'>>>;

/** Runs one statement of a transaction; throws what `pg` throws. */
export type Query = <R extends QueryResultRow>(
  statement: Statement,
  values: readonly unknown[],
) => Promise<QueryResult<R>>;

/** The `pg` query of `statement` with `values`: named (prepared once per connection) when `prepared`. */
export function statementQuery(statement: Statement, values: readonly unknown[], prepared: boolean): QueryConfig {
  return prepared
    ? { name: statement.name, text: statement.text, values: [...values] }
    : { text: statement.text, values: [...values] };
}

/**
 * Runs a statement on a connection it checks out itself, so a failure to get one is `notSent`
 * (`classifyStatementFailure`); a connection whose statement failed is closed (docs/postgres.md#errors).
 */
export async function runStatement<R extends QueryResultRow>(
  pool: Pool,
  statement: Statement,
  values: readonly unknown[],
  prepared: boolean,
): Promise<Result<QueryResult<R>, PostgresFailure>> {
  let connection: CheckedOutClient;
  try {
    connection = await checkOut(pool);
  } catch (error) {
    return err(classifyStatementFailure(error, 'connect'));
  }
  let failed = false;
  try {
    return ok(await connection.client.query<R>(statementQuery(statement, values, prepared)));
  } catch (error) {
    failed = true;
    return err(classifyStatementFailure(error, 'query'));
  } finally {
    connection.release(failed);
  }
}

/** `runStatement` on `pool` for a port whose only error is `unavailable`. */
export const runner =
  (pool: Pool, prepared: boolean): Run =>
  async <R extends QueryResultRow>(statement: Statement, values: readonly unknown[]) =>
    (await runStatement<R>(pool, statement, values, prepared)).mapErr(asUnavailable);

/**
 * Runs `work` in one transaction on one connection: committed when it answers ok, rolled back when
 * it answers an error or throws (then `unavailable`; `notSent` when no connection could be had).
 */
export async function inTransaction<T, E>(
  pool: Pool,
  prepared: boolean,
  work: (query: Query) => Promise<Result<T, E>>,
): Promise<Result<T, E | PortFailure<'unavailable'>>> {
  let checkedOut: CheckedOutClient;
  try {
    checkedOut = await checkOut(pool);
  } catch (error) {
    return err(asUnavailable(classifyStatementFailure(error, 'connect')));
  }
  const { client } = checkedOut;
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work((statement, values) => client.query(statementQuery(statement, values, prepared)));
    await client.query(result.isOk() ? 'COMMIT' : 'ROLLBACK');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    return err(asUnavailable(classifyStatementFailure(error, 'query')));
  } finally {
    checkedOut.release(broken);
  }
}

/** Options of a store on one pool: the connection, prepared statements (default true), `close()`'s bound. */
export type PoolStoreOptions = PostgresConnectionOptions & PoolCloseOptions & { readonly preparedStatements?: boolean };

/** A store's pool, its statement runner and its `close()` (`poolCloser`). */
export interface PoolStore {
  /** The pool the store runs on (its own when it was given a connection string). */
  readonly pool: Pool;
  readonly prepared: boolean;
  readonly run: Run;
  /** Ends a pool the store created, waiting at most `closeTimeoutMs` (default 5 s); never rejects. */
  close(): Promise<void>;
}

/** Opens the pool of a store named `what`; a RangeError for a bad `closeTimeoutMs`, before any pool is made. */
export function openPoolStore(options: PoolStoreOptions, what: string): PoolStore {
  const withinMs = closeTimeoutMs(options.closeTimeoutMs);
  const connection = resolveConnection(options);
  const prepared = options.preparedStatements ?? true;
  return {
    pool: connection.pool,
    prepared,
    run: runner(connection.pool, prepared),
    close: poolCloser(connection, { what, withinMs, logger: options.logger }),
  };
}
