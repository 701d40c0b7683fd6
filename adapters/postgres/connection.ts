import pg, { type Pool, type PoolClient } from 'pg';

/** Settings for a pool the adapter creates from a connection string. */
export interface PostgresPoolOptions {
  /** Most connections the pool opens. Default 10. */
  readonly max?: number;
  /** How long to wait for a free connection before failing (retryably), in ms. Default 5000. */
  readonly connectionTimeoutMs?: number;
  /** Server-side limit of one statement, in ms (`statement_timeout`). Default 10000; 0 disables it. */
  readonly statementTimeoutMs?: number;
  /**
   * Client-side limit of one statement, in ms (`pg`'s `query_timeout`), for a connection gone dark.
   * Default the statement time-out plus 5 s, or none when that is 0; 0 disables it.
   */
  readonly queryTimeoutMs?: number;
  /** Closes connections idle for this long, in ms. Default 30000. */
  readonly idleTimeoutMs?: number;
  /** `application_name` shown in `pg_stat_activity`. Default `paystate`. */
  readonly applicationName?: string;
  /** Called when an idle pooled connection fails (the pool drops it); default: ignored. */
  readonly onIdleError?: (error: Error) => void;
}

/** A `pg.Pool` the host owns (never ended here), or a connection string for a pool the adapter creates and ends. */
export type PostgresConnectionOptions =
  { readonly pool: Pool } | { readonly connectionString: string; readonly poolOptions?: PostgresPoolOptions };

/** A pool and whether the adapter must end it. */
export interface ResolvedConnection {
  readonly pool: Pool;
  /** True when the adapter created the pool (from a connection string), and so ends it. */
  readonly owned: boolean;
  /** Ends a pool the adapter created (else nothing), once: later calls give the same promise. */
  close(): Promise<void>;
  /** Closes at once the busy connections of a pool the adapter created, for a `close` that gave up waiting. */
  cut(): void;
}

/** Creates a `pg.Pool` with the adapter's defaults and a listener for errors of idle connections. */
export function createPostgresPool(connectionString: string, options: PostgresPoolOptions = {}): Pool {
  const statementTimeoutMs = options.statementTimeoutMs ?? 10_000;
  const queryTimeoutMs = options.queryTimeoutMs ?? (statementTimeoutMs > 0 ? statementTimeoutMs + 5_000 : 0);
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: options.idleTimeoutMs ?? 30_000,
    statement_timeout: statementTimeoutMs,
    ...(queryTimeoutMs > 0 && { query_timeout: queryTimeoutMs }),
    application_name: options.applicationName ?? 'paystate',
  });
  const onIdleError = options.onIdleError ?? (() => undefined);
  pool.on('error', (error) => onIdleError(error));
  return pool;
}

/** The pool of `options`: the host's, or one created from the connection string (with `createPostgresPool`). */
export function resolveConnection(options: PostgresConnectionOptions): ResolvedConnection {
  if ('pool' in options)
    return { pool: options.pool, owned: false, close: async () => undefined, cut: () => undefined };
  const pool = createPostgresPool(options.connectionString, options.poolOptions);
  // The connections checked out now, for `cut`: the pool's own events, on the adapter's own pool.
  const busy = new Set<PoolClient>();
  pool.on('acquire', (client) => busy.add(client));
  pool.on('release', (_error, client) => busy.delete(client));
  let ended: Promise<void> | null = null;
  return {
    pool,
    owned: true,
    close: () => {
      ended ??= pool.end();
      return ended;
    },
    cut: () => {
      // `end` of a client with a statement under way destroys its socket at once (no goodbye
      // message that a dark server would never take); the statement fails, and the pool drops it.
      for (const client of busy) void client.end().catch(() => undefined);
    },
  };
}

/** A connection checked out of a pool for several statements (a transaction, a session lock). */
export interface CheckedOutClient {
  readonly client: PoolClient;
  /** Gives the connection back, or closes it when it failed while checked out or `discard`; once. */
  release(discard?: boolean): void;
}

/**
 * Checks a connection out and listens for its `error` event until it is released, which `pg-pool`
 * does not: unheard, a connection that dies while checked out ends the process (docs/postgres.md).
 */
export function checkOut(pool: Pool): Promise<CheckedOutClient> {
  // The callback form: the pool takes its listener off as it calls back, and a promise would add ours
  // a microtask too late for an `error` parsed in the same chunk.
  return new Promise((resolve, reject) => {
    pool.connect((error, client) => {
      if (error !== undefined && error !== null) {
        reject(error);
        return;
      }
      if (client === undefined) {
        reject(new Error('the pool gave no connection'));
        return;
      }
      let failed = false;
      const onError = (): void => {
        failed = true;
      };
      client.on('error', onError);
      let released = false;
      resolve({
        client,
        release: (discard = false) => {
          if (released) return;
          released = true;
          // The pool puts its own listener back (or closes the client) synchronously in `release`.
          client.release(failed || discard ? true : undefined);
          client.off('error', onError);
        },
      });
    });
  });
}

/** A `query_timeout` that lifts the pool's (`pg` takes 0 for the connection's own): the longest a timer holds. */
export const NO_QUERY_TIMEOUT = 2_147_483_647;
