/**
 * A time limit option in milliseconds: `fallback` when not given; a `RangeError` that names the
 * option unless a whole number (a safe integer) of at least 1.
 */
export function millisecondsOption(name: string, given: number | undefined, fallback: number): number {
  if (given === undefined) return fallback;
  if (!Number.isSafeInteger(given) || given < 1) {
    throw new RangeError(`${name} needs a whole number of milliseconds of at least 1 (got ${String(given)})`);
  }
  return given;
}
