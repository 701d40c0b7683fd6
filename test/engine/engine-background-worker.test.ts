import { describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/ports/logger.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import type { EngineHarness } from '../support/engine-harness.js';
import { MINUTE, VISA, createDirect, createHosted, stored } from '../support/engine-helpers.js';

/** A promise and the function that settles it. */
function gate(): { readonly opened: Promise<void>; open(): void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Payments whose authorization outcome is unknown, each due for an inquiry, and a gated inquiry. */
async function awaitingInquiry(h: EngineHarness, count: number) {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    h.acquirer.failNextAuthorize('answer_lost');
    ids.push((await createDirect(h, VISA)).id);
    h.clock.advance(1);
  }
  h.clock.advance(15 * MINUTE);
  const answers = gate();
  let inquiries = 0;
  const inquire = h.acquirer.inquire.bind(h.acquirer);
  h.acquirer.inquire = async (request) => {
    inquiries += 1;
    await answers.opened;
    return inquire(request);
  };
  return { ids, answers, inquiries: () => inquiries };
}

describe('background worker: sweeper and delivery run apart (found by a reviewing helper)', () => {
  it('delivers events while an acquirer inquiry of the sweeper hangs', async () => {
    const h = makeEngineHarness({ timeouts: { acquirerMs: 60_000 } });
    const stuck = await awaitingInquiry(h, 1);
    expect((await h.engine.deliverEvents()).isOk()).toBe(true);
    h.events.clear();
    const fresh = await createDirect(h, VISA);
    const worker = h.engine.startBackgroundWorker({ intervalMs: 10 });
    try {
      await vi.waitFor(() => expect(stuck.inquiries()).toBe(1), { timeout: 2_000, interval: 5 });
      await vi.waitFor(
        () =>
          expect(h.events.events().map((event) => [event.paymentId, event.type])).toEqual([
            [fresh.id, 'payment.created'],
            [fresh.id, 'payment.succeeded'],
          ]),
        { timeout: 2_000, interval: 5 },
      );
      // The inquiry still hangs: delivery did not wait for the sweeper's tick to end.
      expect((await stored(h, stuck.ids[0] ?? '')).state).toBe('authorizing');
    } finally {
      stuck.answers.open();
      await worker.stop();
    }
    expect((await stored(h, stuck.ids[0] ?? '')).state).toBe('succeeded');
  });

  it('a delivery that fails as a whole does not keep the sweeper from expiring payments', async () => {
    const h = makeEngineHarness({}, 0, {
      wrapRepository: (repository) => ({
        ...repository,
        readOutbox: () => {
          throw new Error('storage adapter bug');
        },
      }),
    });
    const payment = await createHosted(h);
    h.clock.advance(61 * MINUTE);
    const worker = h.engine.startBackgroundWorker({ intervalMs: 5 });
    try {
      await vi.waitFor(async () => expect((await stored(h, payment.id)).state).toBe('expired'), {
        timeout: 2_000,
        interval: 5,
      });
      await vi.waitFor(
        () => expect(h.logs.filter((log) => log.message === 'background tick failed').length).toBeGreaterThan(1),
        { timeout: 2_000, interval: 5 },
      );
    } finally {
      await worker.stop();
    }
    const failures = h.logs.filter((log) => log.message === 'background tick failed');
    expect(failures.every((log) => log.fields['part'] === 'delivery')).toBe(true);
  });
});

describe('background worker: stop (found by a reviewing helper)', () => {
  // Changed on purpose: stop() used to publish the rest of the batch under way (up to batchSize
  // events, each up to its time-out and retries) before it resolved; now it publishes nothing
  // after the publish under way, and marks that one delivered.
  it('stop() ends delivery after the publish under way, which is marked delivered; the rest of the batch waits', async () => {
    const h = makeEngineHarness({ batchSize: 2 });
    for (let index = 0; index < 10; index++) await createDirect(h, VISA);
    const answers = gate();
    let publishing = 0;
    const publish = h.events.publish.bind(h.events);
    h.events.publish = async (event, options) => {
      publishing += 1;
      await answers.opened;
      return publish(event, options);
    };
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    await vi.waitFor(() => expect(publishing).toBe(1), { timeout: 2_000, interval: 1 });
    const stopped = worker.stop();
    answers.open();
    await stopped;

    const delivered = h.events.events();
    expect(delivered).toHaveLength(1);
    const waiting = (await h.repository.readOutbox({ now: h.clock.now(), limit: 100 }))._unsafeUnwrap();
    expect(waiting).toHaveLength(19);
    expect(waiting.map((entry) => entry.event.id)).not.toContain(delivered[0]?.id);
    // Not deferred: the events stopping left are offered first thing next time.
    expect(waiting.every((entry) => entry.attempts === 0)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(publishing).toBe(1);
    expect(worker.stop()).toBe(stopped);
  });

  it('stop() starts no further payment of the sweeper batch under way; the one under way is finished', async () => {
    const h = makeEngineHarness({ sweepConcurrency: 1 });
    const stuck = await awaitingInquiry(h, 4);
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    await vi.waitFor(() => expect(stuck.inquiries()).toBe(1), { timeout: 2_000, interval: 1 });
    const stopped = worker.stop();
    stuck.answers.open();
    await stopped;
    expect(stuck.inquiries()).toBe(1);
    const states = await Promise.all(stuck.ids.map(async (id) => (await stored(h, id)).state));
    expect(states).toEqual(['succeeded', 'authorizing', 'authorizing', 'authorizing']);
  });
});

describe('background worker: a logger that throws (found by a reviewing helper)', () => {
  function engineWith(logger: Logger) {
    const h = makeEngineHarness({}, 0, { logger });
    return { engine: h.engine, events: h.events, create: () => createDirect(h, VISA) };
  }

  it('a logger that throws once does not stop the worker', async () => {
    let throwOnce = true;
    const quiet = () => undefined;
    const { engine, events, create } = engineWith({
      debug: quiet,
      warn: quiet,
      error: quiet,
      info: (_fields, message) => {
        if (message === 'background tick' && throwOnce) {
          throwOnce = false;
          throw new Error('log transport closed');
        }
      },
    });
    await create();
    const worker = engine.startBackgroundWorker({ intervalMs: 5 });
    try {
      await vi.waitFor(() => expect(throwOnce).toBe(false), { timeout: 2_000, interval: 5 });
      await create();
      await vi.waitFor(() => expect(events.events()).toHaveLength(4), { timeout: 2_000, interval: 5 });
    } finally {
      await worker.stop();
    }
  });

  it('a logger that throws at every call stops neither the worker nor a command', async () => {
    const calls: string[] = [];
    const throwing = (level: string) => (_fields: Record<string, unknown>, message: string) => {
      calls.push(`${level}: ${message}`);
      throw new Error('log transport closed');
    };
    const { engine, events, create } = engineWith({
      debug: throwing('debug'),
      info: throwing('info'),
      warn: throwing('warn'),
      error: throwing('error'),
    });
    await create();
    const worker = engine.startBackgroundWorker({ intervalMs: 5 });
    try {
      await vi.waitFor(() => expect(events.events()).toHaveLength(2), { timeout: 2_000, interval: 5 });
      await vi.waitFor(() => expect(calls).toContain('info: background tick'), { timeout: 2_000, interval: 5 });
      await create();
      await vi.waitFor(() => expect(events.events()).toHaveLength(4), { timeout: 2_000, interval: 5 });
    } finally {
      await worker.stop();
    }
  });
});

describe('background worker: intervalMs (found by a reviewing helper)', () => {
  it.each([0, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 31])(
    'refuses intervalMs %s',
    (intervalMs) => {
      const h = makeEngineHarness();
      expect(() => h.engine.startBackgroundWorker({ intervalMs })).toThrow(RangeError);
    },
  );

  it.each([1, 2 ** 31 - 1])('takes intervalMs %s', async (intervalMs) => {
    const h = makeEngineHarness();
    await createHosted(h);
    const worker = h.engine.startBackgroundWorker({ intervalMs });
    try {
      await vi.waitFor(() => expect(h.events.events()).toHaveLength(1), { timeout: 2_000, interval: 5 });
    } finally {
      await worker.stop();
    }
  });
});
