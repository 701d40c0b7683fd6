import { open } from 'node:fs/promises';
import { isatty } from 'node:tty';
import { err, ok, type Result } from 'neverthrow';
import { withoutUrlCredentials } from '../../src/domain/mask-digits.js';

/** The most a secret file may hold: a URL or a secret is far shorter. */
const MAX_BYTES = 64 * 1024;

/**
 * Reads the one value, on one line, that a file holds for an option such as `--database-url-file`
 * (kept out of `ps`): trimmed, without a byte order mark, `''` when empty; a terminal is refused.
 * Messages name the option, the path (without a URL's password) and why, never the content.
 */
export async function readSecretFile(option: string, path: string): Promise<Result<string, string>> {
  if (path.trim() === '') return err(`${option} is empty (give the path of a file that holds the value)`);
  const named = `${option} ${withoutUrlCredentials(path)}`;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    const file = await open(path, 'r');
    try {
      if (isatty(file.fd)) {
        return err(`${named} is a terminal: pipe the value in, or name a file that holds it`);
      }
      // Chunk by chunk from where the file stands (a pipe or device has no positions), up to the limit.
      for (;;) {
        const { bytesRead, buffer } = await file.read(Buffer.alloc(16 * 1024), 0, 16 * 1024, null);
        if (bytesRead === 0) break;
        size += bytesRead;
        if (size > MAX_BYTES) return err(`${named} is larger than 64 KiB: it must hold the value alone`);
        chunks.push(buffer.subarray(0, bytesRead));
      }
    } finally {
      await file.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return err(`cannot read ${named}${code === undefined ? '' : ` (${code})`}`);
  }
  const value = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim();
  if (/[\r\n]/.test(value)) return err(`${named} holds more than one line: it must hold the value alone`);
  return ok(value);
}
