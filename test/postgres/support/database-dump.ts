import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The major version of a `pg_dump` on the PATH, or null when there is none. */
async function pgDumpMajor(): Promise<number | null> {
  try {
    const { stdout } = await run('pg_dump', ['--version']);
    const major = /(\d+)(?:\.\d+)?/.exec(stdout)?.[1];
    return major === undefined ? null : Number(major);
  } catch {
    return null;
  }
}

/**
 * Everything the database holds, as a backup would: `pg_dump` when one of the server's major
 * version is on the PATH (an older one refuses a newer server), else every row of every table
 * of the schema in its text form (what `COPY … TO` and so `pg_dump` write). Says which it used.
 */
export async function dumpDatabase(connectionString: string): Promise<{ readonly text: string; readonly how: string }> {
  const pool = new pg.Pool({ connectionString, max: 1 });
  pool.on('error', () => undefined);
  try {
    const { rows } = await pool.query<{ major: number }>(
      "SELECT current_setting('server_version_num')::int / 10000 AS major",
    );
    const serverMajor = rows[0]?.major;
    if (serverMajor !== undefined && (await pgDumpMajor()) === serverMajor) {
      const { stdout } = await run('pg_dump', ['--dbname', connectionString], { maxBuffer: 256 * 1024 * 1024 });
      return { text: stdout, how: 'pg_dump' };
    }
    const tables = await pool.query<{ name: string }>(
      "SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    );
    const parts: string[] = [];
    for (const { name } of tables.rows) {
      const content = await pool.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
      parts.push(`-- ${name}`, ...content.rows.map((row) => row.row));
    }
    return { text: parts.join('\n'), how: `rows of ${tables.rows.length} tables (no pg_dump ${serverMajor} here)` };
  } finally {
    await pool.end();
  }
}
