import { performance } from 'node:perf_hooks';

/** Runs `one` back to back for about `seconds` and returns completed runs per second. */
export async function rate(one: () => Promise<void>, seconds: number): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let count = 0;
  const started = performance.now();
  while (performance.now() < deadline) {
    for (let i = 0; i < 100; i++) await one();
    count += 100;
  }
  return count / ((performance.now() - started) / 1000);
}

/** Milliseconds one call takes. */
export async function timeFor(one: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await one();
  return performance.now() - started;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
