import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSandboxSecrets } from '../../adapters/sandbox-server/index.js';

let written: string | undefined;

/** A `--secrets-file` for `paystate demo --database-url` (new secrets, written once per test file). */
export function sandboxSecretsFile(): string {
  if (written !== undefined) return written;
  const file = join(mkdtempSync(join(tmpdir(), 'paystate-secrets-')), 'secrets.json');
  writeFileSync(file, JSON.stringify(generateSandboxSecrets(new Date()), null, 2), { mode: 0o600 });
  written = file;
  return file;
}

/** `paystate demo` on a free port, on the database at `url`, with the shared secrets it needs there. */
export function demoOnDatabase(url: string): string[] {
  return ['demo', '--port', '0', '--database-url', url, '--secrets-file', sandboxSecretsFile()];
}
