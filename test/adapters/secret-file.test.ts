import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSecretFile } from '../../adapters/shared/secret-file.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function dir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'paystate-secret-file-'));
}

describe('readSecretFile', () => {
  it('reads the value alone: CRLF, a byte order mark and surrounding white space left out', async () => {
    const folder = await dir();
    const file = join(folder, 'url');
    await writeFile(file, '\uFEFF  postgres://app:pw@db/x\r\n');
    expect((await readSecretFile('--database-url-file', file))._unsafeUnwrap()).toBe('postgres://app:pw@db/x');
    await writeFile(file, 'postgres://app:pw@db/x\r\nmore\r\n');
    const twoLines = (await readSecretFile('--database-url-file', file))._unsafeUnwrapErr();
    expect(twoLines).toBe(`--database-url-file ${file} holds more than one line: it must hold the value alone`);
  });

  it('refuses a directory and a file over 64 KiB, saying nothing of what it holds', async () => {
    const folder = await dir();
    expect((await readSecretFile('--database-url-file', folder))._unsafeUnwrapErr()).toBe(
      `cannot read --database-url-file ${folder} (EISDIR)`,
    );
    const big = join(folder, 'big');
    await writeFile(big, 'postgres://app:hunter2@db/x'.padEnd(70_000, 'x'));
    const error = (await readSecretFile('--database-url-file', big))._unsafeUnwrapErr();
    expect(error).toBe(`--database-url-file ${big} is larger than 64 KiB: it must hold the value alone`);
    // /dev/zero never ends: the limit stops the read.
    expect((await readSecretFile('--webhook-secret-file', '/dev/zero'))._unsafeUnwrapErr()).toMatch(
      /larger than 64 KiB/,
    );
  });

  // Found in review: a URL given where its file was meant (`--database-url-file "$DATABASE_URL"`)
  // was repeated, password and all, in the error.
  it('never repeats the password of a URL given as the path by mistake', async () => {
    const error = (
      await readSecretFile('--database-url-file', 'postgres://app:hunter2@db.example/x')
    )._unsafeUnwrapErr();
    expect(error).not.toContain('hunter2');
    expect(error).toBe('cannot read --database-url-file postgres://[redacted]@db.example/x (ENOENT)');
  });

  // Found in review: `--database-url-file /dev/stdin` on a terminal (`docker run -it`, a shell)
  // waited, without a word, for an end of file, showing the URL on the screen as it was typed.
  it.skipIf(!existsSync('/usr/bin/script'))(
    'refuses a terminal at once (needs util-linux script for a pseudo-terminal)',
    async () => {
      const program = [
        `import { readSecretFile } from './adapters/shared/secret-file.ts';`,
        `const read = await readSecretFile('--database-url-file', '/dev/stdin');`,
        `process.stdout.write('RESULT ' + JSON.stringify(read.isOk() ? { ok: read.value } : { err: read.error }) + '\\n');`,
        `process.exit(0);`,
      ].join(' ');
      const command = `${process.execPath} --import tsx --input-type=module -e ${JSON.stringify(program)}`;
      // script gives the command a pseudo-terminal as its standard input; its own input stays open.
      const child = spawn('/usr/bin/script', ['-qec', command, '/dev/null'], {
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await new Promise((resolve) => child.once('exit', resolve));
      clearTimeout(timer);
      expect(output).toContain(
        'RESULT {"err":"--database-url-file /dev/stdin is a terminal: pipe the value in, or name a file that holds it"}',
      );
    },
    20_000,
  );
});
