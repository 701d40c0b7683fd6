import { err, okAsync } from 'neverthrow';
import { describe, expect, it, vi } from 'vitest';
import type { MemoryPaymentRepository } from '../../adapters/memory/index.js';
import type { EventSinkError } from '../../src/ports/event-sink.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import type { PortResult } from '../../src/ports/port-result.js';
import { hostedOnlyClient, makeEngineHarness } from '../support/engine-harness.js';
import type { EngineHarness } from '../support/engine-harness.js';
import { MINUTE, VISA, createDirect, stored } from '../support/engine-helpers.js';
import { hostedRequest } from '../support/requests.js';

// Found by a reviewing helper: stop() waited for the whole batch under way, and a port call that
// hangs holds a batch for its time-out with retries (about 34 s for a publish, 101 s for an
// inquiry by default), longer than the 30 s a host gets after SIGTERM (Kubernetes). Now stop()
// starts nothing more, waits up to `waitMs` (default 5 s) for what is under way, then abandons it.

/** A publish that never answers, recording the signal it was given. */
function hangingSink(h: EngineHarness) {
  const signals: AbortSignal[] = [];
  h.events.publish = (_event, options): PortResult<void, EventSinkError> => {
    if (options !== undefined) signals.push(options.signal);
    return new Promise(() => undefined);
  };
  return signals;
}

/** Payments whose authorization outcome is unknown and due for an inquiry that never answers. */
async function hangingInquiries(h: EngineHarness, count: number) {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    h.acquirer.failNextAuthorize('answer_lost');
    ids.push((await createDirect(h, VISA)).id);
  }
  h.clock.advance(15 * MINUTE);
  let answer = () => undefined as void;
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  let inquiries = 0;
  const inquire = h.acquirer.inquire.bind(h.acquirer);
  h.acquirer.inquire = async (request) => {
    inquiries += 1;
    await answered;
    return inquire(request);
  };
  return { ids, answer, inquiries: () => inquiries };
}

const abandonedLog = (h: EngineHarness) =>
  h.logs.find((log) => log.level === 'warn' && log.message.startsWith('background worker stopped without waiting'));

