import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresCredentialStore, runTokensCli } from '../../adapters/postgres/index.js';
import { expectOk } from '../contracts/payment-repository.contract.js';
import { startCli, type CliProcess } from '../support/cli-process.js';
import { sandboxSecretsFile } from '../support/sandbox-secrets-file.js';
import { clientIdOf, configWith, token } from './support/credential-fixtures.js';
import { expectUrlHidden } from './support/hidden-url.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';

/**
 * Found running `npm test` with `DATABASE_URL=postgres://postgres@127.0.0.1:PORT/postgres` (a
 * server with trust authentication): the CLI tests took the URL to hold a password, and checked
 * that an empty one was not printed. The CLI on such a URL, and what those tests check, here.
 */
const db = useMigratedDatabase({ authentication: 'trust' });

let running: CliProcess[] = [];
afterEach(() => {
  for (const run of running) if (run.child.exitCode === null) run.child.kill('SIGKILL');
  running = [];
});

function cli(args: readonly string[]): CliProcess {
  const run = startCli(args);
  running.push(run);
  return run;
}

describe('paystate on a database URL without a password (trust authentication)', () => {
  it('migrate, demo and tokens read it from a file, and neither show it nor take it as an argument', async () => {
    expect(new URL(db.connectionString).password).toBe('');
    await resetTables(db.pool);
    const first = token('trust');
    const store = createPostgresCredentialStore({ pool: db.pool });
    await expectOk(store.importConfig(configWith(first)));
    const firstId = (await expectOk(store.authenticate(first)))?.tokenId;
    const file = join(await mkdtemp(join(tmpdir(), 'paystate-trust-')), 'database-url');
    await writeFile(file, `${db.connectionString}\n`, { mode: 0o600 });

    const migrated = cli(['migrate', '--database-url-file', file]);
    expect(await migrated.exited).toBe(0);
    expect(migrated.stdout()).toMatch(/^schema up to date at version \d+\n$/);

    const out: string[] = [];
    const listed = await runTokensCli(['list', '--client', clientIdOf(first), '--database-url-file', file], {
      stdout: (line) => out.push(line),
      stderr: (line) => out.push(line),
      env: {},
    });
    expect({ listed, out }).toEqual({ listed: 0, out: [expect.stringMatching(new RegExp(`^${firstId}  `))] });

    const demo = cli(['demo', '--port', '0', '--database-url-file', file, '--secrets-file', sandboxSecretsFile()]);
    await demo.waitFor('Storage: Postgres');
    const url = /listening on (http:\/\/\S+)/.exec(demo.stdout())?.[1];
    const answer = await fetch(`${url}/v1/profiles/profile_webshop/payments`, {
      headers: { authorization: 'Bearer sandbox_hosted_only_token' },
    });
    expect(answer.status).toBe(200);
    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);

    for (const text of [
      demo.child.spawnargs.join(' '),
      migrated.child.spawnargs.join(' '),
      migrated.stdout() + migrated.stderr(),
      demo.stdout() + demo.stderr(),
      out.join('\n'),
    ]) {
      expectUrlHidden(text, db.connectionString);
    }
  });

  it('a failure names the database as host:port/database, without its user', async () => {
    const target = new URL(db.connectionString);
    target.pathname = '/paystate_no_such_database';
    const err: string[] = [];
    const code = await runTokensCli(['list', '--client', 'client_x', '--database-url', target.href], {
      stdout: (line) => err.push(line),
      stderr: (line) => err.push(line),
      env: {},
    });
    expect(code).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(
      new RegExp(`^tokens list failed \\(unavailable\\): database at ${target.host}/paystate_no_such_database: `),
    );
    expect(err[0]).not.toContain(`${target.username}@`);
  });
});
