/** Waits `ms` milliseconds (simulated network latency); resolves at once for 0 or less. */
export function simulateLatency(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