describe('background worker: stop() does not wait for a hung port call (found by a reviewing helper)', () => {
  it('abandons a publish that does not answer within waitMs: its event stays undelivered, not deferred', async () => {
    const h = makeEngineHarness();
    await createDirect(h, VISA);
    const signals = hangingSink(h);
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    await vi.waitFor(() => expect(signals).toHaveLength(1), { timeout: 2_000, interval: 1 });

    await worker.stop({ waitMs: 20 });

    expect(signals[0]?.aborted).toBe(true);
    expect((signals[0]?.reason as DOMException).name).toBe('AbortError');
    const waiting = (await h.repository.readOutbox({ now: h.clock.now(), limit: 10 }))._unsafeUnwrap();
    expect(waiting.map((entry) => [entry.event.type, entry.attempts])).toEqual([
      ['payment.created', 0],
      ['payment.succeeded', 0],
    ]);
    expect(abandonedLog(h)?.fields).toEqual({ parts: ['delivery'], waitMs: 20 });
    expect(h.logs.filter((log) => log.message === 'background tick failed')).toEqual([]);
    expect(signals).toHaveLength(1);

    // Nothing of the abandoned batch holds on: delivery by hand goes on from the same events.
    h.events.publish = () => okAsync(undefined);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
  });

  it('abandons an inquiry that does not answer within waitMs: its late answer changes nothing', async () => {
    const h = makeEngineHarness({ sweepConcurrency: 1 });
    const stuck = await hangingInquiries(h, 2);
    const before = await Promise.all(stuck.ids.map((id) => stored(h, id)));
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    await vi.waitFor(() => expect(stuck.inquiries()).toBe(1), { timeout: 2_000, interval: 1 });

    await worker.stop({ waitMs: 20 });
    expect(abandonedLog(h)?.fields).toEqual({ parts: ['sweep'], waitMs: 20 });

    stuck.answer();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(stuck.inquiries()).toBe(1);
    const after = await Promise.all(stuck.ids.map((id) => stored(h, id)));
    expect(after).toStrictEqual(before);
    // Another sweep asks again and settles it.
    expect((await h.engine.sweep())._unsafeUnwrap()).toMatchObject({ reconciled: 2 });
  });

  it('waits 5 s by default, then abandons the publish under way', async () => {
    const h = makeEngineHarness();
    await createDirect(h, VISA);
    const signals = hangingSink(h);
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    await vi.waitFor(() => expect(signals).toHaveLength(1), { timeout: 2_000, interval: 1 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let stopped = false;
      const stopping = worker.stop().then(() => {
        stopped = true;
      });
      await vi.advanceTimersByTimeAsync(4_990);
      expect(stopped).toBe(false);
      expect(signals[0]?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(10);
      await stopping;
    } finally {
      vi.useRealTimers();
    }
    expect(signals[0]?.aborted).toBe(true);
    expect(abandonedLog(h)?.fields).toEqual({ parts: ['delivery'], waitMs: 5_000 });
  });

  it('waits as long as it takes with waitMs Infinity, and abandons nothing', async () => {
    const h = makeEngineHarness();
    await createDirect(h, VISA);
    let answer = () => undefined as void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let publishing = 0;
    const publish = h.events.publish.bind(h.events);
    h.events.publish = async (event, options) => {
      publishing += 1;
      await answered;
      return publish(event, options);
    };
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    await vi.waitFor(() => expect(publishing).toBe(1), { timeout: 2_000, interval: 1 });
    let stopped = false;
    const stopping = worker.stop({ waitMs: Number.POSITIVE_INFINITY }).then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(stopped).toBe(false);
    answer();
    await stopping;
    expect(h.events.events().map((event) => event.type)).toEqual(['payment.created']);
    expect(abandonedLog(h)).toBeUndefined();
  });

  it('returns at once when nothing is under way', async () => {
    const h = makeEngineHarness();
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await worker.stop({ waitMs: 0 });
    expect(abandonedLog(h)).toBeUndefined();
  });

  it('once stopped, answers the same promise to any later stop, whatever it asks (found by a reviewing helper)', async () => {
    const h = makeEngineHarness();
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    const first = worker.stop();
    expect(worker.stop({ waitMs: -1 })).toBe(first);
    expect(worker.stop(null as unknown as undefined)).toBe(first);
    await first;
    expect(worker.stop({ waitMs: Number.NaN })).toBe(first);
  });

  it('takes a stop(null) from plain JavaScript as stop()', async () => {
    const h = makeEngineHarness();
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    await expect(worker.stop(null as unknown as undefined)).resolves.toBeUndefined();
  });

  it.each([-1, Number.NaN, 0.5 - 1, 2 ** 31, Number.NEGATIVE_INFINITY])('refuses waitMs %s', async (waitMs) => {
    const h = makeEngineHarness();
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    try {
      expect(() => worker.stop({ waitMs })).toThrow(RangeError);
    } finally {
      await worker.stop();
    }
  });
});

/**
 * A repository that records every call it gets, and whose first `update` hangs until the test
 * `fail`s it (retryable, like a lost connection): a sweeper write that stop() abandons.
 */
function hangingFirstUpdate() {
  const calls: string[] = [];
  let fail = () => undefined as void;
  const failed = new Promise<void>((resolve) => {
    fail = resolve;
  });
  let updates = 0;
  const wrapRepository = (inner: MemoryPaymentRepository): PaymentRepository =>
    new Proxy(inner, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]): unknown => {
          calls.push(String(property));
          if (property === 'update' && ++updates === 1) {
            return failed.then(() => err({ code: 'unavailable', message: 'connection reset', retryable: true }));
          }
          return (value as (...given: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  return { calls, fail, wrapRepository, updates: () => updates };
}

/** A hosted payment past its deadline, and a worker whose sweeper write of its expiry hangs. */
async function abandonedExpiry(retries: number) {
  const repository = hangingFirstUpdate();
  const h = makeEngineHarness({ retries }, 0, { wrapRepository: repository.wrapRepository });
  const created = (
    await h.engine.createPayment({ client: hostedOnlyClient, profileId: 'profile_0001', body: hostedRequest() })
  )._unsafeUnwrap();
  h.clock.advance(61 * MINUTE);
  const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
  await vi.waitFor(() => expect(repository.updates()).toBe(1), { timeout: 2_000, interval: 1 });
  await worker.stop({ waitMs: 20 });
  return { h, repository, created };
}

describe('background worker: nothing of the abandoned work starts after stop() (found by a reviewing helper)', () => {
  // stop() used to interrupt only the loops' wait for a write: the write's retries and the load
  // that confirms a failed one run on a fiber of their own, so they started (and stored) after
  // stop() had resolved, when a host following the docs has closed its Postgres pool.
  it.each([
    ['its retry', 2],
    ['the load that confirms a failed write', 0],
  ])('an abandoned sweeper write makes no further repository call: %s', async (_what, retries) => {
    const { h, repository, created } = await abandonedExpiry(retries);
    const atStop = [...repository.calls];
    expect(atStop.at(-1)).toBe('update');

    repository.fail();
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(repository.calls).toEqual(atStop);
    expect((await h.repository.load(created.id))._unsafeUnwrap()?.state).toBe('awaiting_card_data');
    expect(abandonedLog(h)?.fields).toEqual({ parts: ['sweep'], waitMs: 20 });
    // Abandoned, not failed: nothing is logged about the payment or the tick.
    expect(h.logs.filter((log) => log.level === 'error')).toEqual([]);
    expect(h.logs.filter((log) => log.message === 'sweeper could not handle a payment')).toEqual([]);
  });

  it("does not touch the host's commands: a sweep and a create by hand still retry after the worker stopped", async () => {
    const { h, repository, created } = await abandonedExpiry(2);
    repository.fail();
    h.repository.injectFailure('update', { code: 'unavailable', message: 'blip', retryable: true });
    expect((await h.engine.sweep())._unsafeUnwrap()).toMatchObject({ expired: 1, errors: 0 });
    expect((await h.repository.load(created.id))._unsafeUnwrap()?.state).toBe('expired');
    h.repository.injectFailure('insert', { code: 'unavailable', message: 'blip', retryable: true });
    const again = await h.engine.createPayment({
      client: hostedOnlyClient,
      profileId: 'profile_0001',
      body: hostedRequest(),
    });
    expect(again._unsafeUnwrap().state).toBe('processing');
  });
});
