import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSandboxSecrets } from '../../adapters/memory/index.js';
import {
  BUNDLED_SANDBOX_CONFIG,
  generateSandboxSecrets,
  sharedSandboxSecrets,
} from '../../adapters/sandbox-server/index.js';
import { startCli } from '../support/cli-process.js';

const URL_WITH_PASSWORD = 'postgres://app:hunter2-secret@127.0.0.1:1/paystate';

async function run(args: readonly string[]) {
  const cli = startCli(args);
  return { code: await cli.exited, stdout: cli.stdout(), stderr: cli.stderr() };
}

async function file(name: string, text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'paystate-cli-secrets-')), name);
  await writeFile(path, text, { mode: 0o600 });
  return path;
}

describe('paystate secrets, and demo --database-url without them', () => {
  it('paystate secrets prints new secrets that a database sandbox takes', async () => {
    const printed = await run(['secrets']);
    expect(printed.code).toBe(0);
    const secrets = parseSandboxSecrets(JSON.parse(printed.stdout))._unsafeUnwrap();
    expect(sharedSandboxSecrets(secrets).isOk()).toBe(true);
    const again = await run(['secrets']);
    expect(again.stdout).not.toBe(printed.stdout);
    expect((await run(['secrets', '--extra'])).code).toBe(2);
  });

  it('refuses to start on a database without shared secrets, saying what to add, before touching it', async () => {
    const refused = await run(['demo', '--port', '0', '--database-url', URL_WITH_PASSWORD]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('csrf_secret, challenge_secret, page_link_secret, card_vault_keys are missing');
    expect(refused.stderr).toContain('--secrets-file <file>');
    expect(refused.stderr).toContain('npx paystate secrets > sandbox-secrets.json');
    expect(refused.stderr).not.toContain('hunter2');

    const partial = await file(
      'config.json',
      JSON.stringify({
        ...BUNDLED_SANDBOX_CONFIG,
        secrets: { csrf_secret: 'c'.repeat(32), challenge_secret: 'd'.repeat(32), page_link_secret: 'e'.repeat(32) },
      }),
    );
    const named = await run(['demo', '--port', '0', '--config', partial, '--database-url', URL_WITH_PASSWORD]);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('and card_vault_keys is missing');
    const noPageLink = await file(
      'config.json',
      JSON.stringify({
        ...BUNDLED_SANDBOX_CONFIG,
        secrets: { ...generateSandboxSecrets(new Date()), page_link_secret: undefined },
      }),
    );
    const unlinked = await run(['demo', '--port', '0', '--config', noPageLink, '--database-url', URL_WITH_PASSWORD]);
    expect(unlinked.code).toBe(2);
    expect(unlinked.stderr).toContain('and page_link_secret is missing');
  });

  it('names a bad secrets file and its faults, never what it holds', async () => {
    const notJson = await file('secrets.json', '{"csrf_secret": "hunter2-not-json');
    const broken = await run(['demo', '--port', '0', '--secrets-file', notJson]);
    expect(broken).toMatchObject({ code: 2, stdout: '' });
    expect(broken.stderr).toBe(`paystate: --secrets-file ${notJson} is not valid JSON\n`);

    const weak = await file('weak.json', JSON.stringify({ csrf_secret: 'hunter2-weak' }));
    const refused = await run(['demo', '--port', '0', '--secrets-file', weak]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('csrf_secret: must be at least 32 characters');
    expect(refused.stderr).not.toContain('hunter2');

    const missing = await run(['demo', '--port', '0', '--secrets-file', join(tmpdir(), 'paystate-no-such-file')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read --secrets-file');
  });
});
