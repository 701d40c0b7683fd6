import { parseArgs } from 'node:util';
import { createPostgresPool } from './connection.js';
import { migrate } from './migrate.js';

/** Where `runMigrateCli` writes and what environment it reads (for tests); default the process's. */
export interface MigrateCliIo {
  /** Receives each line of normal output. */
  readonly stdout: (line: string) => void;
  /** Receives each line of error output. */
  readonly stderr: (line: string) => void;
  /** Where `DATABASE_URL` is read. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

const defaultIo: MigrateCliIo = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
};

const USAGE = `Usage: paystate migrate [--database-url <url>]

Brings the Postgres schema up to date. Safe to run from several instances at once.
The URL defaults to the DATABASE_URL environment variable.`;

/**
 * The `migrate` subcommand: `argv` are the arguments after `migrate`. Resolves to the exit
 * code (0 done, 1 failed, 2 usage error); never prints the connection string.
 */
export async function runMigrateCli(argv: readonly string[], io: MigrateCliIo = defaultIo): Promise<number> {
  let values: { 'database-url'?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { 'database-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    io.stderr(error instanceof Error ? error.message : String(error));
    io.stderr(USAGE);
    return 2;
  }
  if (values.help === true) {
    io.stdout(USAGE);
    return 0;
  }
  const url = values['database-url'] ?? io.env['DATABASE_URL'];
  // A blank URL is no database: `pg` would fall back to the PG* environment variables or localhost.
  if (url === undefined || url.trim() === '') {
    io.stderr('No database: pass --database-url or set DATABASE_URL.');
    io.stderr(USAGE);
    return 2;
  }
  const pool = createPostgresPool(url, { max: 1, statementTimeoutMs: 0 });
  try {
    const result = await migrate(pool, {
      onApplied: (migration) => io.stdout(`applied ${migration.version} ${migration.name}`),
      onWaiting: () => io.stdout('waiting for another migrator to finish…'),
    });
    if (result.isErr()) {
      io.stderr(`migrate failed (${result.error.code}): ${result.error.message}`);
      return 1;
    }
    const report = result.value;
    io.stdout(
      report.applied.length === 0
        ? `schema up to date at version ${report.version}`
        : `schema now at version ${report.version}`,
    );
    if (report.unknownVersions.length > 0) {
      io.stdout(`the database also has newer migrations: ${report.unknownVersions.join(', ')}`);
    }
    return 0;
  } finally {
    await pool.end().catch(() => undefined);
  }
}
