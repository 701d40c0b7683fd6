/**
 * `npm run bench`: every benchmark in one run, so ratios compare figures measured together.
 * A section that cannot be loaded is reported as failed and the run exits non-zero: a broken
 * benchmark must not look like a complete run.
 */
import { printCoreBench, runCoreBench } from './core-bench.js';

console.log(`paystate benchmarks: node ${process.version}, ${new Date().toISOString()}`);
printCoreBench(await runCoreBench());

for (const [name, module, run, print] of [
  ['telemetry', './telemetry-bench.js', 'runTelemetryBench', 'printTelemetryBench'],
  ['cold start', './cold-start-bench.js', 'runColdStartBench', 'printColdStartBench'],
  ['http', './http-bench.js', 'runHttpBench', 'printHttpBench'],
  ['postgres', './postgres-bench.js', 'runPostgresBench', 'printPostgresBench'],
] as const) {
  let loaded: Record<string, (arg?: unknown) => unknown>;
  try {
    loaded = (await import(module)) as Record<string, (arg?: unknown) => unknown>;
  } catch (error) {
    console.log(`\n== ${name}: FAILED to load: ${error instanceof Error ? error.message : String(error)} ==`);
    process.exitCode = 1;
    continue;
  }
  const runner = loaded[run];
  const printer = loaded[print];
  if (runner === undefined || printer === undefined) {
    console.log(`\n== ${name}: FAILED: ${module} lacks ${runner === undefined ? run : print} ==`);
    process.exitCode = 1;
    continue;
  }
  printer(await runner({ print: false, log: (line: string) => console.log(line) }));
}
