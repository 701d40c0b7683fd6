import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresCredentialStore } from '../../adapters/postgres/index.js';
import { expectOk } from '../contracts/payment-repository.contract.js';
import { startCli, type CliProcess } from '../support/cli-process.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';
import { demoOnDatabase, sandboxSecretsFile } from '../support/sandbox-secrets-file.js';
import { expectUrlHidden } from './support/hidden-url.js';

const db = useMigratedDatabase();
/** The session advisory lock `migrate` takes ('paystate' in ASCII). */
const MIGRATION_LOCK_KEY = '8097880467283780709';

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

/** A file that holds the test database's URL, with a final newline as `echo` writes it. */
async function urlFile(): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'paystate-cli-db-')), 'database-url');
  await writeFile(file, `${db.connectionString}\n`, { mode: 0o600 });
  return file;
}

async function stop(run: CliProcess): Promise<number | null> {
  run.child.kill('SIGTERM');
  return run.exited;
}

describe('paystate with --database-url-file', () => {
  it('demo and migrate read the URL from the file, and it is neither in their arguments nor in their output', async () => {
    const file = await urlFile();
    const migrated = cli(['migrate', '--database-url-file', file]);
    expect(await migrated.exited).toBe(0);
    expect(migrated.stdout()).toMatch(/^schema up to date at version \d+\n$/);

    const demo = cli(['demo', '--port', '0', '--database-url-file', file, '--secrets-file', sandboxSecretsFile()]);
    await demo.waitFor('Storage: Postgres');
    expectUrlHidden(demo.child.spawnargs.join(' '), db.connectionString);
    const url = /listening on (http:\/\/\S+)/.exec(demo.stdout())?.[1];
    const answer = await fetch(`${url}/v1/profiles/profile_webshop/payments`, {
      headers: { authorization: 'Bearer sandbox_hosted_only_token' },
    });
    expect(answer.status).toBe(200);
    expect(await stop(demo)).toBe(0);
    for (const run of [migrated, demo]) expectUrlHidden(run.stdout() + run.stderr(), db.connectionString);
  });

  it('refuses --database-url and --database-url-file together, and a file that holds more than the URL, repeating neither', async () => {
    const file = await urlFile();
    const dir = await mkdtemp(join(tmpdir(), 'paystate-cli-db-'));
    const twoLines = join(dir, 'two-lines');
    await writeFile(twoLines, `${db.connectionString}\n${db.connectionString}\n`);
    const empty = join(dir, 'empty');
    await writeFile(empty, '\n');
    const runs = [
      ['demo', '--port', '0', '--database-url', db.connectionString, '--database-url-file', file],
      ['migrate', '--database-url', db.connectionString, '--database-url-file', file],
      ['demo', '--port', '0', '--database-url-file', twoLines],
      ['migrate', '--database-url-file', twoLines],
      ['demo', '--port', '0', '--database-url-file', join(dir, 'missing')],
      ['tokens', 'list', '--client', 'client_x', '--database-url-file', join(dir, 'missing')],
      ['demo', '--port', '0', '--database-url-file', empty],
      ['migrate', '--database-url-file', empty],
    ].map(async (args) => {
      const run = cli(args);
      return { args, code: await run.exited, stdout: run.stdout(), stderr: run.stderr() };
    });
    const results = await Promise.all(runs);
    for (const { args, code, stdout, stderr } of results) {
      expect({ args, code }).toEqual({ args, code: 2 });
      expect(stdout, args.join(' ')).toBe('');
      expect(stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
      expectUrlHidden(stderr, db.connectionString, args.join(' '));
    }
    expect(results.map((result) => result.stderr.split('\n')[0])).toEqual([
      'paystate: give --database-url or --database-url-file, not both',
      'Give --database-url or --database-url-file, not both (paystate migrate --help shows the usage)',
      `paystate: --database-url-file ${twoLines} holds more than one line: it must hold the value alone`,
      `--database-url-file ${twoLines} holds more than one line: it must hold the value alone (paystate migrate --help shows the usage)`,
      `paystate: cannot read --database-url-file ${join(dir, 'missing')} (ENOENT)`,
      `cannot read --database-url-file ${join(dir, 'missing')} (ENOENT) (paystate tokens --help shows the usage)`,
      `paystate: No database: --database-url-file ${empty} is empty (give a Postgres URL, or leave the option out to keep everything in memory)`,
      `No database: --database-url-file ${empty} is empty (paystate migrate --help shows the usage)`,
    ]);
  });
});

describe('paystate demo --database-url, as an operator sees it', () => {
  // Found in review: demo waited up to 10 minutes for another instance's migration lock and said nothing.
  it('says on stderr, without the password, when it waits for another instance’s migration lock', async () => {
    const holder = new pg.Client({ connectionString: db.connectionString });
    await holder.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
      const demo = cli(demoOnDatabase(db.connectionString));
      const migrate = cli(['migrate', '--database-url', db.connectionString]);
      await demo.waitFor("paystate: waiting for another instance's migration lock on this database", 'stderr', 20_000);
      await migrate.waitFor('waiting for another migrator to finish', 'stdout', 20_000);
      expect(demo.stdout()).not.toContain('listening');
      await holder.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
      await demo.waitFor('Storage: Postgres');
      expect(await migrate.exited).toBe(0);
      expect(demo.stderr().trimEnd().split('\n')).toHaveLength(1);
      expect(await stop(demo)).toBe(0);
      for (const run of [demo, migrate]) expectUrlHidden(run.stdout() + run.stderr(), db.connectionString);
    } finally {
      await holder.end();
    }
  });

  // Found in review: with --database-url, demo imported its config (replacing every stored client
  // and token) before it found the port taken.
  it('fails on a port in use before it touches the database: the stored clients stay as they were', async () => {
    await resetTables(db.pool);
    const store = createPostgresCredentialStore({ pool: db.pool });
    const token = 'tok_operator_own_client_0123456789';
    await expectOk(
      store.importConfig({
        partners: [{ id: 'partner_own', profiles: [{ id: 'profile_own', name: 'Own' }] }],
        clients: [{ token, partner_id: 'partner_own', profile_ids: ['profile_own'], pci_dss_compliant: false }],
      }),
    );
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const demo = cli([
        'demo',
        '--port',
        String(port),
        '--database-url',
        db.connectionString,
        '--secrets-file',
        sandboxSecretsFile(),
      ]);
      expect(await demo.exited).toBe(1);
      expect(demo.stderr()).toBe(`paystate: port ${port} is already in use (try --port 0)\n`);
      expect(demo.stdout()).toBe('');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    expect((await expectOk(store.authenticate(token)))?.profileIds).toEqual(['profile_own']);
    expect(await expectOk(store.authenticate('sandbox_hosted_only_token'))).toBeNull();
  });
});
