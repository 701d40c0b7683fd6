import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = join(import.meta.dirname, '..', '..');

/** Runs `examples/<name>` with tsx, as a reader would, and resolves to what it printed. */
export async function runExample(name: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    join(root, 'node_modules', '.bin', 'tsx'),
    [join(root, 'examples', name)],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  return stdout;
}
