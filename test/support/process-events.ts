import { afterEach, beforeEach } from 'vitest';

/**
 * What the process emits as `event` (`unhandledRejection`, `warning`, …) during each test of the
 * calling file: the array is emptied before each test and the listener removed after it (the
 * hooks are registered here, so call it at the top level of a test file).
 */
export function recordProcessEvents<T = unknown>(event: 'unhandledRejection' | 'warning'): T[] {
  const seen: T[] = [];
  const listener = (value: T) => void seen.push(value);
  beforeEach(() => {
    seen.length = 0;
    process.on(event, listener);
  });
  afterEach(() => {
    process.off(event, listener);
  });
  return seen;
}
