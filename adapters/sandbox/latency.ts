/**
 * Gives `answer` after `ms` milliseconds of simulated network latency. With no latency (0 or less)
 * the answer is given at once, as a plain value, the way the in-memory adapters answer: the engine
 * then starts no timer and does not wait.
 */
export function afterLatency<T>(ms: number, answer: T): T | Promise<T> {
  return ms > 0 ? new Promise((resolve) => setTimeout(() => resolve(answer), ms)) : answer;
}
