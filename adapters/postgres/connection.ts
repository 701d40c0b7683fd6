import pg, { type Pool } from 'pg';

/** Settings for a pool the adapter creates from a connection string. */
export interface PostgresPoolOptions {
  /** Most connections the pool opens. Default 10. */
  readonly max?: number;
  /** How long to wait for a free connection before failing (retryably), in ms. Default 5000. */
  readonly connectionTimeoutMs?: number;
  /** Server-side limit of one statement, in ms (`statement_timeout`). Default 10000; 0 disables it. */
  readonly statementTimeoutMs?: number;
  /** Closes connections idle for this long, in ms. Default 30000. */
  readonly idleTimeoutMs?: number;
  /** `application_name` shown in `pg_stat_activity`. Default `paystate`. */
  readonly applicationName?: string;
  /**
   * Called when an idle pooled connection fails (server restart, network loss). The pool drops
   * the connection and opens a new one when needed; default: ignored.
   */
  readonly onIdleError?: (error: Error) => void;
}

/**
 * Where an adapter gets its connections: a `pg.Pool` the host owns (the adapter never ends
 * it), or a connection string for a pool the adapter creates and ends on `close()`.
 */
export type PostgresConnectionOptions =
  { readonly pool: Pool } | { readonly connectionString: string; readonly poolOptions?: PostgresPoolOptions };

/** A pool and whether the adapter must end it. */
export interface ResolvedConnection {
  readonly pool: Pool;
  /** Ends the pool if the adapter created it; else does nothing. */
  close(): Promise<void>;
}

/**
 * Creates a `pg.Pool` with the adapter's defaults. Errors of idle connections are handled
 * (a pool without an `error` listener would crash the process when the server restarts).
 */
export function createPostgresPool(connectionString: string, options: PostgresPoolOptions = {}): Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: options.idleTimeoutMs ?? 30_000,
    statement_timeout: options.statementTimeoutMs ?? 10_000,
    application_name: options.applicationName ?? 'paystate',
  });
  const onIdleError = options.onIdleError ?? (() => undefined);
  pool.on('error', (error) => onIdleError(error));
  return pool;
}

export function resolveConnection(options: PostgresConnectionOptions): ResolvedConnection {
  if ('pool' in options) return { pool: options.pool, close: async () => undefined };
  const pool = createPostgresPool(options.connectionString, options.poolOptions);
  let ended: Promise<void> | null = null;
  return {
    pool,
    close: () => {
      ended ??= pool.end();
      return ended;
    },
  };
}
