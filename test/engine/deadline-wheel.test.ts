import { describe, expect, it } from 'vitest';
import { createDeadlineWheel } from '../../src/engine/deadline-wheel.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the milliseconds from now until `expire` is called. */
function expiryOf(wheel: ReturnType<typeof createDeadlineWheel>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => wheel.add(timeoutMs, () => resolve(performance.now() - started)));
}

describe('deadline wheel', () => {
  it('fires a deadline once its whole time has passed, and not before', async () => {
    const wheel = createDeadlineWheel();
    const waited = await Promise.all([expiryOf(wheel, 40), expiryOf(wheel, 40), expiryOf(wheel, 80)]);
    for (const [index, timeoutMs] of [40, 40, 80].entries()) {
      // Timers may fire up to a millisecond early; the wheel waits eight ticks of timeoutMs / 8.
      expect(waited[index]).toBeGreaterThanOrEqual(timeoutMs - 1);
    }
    expect(wheel.pending()).toBe(0);
  });

  it('never fires a cancelled deadline, and fires the others', async () => {
    const wheel = createDeadlineWheel();
    const fired: string[] = [];
    const cancelA = wheel.add(16, () => fired.push('a'));
    wheel.add(16, () => fired.push('b'));
    expect(wheel.pending()).toBe(2);
    cancelA();
    cancelA();
    expect(wheel.pending()).toBe(1);
    await sleep(60);
    expect(fired).toEqual(['b']);
  });

  it('runs one fiber per time-out length while something is pending, and none after', async () => {
    const wheel = createDeadlineWheel();
    const cancels = Array.from({ length: 100 }, () => wheel.add(1_000, () => undefined));
    wheel.add(16, () => undefined);
    expect(wheel.running()).toBe(2);
    expect(wheel.pending()).toBe(101);
    for (const cancel of cancels) cancel();
    await sleep(300);
    expect(wheel.pending()).toBe(0);
    expect(wheel.running()).toBe(0);

    // And starts again for the next deadline.
    const again = await expiryOf(wheel, 16);
    expect(again).toBeGreaterThanOrEqual(15);
    await sleep(20);
    expect(wheel.running()).toBe(0);
  });

  it('fires every deadline even if one of them throws, in the same slot or a later one', async () => {
    const wheel = createDeadlineWheel();
    const fired: string[] = [];
    wheel.add(16, () => {
      throw new Error('a logger that throws');
    });
    wheel.add(16, () => fired.push('same slot'));
    await sleep(6);
    wheel.add(16, () => fired.push('later slot'));
    await sleep(80);
    expect(fired).toEqual(['same slot', 'later slot']);
    expect(wheel.pending()).toBe(0);
    expect(wheel.running()).toBe(0);
  });
});
