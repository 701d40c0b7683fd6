import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A `paystate …` process and what it has written so far. */
export interface CliProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Its exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Resolves once `pattern` shows in its stdout (or, with `stream`, its stderr); rejects after `ms` or if it exits first. */
  waitFor(pattern: string | RegExp, stream?: 'stdout' | 'stderr', ms?: number): Promise<void>;
}

/** Options of `startCli`. */
export interface CliOptions {
  /** Its environment; default this process's. */
  readonly env?: NodeJS.ProcessEnv;
  /** Node options before the script, after `--import tsx` (e.g. another `--import`). */
  readonly nodeArgs?: readonly string[];
}

/** Starts `paystate …` as `npm run demo` runs it (through tsx), in the project's folder. */
export function startCli(args: readonly string[], options: CliOptions = {}): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...(options.nodeArgs ?? []), 'bin/paystate.ts', ...args], {
    cwd: ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watchCli(child);
}

/** What a spawned `paystate …` (or `npm run demo`) writes, from now on, and its exit. */
export function watchCli(child: ChildProcess): CliProcess {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async waitFor(pattern, stream = 'stdout', ms = 60_000) {
      const found = () => {
        const text = stream === 'stdout' ? stdout : stderr;
        return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
      };
      for (let waited = 0; !found(); waited += 50) {
        if (waited > ms || child.exitCode !== null) {
          throw new Error(`no ${String(pattern)} on ${stream} (exit ${child.exitCode}); got:\n${stdout}\n${stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
