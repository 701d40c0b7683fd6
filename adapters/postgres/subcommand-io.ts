import type { Pool } from 'pg';
import { readSecretFile } from '../node/secret-file.js';
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

/** The options of a subcommand that name its database: `--database-url`, or the file that holds it. */
export const DATABASE_OPTIONS = {
  'database-url': { type: 'string' },
  'database-url-file': { type: 'string' },
} as const;

/** What `DATABASE_OPTIONS` read. */
export interface DatabaseOptionValues {
  readonly 'database-url'?: string | undefined;
  readonly 'database-url-file'?: string | undefined;
}

/**
 * Runs `work` on a pool of its own (`poolOptions`) on the database `--database-url` names, else
 * the one in the file `--database-url-file` names (kept out of the argument list, which `ps`
 * shows), else `DATABASE_URL`, and ends the pool afterwards. Both options given, an unreadable
 * file, or no database is a usage error; a blank URL is none (`pg` would fall back to the PG*
 * environment variables or localhost). Never prints the connection string.
 */
export async function withDatabase(
  io: MigrateCliIo,
  usage: string,
  values: DatabaseOptionValues,
  poolOptions: PostgresPoolOptions,
  work: (pool: Pool) => Promise<number>,
): Promise<number> {
  const file = values['database-url-file'];
  if (file !== undefined && values['database-url'] !== undefined) {
    return usageError(io, usage, 'Give --database-url or --database-url-file, not both.');
  }
  let url = values['database-url'] ?? io.env['DATABASE_URL'];
  if (file !== undefined) {
    const read = await readSecretFile('--database-url-file', file);
    if (read.isErr()) return usageError(io, usage, read.error);
    if (read.value === '') return usageError(io, usage, `No database: --database-url-file ${file} is empty.`);
    url = read.value;
  }
  if (url === undefined || url.trim() === '') {
    return usageError(io, usage, 'No database: pass --database-url or --database-url-file, or set DATABASE_URL.');
  }
  const pool = createPostgresPool(url, poolOptions);
  try {
    return await work(pool);
  } finally {
    await pool.end().catch(() => undefined);
  }
}
