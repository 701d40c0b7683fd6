/**
 * `npm run bench`: every benchmark in one run, so ratios compare figures measured together;
 * `npm run bench -- http telemetry` runs only the sections named (core, telemetry, cold start, http, postgres).
 * A section that cannot be loaded is reported as failed and the run exits non-zero: a broken
 * benchmark must not look like a complete run.
 */
import { printCoreBench, runCoreBench } from './core-bench.js';

const SECTIONS = ['core', 'telemetry', 'cold start', 'http', 'postgres'];
const wanted = process.argv.slice(2).map((arg) => arg.replace('-', ' '));
const unknown = wanted.filter((name) => !SECTIONS.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown bench section ${unknown.join(', ')}: choose from ${SECTIONS.join(', ')}`);
  process.exit(2);
}
const runs = (name: string): boolean => wanted.length === 0 || wanted.includes(name);

console.log(`paystate benchmarks: node ${process.version}, ${new Date().toISOString()}`);
if (runs('core')) printCoreBench(await runCoreBench());

for (const [name, module, run, print] of [
  ['telemetry', './telemetry-bench.js', 'runTelemetryBench', 'printTelemetryBench'],
  ['cold start', './cold-start-bench.js', 'runColdStartBench', 'printColdStartBench'],
  ['http', './http-bench.js', 'runHttpBench', 'printHttpBench'],
  ['postgres', './postgres-bench.js', 'runPostgresBench', 'printPostgresBench'],
] as const) {
  if (!runs(name)) continue;
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
