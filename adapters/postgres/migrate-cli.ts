import { atDatabase, parseCommandLine } from '../shared/index.js';
import { migrate } from './migrate.js';
import { DATABASE_OPTIONS, PROCESS_IO, usageError, withDatabase, type MigrateCliIo } from './subcommand-io.js';

export type { MigrateCliIo } from './subcommand-io.js';

const COMMAND = 'paystate migrate';

const USAGE = `Usage: paystate migrate [--database-url <url> | --database-url-file <file>]

Brings the Postgres schema up to date. Safe to run from several instances at once.
The URL (postgres:// or postgresql://) defaults to the DATABASE_URL environment variable.
--database-url-file reads it from a file that holds it alone (a secret file, /dev/stdin), out
of sight of ps.
Exit status: 0 done, 1 failed (a database that cannot be reached), 2 a usage error (a bad
option or URL).`;

/**
 * The `migrate` subcommand: `argv` are the arguments after `migrate`. Resolves to the exit
 * code (0 done, 1 failed, 2 usage error); never prints the connection string.
 */
export async function runMigrateCli(argv: readonly string[], io: MigrateCliIo = PROCESS_IO): Promise<number> {
  const parsed = parseCommandLine(argv, { ...DATABASE_OPTIONS, help: { type: 'boolean', short: 'h' } }, false);
  if (parsed.isErr()) return usageError(io, COMMAND, parsed.error);
  const { values } = parsed.value;
  if (values.help === true) {
    io.stdout(USAGE);
    return 0;
  }
  return withDatabase(io, COMMAND, values, { max: 1, statementTimeoutMs: 0 }, async (pool, target) => {
    const result = await migrate(pool, {
      onApplied: (migration) => io.stdout(`applied ${migration.version} ${migration.name}`),
      onWaiting: () => io.stdout('waiting for another migrator to finish…'),
    });
    if (result.isErr()) {
      const { code, message } = result.error;
      io.stderr(`migrate failed (${code}): ${code === 'unavailable' ? atDatabase(target, message) : message}`);
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
  });
}
