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
   * Client-side limit of one statement, in ms (`pg`'s `query_timeout`): a statement without an
   * answer by then fails (retryably) and its connection is closed. It is for the connection that
   * goes dark (a firewall or NAT forgets it, a failed-over server's address vanishes; no FIN, no
   * RST), where the server cannot cancel anything and `pg` would wait as long as the kernel keeps
   * the socket (about 15 minutes on Linux), holding the pool connection. Default: the statement
   * time-out and 5 s more (15000), or none when the statement time-out is 0; 0 disables it.
   * `migrate` lifts it for its own statements (it lifts the statement time-out too).
   */
  readonly queryTimeoutMs?: number;
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
  /** True when the adapter created the pool (from a connection string), and so ends it. */
  readonly owned: boolean;
  /**
   * Ends the pool if the adapter created it; else does nothing. Once: later calls give the same
   * promise. `pool.end()` waits for every connection still checked out, so on a server that went
   * dark it may wait as long as a statement does (see `cut`).
   */
  close(): Promise<void>;
  /**
   * Closes at once, without waiting for the server, the connections of a pool the adapter created
   * that are checked out now (a statement waiting for its answer): their statements fail as a lost
   * connection, and the pool can end. For a `close` that gave up waiting. Does nothing to a host's
   * pool.
   */
  cut(): void;
}

/**
 * Creates a `pg.Pool` with the adapter's defaults. Errors of idle connections are handled
 * (a pool without an `error` listener would crash the process when the server restarts).
 */
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
  /**
   * Gives the connection back to the pool, or closes it when it failed while checked out or
   * `discard` is true. Once.
   */
  release(discard?: boolean): void;
}

/**
 * Checks a connection out of the pool and listens for its `error` event until it is released.
 * `pg-pool` takes its own listener off a client while it is checked out, and a `pg` client emits
 * `error` when its connection dies (a backend terminated, a server restart, an idle-in-transaction
 * time-out), also when a statement of it was running: unheard, that event is an uncaught exception
 * that ends the process. Here it only marks the connection failed: the statement under way (or
 * the next one) fails as well, and is classified as usual.
 */
export function checkOut(pool: Pool): Promise<CheckedOutClient> {
  // The callback form, not `await pool.connect()`: the pool takes its listener off in the same
  // synchronous step in which it calls back, and a promise would add ours only a microtask later.
  // A new connection is handed over from the handler of its first `ReadyForQuery`, and the rest of
  // that chunk (a `FATAL` from a backend terminated at once) is parsed before any microtask runs:
  // unheard, that `error` is an uncaught exception.
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

/**
 * A per-statement `query_timeout` that lifts the pool's client-side limit (`queryTimeoutMs`), for
 * statements that may rightly run long: `pg` takes 0 for "the connection's own", so the longest a
 * timer holds (about 24.8 days) stands in for none.
 */
export const NO_QUERY_TIMEOUT = 2_147_483_647;
