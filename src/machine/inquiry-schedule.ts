const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Delay before the n-th inquiry (0-based) about an authorization whose outcome is unknown:
 * quick at first, then hourly, then daily (the "janitor" pattern of mature engines).
 */
export const DEFAULT_INQUIRY_DELAYS: readonly number[] = Object.freeze([
  10 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  HOUR,
  6 * HOUR,
  24 * HOUR,
]);

/** The delay before inquiry number `attempt` (0-based) from `delays`; past the end, the last one repeats. */
export function inquiryDelay(attempt: number, delays: readonly number[] = DEFAULT_INQUIRY_DELAYS): number {
  const last = delays[delays.length - 1] ?? HOUR;
  return delays[Math.min(Math.max(0, attempt), delays.length - 1)] ?? last;
}
