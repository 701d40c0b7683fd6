import { open } from 'node:fs/promises';
import { isatty } from 'node:tty';
import { err, ok, type Result } from 'neverthrow';
import { withoutUrlCredentials } from '../../src/domain/mask-digits.js';

/** The most a secret file may hold: a URL or a secret is far shorter. */
const MAX_BYTES = 64 * 1024;

/**
 * Reads the one value a file holds for a command-line option such as `--database-url-file`
 * (`option`, as it is named in messages): a secret kept out of the argument list, which `ps` shows
 * to every user of the machine. The file holds the value alone, on one line; surrounding white
 * space (the final newline of `echo "$URL" > file`) and a byte order mark are left out. Anything
 * readable will do: a Docker or Kubernetes secret, `/dev/stdin`, `<(printenv DATABASE_URL)`.
 * An empty file answers `''` (the caller says what is missing). A terminal is refused: the value
 * typed would show on the screen, and the read would wait, without a word, for an end of file.
 * The error message names the option, the path and why, never what the file holds, nor the
 * password of a URL given as the path by mistake (`--database-url-file postgres://…`).
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
