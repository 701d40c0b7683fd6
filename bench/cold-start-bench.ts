/**
 * Cold start: the time `import 'paystate'` takes in a fresh node and the memory (RSS) it leaves,
 * beside importing zod, xstate and neverthrow alone, the libraries it is built on (effect aside).
 * The package is imported as users get it, the built `dist/index.js`, rebuilt first when missing
 * or older than the sources. Runs alternate between the two; figures are medians.
 *
 *   npx tsx bench/cold-start-bench.ts [--runs 9]
 */
import { execFileSync, execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { percentile } from './measure.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
/** The built entry the bench imports. */
export const BUILT_ENTRY = join(root, 'dist', 'index.js');
/** The libraries the baseline imports: paystate's own dependencies and peer, effect aside. */
export const BASELINE_LIBRARIES = ['zod', 'xstate', 'neverthrow'] as const;
/** What the build reads: `dist/` older than any of these is rebuilt. */
const BUILD_INPUTS = ['src', 'adapters', 'bin', 'tsup.config.ts', 'package.json'];

/** Import time and RSS of one fresh node. */
export interface ColdStart {
  /** Milliseconds the `import`s took, measured in the child around them. */
  readonly importMs: number;
  /** Milliseconds from the process's start to the imports' end (node's own start-up included). */
  readonly totalMs: number;
  /** Resident set size after the imports, in MB. */
  readonly rssMb: number;
}

export interface ColdStartFigures {
  readonly runs: number;
  /** `dist/index.js` (medians). */
  readonly paystate: ColdStart;
  /** zod + xstate + neverthrow alone (medians). */
  readonly libraries: ColdStart;
  /** A node that imports nothing (medians): the floor both stand on. */
  readonly empty: ColdStart;
  /** paystate / libraries, import time and RSS. */
  readonly timeRatio: number;
  readonly rssRatio: number;
}

/** Imports `specifiers` in a fresh node (from the project's root, so bare names resolve) and reports. */
export async function coldStart(specifiers: readonly string[]): Promise<ColdStart> {
  const script = `
    const started = performance.now();
    await Promise.all(${JSON.stringify(specifiers)}.map((s) => import(s)));
    const ended = performance.now();
    console.log(JSON.stringify({ importMs: ended - started, totalMs: ended, rssMb: process.memoryUsage().rss / 2 ** 20 }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
  return JSON.parse(stdout) as ColdStart;
}

/** The newest modification time (ms) of a file or of any file under a folder. */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Builds `dist/` when `dist/index.js` is missing or older than a build input. */
export function ensureBuilt(log: (line: string) => void = () => undefined): void {
  const inputs = BUILD_INPUTS.map((name) => join(root, name)).filter((path) => existsSync(path));
  if (existsSync(BUILT_ENTRY) && statSync(BUILT_ENTRY).mtimeMs >= Math.max(...inputs.map(newest))) return;
  log('cold start: building dist/ (npm run build)…');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'pipe' });
}

const median = (values: readonly ColdStart[], key: keyof ColdStart) =>
  percentile(
    values.map((value) => value[key]),
    50,
  );
const medians = (values: readonly ColdStart[]): ColdStart => ({
  importMs: median(values, 'importMs'),
  totalMs: median(values, 'totalMs'),
  rssMb: median(values, 'rssMb'),
});

export async function runColdStartBench(
  options: { readonly runs?: number; readonly log?: (line: string) => void } = {},
): Promise<ColdStartFigures> {
  const runs = options.runs ?? 9;
  ensureBuilt(options.log);
  const paystate: ColdStart[] = [];
  const libraries: ColdStart[] = [];
  const empty: ColdStart[] = [];
  // One unmeasured round first: the files' first read from disk is not a cold start's cost.
  await coldStart([pathToFileURL(BUILT_ENTRY).href]);
  await coldStart(BASELINE_LIBRARIES);
  for (let i = 0; i < runs; i++) {
    paystate.push(await coldStart([pathToFileURL(BUILT_ENTRY).href]));
    libraries.push(await coldStart(BASELINE_LIBRARIES));
    empty.push(await coldStart([]));
  }
  const figures = { paystate: medians(paystate), libraries: medians(libraries), empty: medians(empty) };
  return {
    runs,
    ...figures,
    timeRatio: figures.paystate.importMs / figures.libraries.importMs,
    rssRatio: figures.paystate.rssMb / figures.libraries.rssMb,
  };
}

export function printColdStartBench(f: ColdStartFigures): void {
  const line = (name: string, c: ColdStart) =>
    `  ${name.padEnd(30)} import ${c.importMs.toFixed(0).padStart(4)} ms   process ${c.totalMs.toFixed(0).padStart(4)} ms   RSS ${c.rssMb.toFixed(1).padStart(6)} MB`;
  console.log(`\n== cold start: fresh node processes, ${f.runs} alternating runs each, medians ==`);
  console.log(line("(a) import 'paystate' (dist)", f.paystate));
  console.log(line(`(b) ${BASELINE_LIBRARIES.join(' + ')}`, f.libraries));
  console.log(line('    node importing nothing', f.empty));
  console.log(`a/b = ${f.timeRatio.toFixed(2)} import time, ${f.rssRatio.toFixed(2)} RSS`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { runs: { type: 'string' } } });
  printColdStartBench(
    await runColdStartBench({
      ...(values.runs !== undefined && { runs: Number(values.runs) }),
      log: (line) => console.log(line),
    }),
  );
}
