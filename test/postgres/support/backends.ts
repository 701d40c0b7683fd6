import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/*
 * Failure injection on a real server: find the backend of a statement in flight, kill it from
 * another session, hold a table lock so that statements wait half-way.
 */

/** A pool of a test's own, named in `pg_stat_activity` by `application_name`, its idle errors ignored. */
export function namedPool(connectionString: string, applicationName: string, options: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString, application_name: applicationName, ...options });
  pool.on('error', () => undefined);
  return pool;
}

export interface BackendQuery {
  /** Only backends of this `application_name`. */
  readonly applicationName: string;
  /** Only backends whose current query contains this text. */
  readonly queryContains?: string;
  /** Only backends waiting for a lock (true) or idle between statements (`idle`). */
  readonly waiting?: 'lock' | 'idle';
}

/**
 * The pid of a backend of this database matching `query`, once there is one (polled every 10 ms,
 * for up to `timeoutMs`, default 20 s); throws when none shows up.
 */
export async function waitForBackend(admin: pg.Pool, query: BackendQuery, timeoutMs = 20_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = $1
         AND ($2::text IS NULL OR position($2 in query) > 0)
         AND ($3::text IS NULL
              OR ($3 = 'lock' AND wait_event_type = 'Lock')
              OR ($3 = 'idle' AND state = 'idle'))
       ORDER BY backend_start LIMIT 1`,
      [query.applicationName, query.queryContains ?? null, query.waiting ?? null],
    );
    const pid = rows[0]?.pid;
    if (pid !== undefined) return pid;
    if (Date.now() > deadline) throw new Error(`no backend matching ${JSON.stringify(query)} within ${timeoutMs} ms`);
    await sleep(10);
  }
}

/** Kills a backend (`pg_terminate_backend`) and waits until it is gone. */
export async function terminateBackend(admin: pg.Pool, pid: number): Promise<void> {
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  const deadline = Date.now() + 20_000;
  while ((await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount !== 0) {
    if (Date.now() > deadline) throw new Error(`backend ${pid} did not end`);
    await sleep(10);
  }
}

/** A session holding a table lock in an open transaction until `release()`. */
export interface HeldLock {
  release(): Promise<void>;
}

/** Takes `LOCK TABLE … IN <mode> MODE` in a transaction of a connection of its own. */
export async function holdTableLock(connectionString: string, table: string, mode: string): Promise<HeldLock> {
  const client = new pg.Client({ connectionString, application_name: 'paystate-lock-holder' });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${client.escapeIdentifier(table)} IN ${mode} MODE`);
  let released: Promise<void> | null = null;
  return {
    release: () => {
      released ??= client
        .query('ROLLBACK')
        .then(() => client.end())
        .catch(() => undefined);
      return released;
    },
  };
}

/**
 * Records what reaches `process.on('uncaughtException')` while it is installed: an `error` event
 * nobody listens to (a `pg` client whose connection dies while checked out of its pool without a
 * listener) would otherwise end the host process.
 */
export function recordUncaught(): { readonly errors: unknown[]; stop(): void } {
  const errors: unknown[] = [];
  const listener = (error: unknown) => void errors.push(error);
  process.on('uncaughtException', listener);
  return { errors, stop: () => void process.off('uncaughtException', listener) };
}
