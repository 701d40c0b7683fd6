import { err, ok, type Result } from 'neverthrow';
import type { Pool, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { classifyStatementFailure, type PostgresFailure } from './classify-error.js';
import { checkOut, type CheckedOutClient } from './connection.js';

/** One SQL statement of the adapter, named so that `pg` prepares it once per connection. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/** The `pg` query of `statement` with `values`: named (prepared once per connection) when `prepared`. */
export function statementQuery(statement: Statement, values: readonly unknown[], prepared: boolean): QueryConfig {
  return prepared
    ? { name: statement.name, text: statement.text, values: [...values] }
    : { text: statement.text, values: [...values] };
}

/**
 * Runs a statement on a connection of the pool and classifies what it throws
 * (`classifyStatementFailure`). A single statement is atomic on its own: it is written in full or
 * not at all, also when the connection drops.
 *
 * It checks the connection out itself (as `pool.query` does inside) so that it knows where a
 * failure came from: one of getting a connection (refused, none free within the pool's
 * `connectionTimeoutMillis`, the login refused, the pool ended) came before the statement was
 * handed to a connection, and is marked `notSent`; one after it may have come after the server
 * ran the statement, and is not (unless the error itself says otherwise). As with `pool.query`,
 * a connection whose statement failed is closed rather than given back, and its `error` event is
 * listened to while it is checked out.
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
