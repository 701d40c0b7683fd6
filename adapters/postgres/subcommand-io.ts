import type { Pool } from 'pg';
import { createPostgresPool, type PostgresPoolOptions } from './connection.js';

/** Where `runMigrateCli` writes and what environment it reads (for tests); default the process's. */
export interface MigrateCliIo {
  /** Receives each line of normal output. */
  readonly stdout: (line: string) => void;
  /** Receives each line of error output. */
  readonly stderr: (line: string) => void;
  /** Where `DATABASE_URL` is read. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The process's standard output, standard error and environment: what a subcommand uses unless told. */
export const PROCESS_IO: MigrateCliIo = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
};

/** Reports a usage error (`message`, then `usage`) on standard error; answers its exit code, 2. */
export function usageError(io: MigrateCliIo, usage: string, message: string): number {
  io.stderr(message);
  io.stderr(usage);
  return 2;
}

/**
 * Runs `work` on a pool of its own (`poolOptions`) on the database `--database-url` names
 * (`option`), else `DATABASE_URL`, and ends the pool afterwards. Without a database it is a usage
 * error; a blank URL is none (`pg` would fall back to the PG* environment variables or localhost).
 * Never prints the connection string.
 */
export async function withDatabase(
  io: MigrateCliIo,
  usage: string,
  option: string | undefined,
  poolOptions: PostgresPoolOptions,
  work: (pool: Pool) => Promise<number>,
): Promise<number> {
  const url = option ?? io.env['DATABASE_URL'];
  if (url === undefined || url.trim() === '') {
    return usageError(io, usage, 'No database: pass --database-url or set DATABASE_URL.');
  }
  const pool = createPostgresPool(url, poolOptions);
  try {
    return await work(pool);
  } finally {
    await pool.end().catch(() => undefined);
  }
}
