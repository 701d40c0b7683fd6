import { ok } from 'neverthrow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDeadlineWheel, latestExpiryMs } from '../../src/engine/deadline-wheel.js';
import { awaitPort } from '../../src/engine/run-port.js';

// Found by a reviewing helper (what waits, at the bounds of the time-outs).

/** The timers now keeping this process (or worker thread) alive. */
const liveTimers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

describe('the deadline wheel lets a process that is done exit', () => {
  // Once the last pending answer came, the wheel's tick under way kept its timer, and with it the
  // process, for up to an eighth of the time-out: 1.25 s for the storage default, 3.1 days for a
  // time-out of 2^31 - 1 ms.
  it('holds the process while a deadline is pending, and not once it is cancelled', async () => {
    const wheel = createDeadlineWheel();
    const before = liveTimers();
    const cancel = wheel.add(2 ** 31 - 1, () => undefined);
    expect(liveTimers()).toBe(before + 1);
    cancel();
    expect(liveTimers()).toBe(before);
    // A deadline added while that tick is still under way holds the process again.
    const again = wheel.add(2 ** 31 - 1, () => undefined);
    expect(wheel.running()).toBe(1);
    expect(liveTimers()).toBe(before + 1);
    again();
    expect(liveTimers()).toBe(before);
  });

  it('awaitPort: a pending answer that came leaves no timer holding the process', async () => {
    const before = liveTimers();
    const answer = awaitPort(() => Promise.resolve(ok(1)), { timeoutMs: 2 ** 31 - 1 });
    expect(liveTimers()).toBe(before + 1);
    expect((await answer)._unsafeUnwrap()).toBe(1);
    expect(liveTimers()).toBe(before);
  });
});

describe('time-outs under 8 ms (found by a reviewing helper)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // A tick was an eighth of the length but at least a millisecond, and a deadline waits nine
  // ticks: a 1 ms time-out fired after 9 ms, nine times its length.
  it.each([
    [1, 2],
    [4, 5],
    [8, 9],
    [80, 90],
  ])('a time-out of %i ms fires after it, at %i ms at the latest', async (timeoutMs, latest) => {
    vi.useFakeTimers();
    expect(latestExpiryMs(timeoutMs)).toBe(latest);
    const wheel = createDeadlineWheel();
    let firedAt: number | undefined;
    const start = Date.now();
    wheel.add(timeoutMs, () => (firedAt = Date.now() - start));
    await vi.advanceTimersByTimeAsync(timeoutMs - 1);
    expect(firedAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(latest - timeoutMs + 1);
    expect(firedAt).toBeGreaterThanOrEqual(timeoutMs);
    expect(firedAt).toBeLessThanOrEqual(latest);
    await vi.advanceTimersByTimeAsync(latest);
    expect(wheel.running()).toBe(0);
  });
});
