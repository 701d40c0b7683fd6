import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { createPaymentMachine } from '../../src/machine/index.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { createDirect, stored, VISA } from '../support/engine-helpers.js';

// Found by a reviewing helper: `inquiryDelaysMs: [0]` was taken. A payment asked about was due
// again at once, and a background tick runs batches back to back while they come back full and
// move payments on, so it asked the same payments again in each batch: with the sandbox, three
// inquiries within a millisecond, and the payment failed as "the acquirer never saw it" before
// an acquirer whose inquiry index lags could have answered. A delay shorter than a batch (1 ms on
// a clock that moves) did the same.

describe('inquiry delays', () => {
  it.each([[[0]], [[10_000, 0]], [[Number.NaN]]])('the engine refuses %o (RangeError)', (inquiryDelaysMs) => {
    expect(() => makeEngineHarness({ inquiryDelaysMs })).toThrow(RangeError);
    expect(() => makeEngineHarness({ inquiryDelaysMs })).toThrow(/inquiryDelaysMs/);
  });

  it('the machine alone still takes 0 (it only computes the next inquiry)', () => {
    expect(() => createPaymentMachine({ inquiryDelaysMs: [0] })).not.toThrow();
  });

  it('the engine takes any delay above 0', () => {
    expect(() => makeEngineHarness({ inquiryDelaysMs: [0.5, 1] })).not.toThrow();
  });

  it('a background tick asks about each payment once, however soon it is due again', async () => {
    const h = makeEngineHarness({ batchSize: 2, batchesPerTick: 50, inquiryDelaysMs: [1] });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.acquirer.failNextAuthorize('answer_lost');
      ids.push((await createDirect(h, VISA)).id);
    }
    // Every inquiry takes a millisecond of the engine's clock and finds nothing final yet.
    const asked: string[] = [];
    h.acquirer.inquire = ({ paymentId }) => {
      asked.push(paymentId);
      h.clock.advance(1);
      return ok({ kind: 'unknown', detail: 'still processing' });
    };
    h.clock.advance(1);
    const worker = h.engine.startBackgroundWorker({ intervalMs: 2 ** 31 - 1 });
    try {
      await expect
        .poll(() => h.logs.some((log) => log.message === 'background tick' && log.fields['part'] === 'sweep'), {
          timeout: 10_000,
        })
        .toBe(true);
    } finally {
      await worker.stop();
    }
    expect([...asked].sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await stored(h, id)).state).toBe('authorizing');
  });
});
