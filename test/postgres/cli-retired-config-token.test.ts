import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresCredentialStore } from '../../adapters/postgres/index.js';
import { BUNDLED_SANDBOX_CONFIG } from '../../adapters/sandbox-server/index.js';
import { expectOk } from '../contracts/payment-repository.contract.js';
import { startCli, type CliProcess } from '../support/cli-process.js';
import { clientIdOf, configWith, token } from './support/credential-fixtures.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';
import { demoOnDatabase } from '../support/sandbox-secrets-file.js';
import { expectUrlHidden } from './support/hidden-url.js';

/**
 * Found in review: `paystate demo --database-url` refuses a config whose token was retired and
 * tells the user to give the client a new token in the config; with the bundled config (no
 * --config) there is no config of theirs to change, and the message did not say what to do.
 */
const db = useMigratedDatabase();

let running: CliProcess[] = [];
afterEach(() => {
  for (const run of running) if (run.child.exitCode === null) run.child.kill('SIGKILL');
  running = [];
});

async function demo(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = startCli([...demoOnDatabase(db.connectionString), ...args]);
  running.push(run);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describe('paystate demo --database-url after a config token was rolled away from', () => {
  it('with the bundled config: exits 1 naming the client and saying to pass --config, with no token or password', async () => {
    await resetTables(db.pool);
    const store = createPostgresCredentialStore({ pool: db.pool });
    await expectOk(store.importConfig(BUNDLED_SANDBOX_CONFIG));
    const hosted = 'sandbox_hosted_only_token';
    const next = token('next');
    await expectOk(store.rollToken({ old: { token: hosted }, token: next, overlapMs: 0 }));

    const { code, stdout, stderr } = await demo([]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^paystate: could not store the sandbox config: /);
    expect(stderr).toContain(`${clientIdOf(hosted)} (retired)`);
    expect(stderr).toContain('pass --config with a file of your own');
    for (const secret of [hosted, next]) expect(stderr).not.toContain(secret);
    expectUrlHidden(stderr, db.connectionString);
    // Nothing was changed: the token rolled to still works, the old one does not.
    expect((await expectOk(store.authenticate(next)))?.id).toBe(clientIdOf(hosted));
    expect(await expectOk(store.authenticate(hosted))).toBeNull();
  });

  it('with a config file: says to give the client a new token in it, and nothing about --config', async () => {
    await resetTables(db.pool);
    const store = createPostgresCredentialStore({ pool: db.pool });
    const first = token('first');
    await expectOk(store.importConfig(configWith(first)));
    await expectOk(store.revokeToken({ token: first }));
    const file = join(await mkdtemp(join(tmpdir(), 'paystate-retired-')), 'config.json');
    await writeFile(file, JSON.stringify(configWith(first)));

    const { code, stderr } = await demo(['--config', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${clientIdOf(first)} (retired). Give each of them a new token in the config`);
    expect(stderr).not.toContain('--config');
    expect(stderr).not.toContain(first);
  });
});
