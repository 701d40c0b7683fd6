import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Clock reads per batch of calls in `rate` and `rateSync`. */
const BATCH = 100;

/** Runs `one` back to back for about `seconds` and returns completed runs per second. */
export async function rate(one: () => Promise<unknown>, seconds: number): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let count = 0;
  const started = performance.now();
  while (performance.now() < deadline) {
    for (let i = 0; i < BATCH; i++) await one();
    count += BATCH;
  }
  return count / ((performance.now() - started) / 1000);
}

/**
 * `rate` for synchronous work: no promise and no `await` per call, so a figure of plain code is
 * not the cost of the harness's microtask. `one` gets the call's number, so its input can differ
 * from call to call (nothing for the compiler to hoist out of the loop).
 */
export function rateSync(one: (call: number) => void, seconds: number): number {
  const deadline = performance.now() + seconds * 1000;
  let count = 0;
  const started = performance.now();
  while (performance.now() < deadline) {
    for (let i = 0; i < BATCH; i++) one(count + i);
    count += BATCH;
  }
  return count / ((performance.now() - started) / 1000);
}

/** Milliseconds one call takes. */
export async function timeFor(one: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await one();
  return performance.now() - started;
}

/**
 * The `p`th percentile (0–100) of `values` by the nearest-rank method: the smallest value with at
 * least p% of the values at or below it (p50 of an even count is the lower middle value). NaN for
 * no values.
 */
export function percentile(values: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile needs p from 0 to 100, not ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  // p * n first: an integer for integral p, so the division by 100 is exact when it can be.
  const rank = Math.max(1, Math.ceil((p * sorted.length) / 100));
  return sorted[rank - 1] ?? Number.NaN;
}

let gc: (() => void) | undefined;

/**
 * A full garbage collection, so that a measurement does not pay for garbage a previous one left
 * (`--expose-gc` is set at run time when node was not started with it).
 */
export function collectGarbage(): void {
  if (gc === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed === undefined) setFlagsFromString('--expose-gc');
    gc = exposed ?? (runInNewContext('gc') as () => void);
  }
  gc();
}
