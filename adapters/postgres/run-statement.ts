import { err, ok, type Result } from 'neverthrow';
import type { QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { classifyPostgresError, type PostgresFailure } from './classify-error.js';

/** One SQL statement of the adapter, named so that `pg` prepares it once per connection. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/** Something that runs queries: a pool or a checked-out client. */
export interface Queryable {
  query<R extends QueryResultRow>(config: QueryConfig): Promise<QueryResult<R>>;
}

/**
 * Runs a statement and classifies what it throws (`classifyPostgresError`). A single statement
 * is atomic on its own: it is written in full or not at all, also when the connection drops.
 */
export async function runStatement<R extends QueryResultRow>(
  db: Queryable,
  statement: Statement,
  values: readonly unknown[],
  prepared: boolean,
): Promise<Result<QueryResult<R>, PostgresFailure>> {
  try {
    const config: QueryConfig = prepared
      ? { name: statement.name, text: statement.text, values: [...values] }
      : { text: statement.text, values: [...values] };
    return ok(await db.query<R>(config));
  } catch (error) {
    return err(classifyPostgresError(error));
  }
}
