import type { Pool } from 'pg';
import { createPostgresPool, type PostgresPoolOptions } from './connection.js';
import { checkDatabaseUrl, readSecretFile, usageLine, type CommandLineValues } from '../shared/index.js';

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

/** Reports a usage error of `command` on standard error in one line (`usageLine`); answers its exit code, 2. */
export function usageError(io: MigrateCliIo, command: string, message: string): number {
  io.stderr(usageLine(command, message));
  return 2;
}

/** The options of a subcommand that name its database: `--database-url`, or the file that holds it. */
export const DATABASE_OPTIONS = {
  'database-url': { type: 'string' },
  'database-url-file': { type: 'string' },
} as const;

/**
 * Runs `work` on a pool of its own on the database of `--database-url`, `--database-url-file` or
 * `DATABASE_URL`, with where it is (`host:port/database`); a bad or missing one is a usage error.
 * Never prints the connection string.
 */
export async function withDatabase(
  io: MigrateCliIo,
  command: string,
  values: CommandLineValues<typeof DATABASE_OPTIONS>,
  poolOptions: PostgresPoolOptions,
  work: (pool: Pool, target: string) => Promise<number>,
): Promise<number> {
  const file = values['database-url-file'];
  if (file !== undefined && values['database-url'] !== undefined) {
    return usageError(io, command, 'Give --database-url or --database-url-file, not both.');
  }
  let url = values['database-url'] ?? io.env['DATABASE_URL'];
  let source = values['database-url'] === undefined ? 'DATABASE_URL' : '--database-url';
  if (file !== undefined) {
    const read = await readSecretFile('--database-url-file', file);
    if (read.isErr()) return usageError(io, command, read.error);
    if (read.value === '') return usageError(io, command, `No database: --database-url-file ${file} is empty.`);
    url = read.value;
    source = `--database-url-file ${file}`;
  }
  if (url === undefined || url.trim() === '') {
    return usageError(io, command, 'No database: pass --database-url or --database-url-file, or set DATABASE_URL.');
  }
  const checked = checkDatabaseUrl(url, source);
  if (checked.isErr()) return usageError(io, command, checked.error);
  const pool = createPostgresPool(url, poolOptions);
  try {
    return await work(pool, checked.value.target);
  } finally {
    await pool.end().catch(() => undefined);
  }
}
