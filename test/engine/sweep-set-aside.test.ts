import { err } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { PaymentEngineOptions } from '../../src/index.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import { SET_ASIDE_FIRST_MS, createSweepSetAside } from '../../src/engine/sweep-set-aside.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { createDirect, createHosted, MINUTE, stored, VISA } from '../support/engine-helpers.js';

// Found by a reviewing helper: a payment whose expiry write failed for good (the repository's
// update always erred or threw for that payment) stayed due, at the head of every `findDue`, so
// with `batchSize` of them no other payment was ever expired; the same for the write of an
// inquiry's answer. A throwing acquirer inquiry was already backed off, in the record; a failing
// write cannot store a back-off, so the sweeper keeps one in memory (`SweepSetAside`).

const HOUR = 60 * MINUTE;

/** An engine whose repository cannot update the payments in `poisoned`: it errs, or throws. */
function harness(options: PaymentEngineOptions, how: 'fails' | 'throws') {
  const poisoned = new Set<string>();
  const h = makeEngineHarness(options, 0, {
    wrapRepository: (repository): PaymentRepository => ({
      ...repository,
      update: (record, events) => {
        if (!poisoned.has(record.id)) return repository.update(record, events);
        if (how === 'throws') throw new Error('storage adapter bug');
        return err({ code: 'unavailable', message: 'row is corrupt', retryable: false });
      },
    }),
  });
  return { h, poisoned };
}

async function states(h: ReturnType<typeof harness>['h'], ids: readonly string[]): Promise<string[]> {
  return Promise.all(ids.map(async (id) => (await stored(h, id)).state));
}

describe('the sweeper sets aside a payment it keeps failing to handle', () => {
  it.each(['fails', 'throws'] as const)(
    'an expiry whose write %s for good heads no batch after its second failure: the others expire',
    async (how) => {
      const { h, poisoned } = harness({ batchSize: 1 }, how);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push((await createHosted(h)).id);
        h.clock.advance(1);
      }
      poisoned.add(ids[0] as string);
      h.clock.advance(HOUR);
      const reports = [];
      // The clock stands still: no back-off of the payments' own ends in between.
      for (let sweep = 0; sweep < 4; sweep++) reports.push((await h.engine.sweep())._unsafeUnwrap());
      expect(reports.map((report) => [report.errors, report.expired])).toEqual([
        [1, 0],
        [1, 0],
        [0, 1],
        [0, 1],
      ]);
      expect(await states(h, ids)).toEqual(['awaiting_card_data', 'expired', 'expired']);
      const failure = h.logs.filter((log) => log.fields['paymentId'] === ids[0] && log.message.startsWith('sweeper'));
      expect(failure.map((log) => log.fields['setAsideMs'])).toEqual([undefined, SET_ASIDE_FIRST_MS]);
    },
  );

  it('a payment set aside is tried again once its back-off is over, which doubles while it keeps failing', async () => {
    const { h, poisoned } = harness({ batchSize: 1 }, 'fails');
    const payment = await createHosted(h);
    poisoned.add(payment.id);
    h.clock.advance(HOUR);
    const errorsOf = async () => (await h.engine.sweep())._unsafeUnwrap().errors;
    expect([await errorsOf(), await errorsOf(), await errorsOf()]).toEqual([1, 1, 0]);
    h.clock.advance(SET_ASIDE_FIRST_MS - 1);
    expect(await errorsOf()).toBe(0);
    h.clock.advance(1);
    expect(await errorsOf()).toBe(1);
    h.clock.advance(2 * SET_ASIDE_FIRST_MS - 1);
    expect(await errorsOf()).toBe(0);
    h.clock.advance(1);
    poisoned.clear();
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(1);
    expect((await stored(h, payment.id)).state).toBe('expired');
  });

  it('payments whose inquiry answer cannot be stored keep no other payment from being reconciled', async () => {
    const { h, poisoned } = harness({ batchSize: 2, sweepConcurrency: 1 }, 'fails');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.acquirer.failNextAuthorize('answer_lost');
      ids.push((await createDirect(h, VISA)).id);
      h.clock.advance(1);
    }
    poisoned.add(ids[0] as string);
    poisoned.add(ids[1] as string);
    h.clock.advance(MINUTE);
    for (let sweep = 0; sweep < 3; sweep++) expect((await h.engine.sweep()).isOk()).toBe(true);
    expect(await states(h, ids)).toEqual(['authorizing', 'authorizing', 'succeeded']);
    for (const id of ids) expect(h.acquirer.authorizeCalls(id)).toBe(1);
  });

  it('a clock that jumps back before the failure ends the back-off', async () => {
    const { h, poisoned } = harness({ batchSize: 1 }, 'fails');
    const payment = await createHosted(h);
    poisoned.add(payment.id);
    h.clock.advance(HOUR + MINUTE);
    const errorsOf = async () => (await h.engine.sweep())._unsafeUnwrap().errors;
    expect([await errorsOf(), await errorsOf(), await errorsOf()]).toEqual([1, 1, 0]);
    h.clock.set(h.clock.now() - 1);
    expect(await errorsOf()).toBe(1);
  });

  it('a payment handled after all is forgotten: a later failure of it is a first failure again', async () => {
    const { h, poisoned } = harness({ batchSize: 1 }, 'fails');
    h.acquirer.failNextAuthorize('answer_lost');
    const payment = await createDirect(h, VISA);
    poisoned.add(payment.id);
    h.clock.advance(MINUTE);
    const errorsOf = async () => (await h.engine.sweep())._unsafeUnwrap().errors;
    expect([await errorsOf(), await errorsOf(), await errorsOf()]).toEqual([1, 1, 0]);
    h.clock.advance(SET_ASIDE_FIRST_MS);
    poisoned.clear();
    h.acquirer.failNextInquire();
    expect((await h.engine.sweep())._unsafeUnwrap().stillUnknown).toBe(1);
    poisoned.add(payment.id);
    h.clock.advance(2 * MINUTE);
    // Tried again at the next batch, as any payment after its first failure; then set aside.
    expect([await errorsOf(), await errorsOf(), await errorsOf()]).toEqual([1, 1, 0]);
    expect((await stored(h, payment.id)).state).toBe('authorizing');
  });
});

describe('createSweepSetAside', () => {
  it('keeps at most its capacity: past it, a failing payment is tried again at once', () => {
    const setAside = createSweepSetAside(2);
    const now = 1_000_000;
    for (const id of ['a', 'b', 'c']) {
      setAside.failed(id, now);
      setAside.failed(id, now);
    }
    expect(['a', 'b', 'c'].map((id) => setAside.waiting(id, now))).toEqual([true, true, false]);
    expect(setAside.waitingCount(now)).toBe(2);
    setAside.handled('a');
    expect(setAside.waitingCount(now)).toBe(1);
  });

  it('forgets an entry once it has been free to run for the longest back-off', () => {
    const setAside = createSweepSetAside(1);
    setAside.failed('a', 0);
    setAside.failed('a', 0);
    expect(setAside.waitingCount(SET_ASIDE_FIRST_MS - 1)).toBe(1);
    expect(setAside.waitingCount(SET_ASIDE_FIRST_MS + HOUR)).toBe(0);
    // Forgotten: room for another, and a failure of `a` counts as its first again.
    setAside.failed('b', SET_ASIDE_FIRST_MS + HOUR);
    setAside.failed('b', SET_ASIDE_FIRST_MS + HOUR);
    expect(setAside.waiting('b', SET_ASIDE_FIRST_MS + HOUR)).toBe(true);
  });
});
