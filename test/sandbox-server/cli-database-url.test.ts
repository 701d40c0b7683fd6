import { describe, expect, it } from 'vitest';
import { closedPort } from '../support/closed-port.js';
import { startCli } from '../support/cli-process.js';
import { sandboxSecretsFile } from '../support/sandbox-secrets-file.js';

/** Runs `paystate …` to its end (with `env` added to this process's): exit code, stdout, stderr. */
async function paystate(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const run = startCli(args, { env: { ...process.env, ...env } });
  const code = await run.exited;
  return { args, code, stdout: run.stdout(), stderr: run.stderr() };
}

// Found by a new user: a database that could not be reached was reported after a spurious
// `WARN … release the outbox lease`, without saying which database; `--database-url localhost`
// (not a URL) was reported as a connection refused.
describe('paystate --database-url mistakes, as a user sees them', () => {
  it('a database that cannot be reached: one line naming host:port/database, never the user or password; exit status 1', async () => {
    const port = await closedPort();
    const url = `postgres://shop_owner:hunter2@127.0.0.1:${port}/shop`;
    const runs = await Promise.all([
      paystate(['demo', '--port', '0', '--database-url', url, '--secrets-file', sandboxSecretsFile()]),
      paystate(['migrate', '--database-url', url]),
      paystate(['tokens', 'list', '--client', 'client_x'], { DATABASE_URL: url }),
    ]);
    expect(runs.map(({ code, stdout }) => ({ code, stdout }))).toEqual(runs.map(() => ({ code: 1, stdout: '' })));
    expect(runs.map((run) => run.stderr)).toEqual([
      `paystate: database at 127.0.0.1:${port}/shop: Could not connect to migrate: Postgres connection lost or refused (ECONNREFUSED)\n`,
      `migrate failed (unavailable): database at 127.0.0.1:${port}/shop: Could not connect to migrate: Postgres connection lost or refused (ECONNREFUSED)\n`,
      `tokens list failed (unavailable): database at 127.0.0.1:${port}/shop: Postgres connection lost or refused (ECONNREFUSED)\n`,
    ]);
    for (const run of runs) expect(run.stderr).not.toMatch(/shop_owner|hunter2|WARN/);
  });

  it('a value that is not a Postgres URL: one line saying so, without the value; exit status 2', async () => {
    const runs = await Promise.all([
      paystate(['demo', '--port', '0', '--database-url', 'localhost', '--secrets-file', sandboxSecretsFile()]),
      paystate(['migrate', '--database-url', 'mysql://shop_owner:hunter2@127.0.0.1/shop']),
      paystate(['tokens', 'list', '--client', 'client_x'], { DATABASE_URL: 'db.internal:5432' }),
    ]);
    expect(runs.map(({ code, stdout, stderr }) => ({ code, stdout, stderr }))).toEqual([
      {
        code: 2,
        stdout: '',
        stderr:
          'paystate: --database-url is not a URL: give a postgres:// or postgresql:// URL, such as postgres://user:password@host:5432/database (paystate demo --help shows the usage)\n',
      },
      {
        code: 2,
        stdout: '',
        stderr:
          '--database-url is a mysql: URL, not a Postgres one: give a postgres:// or postgresql:// URL, such as postgres://user:password@host:5432/database (paystate migrate --help shows the usage)\n',
      },
      {
        code: 2,
        stdout: '',
        stderr:
          'DATABASE_URL is not a URL: give a postgres:// or postgresql:// URL, such as postgres://user:password@host:5432/database (paystate tokens --help shows the usage)\n',
      },
    ]);
  });
});
