import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

/** The README's embedding section: the snippet, and the shell lines that follow it. */
export function readmeEmbedding(): { readonly text: string; readonly snippet: string; readonly shell: string } {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const text = readme.slice(
    readme.indexOf('## Embedding'),
    readme.indexOf('\n## ', readme.indexOf('## Embedding') + 1),
  );
  const snippet = /```ts\n([\s\S]*?)```/.exec(text)?.[1] ?? '';
  const shell = /```sh\n([\s\S]*?)```/.exec(text.slice(text.indexOf(snippet) + snippet.length))?.[1] ?? '';
  return { text, snippet, shell };
}

/** What `npx tsc --noEmit` says of the app in `dir` ('' when nothing), and its exit code. */
async function typeCheck(dir: string): Promise<string> {
  return run(bin('tsc'), ['--noEmit', '-p', '.'], { cwd: dir }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
}

/**
 * A new app in `dir` (below a folder whose `node_modules` holds paystate), made as a newcomer
 * makes one: `npm init -y`, `tsc --init` (TypeScript's defaults: `module: nodenext`), and the
 * README's snippet as `app.ts`. Type-checks it as made, then after `setUp` (the README's words for
 * making it an ES module, as shell commands run in `dir`), and runs it with tsx as the README does.
 */
export async function followReadme(
  dir: string,
  setUp: readonly string[],
): Promise<{ readonly asMade: string; readonly afterSetUp: string; readonly output: string }> {
  mkdirSync(dir);
  await run('npm', ['init', '-y'], { cwd: dir });
  await run(bin('tsc'), ['--init'], { cwd: dir });
  writeFileSync(join(dir, 'app.ts'), readmeEmbedding().snippet);
  const asMade = await typeCheck(dir);
  for (const command of setUp) await run('sh', ['-c', command], { cwd: dir });
  const afterSetUp = await typeCheck(dir);
  // The README's `npx tsx app.ts`, with the tsx of this checkout (no download).
  const { stdout } = await run(bin('tsx'), ['app.ts'], { cwd: dir, timeout: 60_000 });
  return { asMade, afterSetUp, output: stdout };
}
