/**
 * `npm run bench`: every benchmark in one run, so ratios compare figures measured together.
 * Sections whose adapters are not built yet are skipped with a note.
 */
import { printCoreBench, runCoreBench } from './core-bench.js';

console.log(`paystate benchmarks: node ${process.version}, ${new Date().toISOString()}`);
printCoreBench(await runCoreBench());

for (const [name, module, run, print] of [
  ['http', './http-bench.js', 'runHttpBench', 'printHttpBench'],
  ['postgres', './postgres-bench.js', 'runPostgresBench', 'printPostgresBench'],
] as const) {
  const loaded = (await import(module).catch(() => null)) as Record<string, (arg?: unknown) => unknown> | null;
  const runner = loaded?.[run];
  if (runner === undefined) {
    console.log(`\n== ${name}: not available ==`);
    continue;
  }
  const figures = await runner({ print: false, log: (line: string) => console.log(line) });
  loaded?.[print]?.(figures);
}
