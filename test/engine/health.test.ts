import { describe, expect, it, vi } from 'vitest';
import {
  createMemoryCardVault,
  createMemoryPaymentRepository,
  createSequentialIdGenerator,
  createTestClock,
} from '../../adapters/memory/index.js';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from '../../adapters/sandbox/index.js';
import { createPaymentEngine, HEALTH_PROBE_PAYMENT_ID } from '../../src/index.js';
import type { BackgroundWorkerStatus, HealthReport, PaymentRecord } from '../../src/index.js';
import type { RepositoryError } from '../../src/ports/payment-repository.js';
import type { PortResult } from '../../src/ports/port-result.js';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { MINUTE, PROFILE, createHosted, stored } from '../support/engine-helpers.js';
import { hostedRequest } from '../support/requests.js';

/** A card number and a connection string with a password, as a careless adapter's error text might quote them. */
const LEAKY = 'cannot reach postgres://paystate:s3cret-pw@db.internal/pay for card 4242 4242 4242 4242';

/** Fails the test unless `value` is frozen all the way down. */
function expectDeepFrozen(value: unknown, path = 'value'): void {
  if (typeof value !== 'object' || value === null) return;
  expect(Object.isFrozen(value), path).toBe(true);
  for (const [key, field] of Object.entries(value)) expectDeepFrozen(field, `${path}.${key}`);
}

/** No card number in `value` (a report, a status, the log lines). */
function expectNoCardData(value: unknown): void {
  expect(JSON.stringify(value)).not.toMatch(/4242/);
}

/**
 * Nothing that looks like card data or a secret of `LEAKY` in what a report or a status says (the
 * log lines keep the adapter's text, digits masked, as the engine logs every failure).
 */
function expectNothingSecret(value: unknown): void {
  expectNoCardData(value);
  expect(JSON.stringify(value)).not.toContain('s3cret');
}

/** A promise and the function that settles it. */
function gate(): { readonly opened: Promise<void>; open(): void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const wait = { timeout: 5_000, interval: 5 } as const;

describe('engine.checkHealth: storage', () => {
  it('reports ok when the repository answers the probe, which loads the reserved id and writes nothing', async () => {
    const calls: Array<[string, readonly unknown[]]> = [];
    const h = makeEngineHarness({}, 0, {
      repository: {
        failOn: (method, args) => {
          calls.push([method, args]);
          return null;
        },
      },
    });
    await createHosted(h);
    calls.length = 0;
    const before = h.repository.snapshot();
    const report = (await h.engine.checkHealth())._unsafeUnwrap();
    expect(report).toEqual({ at: h.clock.now(), storage: { status: 'ok', ms: 0 } });
    expect(calls).toEqual([['load', [HEALTH_PROBE_PAYMENT_ID]]]);
    expect(h.repository.snapshot()).toEqual(before);
    expectDeepFrozen(report);
  });

  it('measures the probe with the clock port', async () => {
    let whileLoading = () => undefined as void;
    const h = makeEngineHarness({}, 0, {
      wrapRepository: (repository) => ({
        ...repository,
        load: async (id: string) => {
          whileLoading();
          return repository.load(id);
        },
      }),
    });
    whileLoading = () => h.clock.advance(42);
    expect((await h.engine.checkHealth())._unsafeUnwrap().storage).toEqual({ status: 'ok', ms: 42 });
  });

  it('reports unavailable, once and with a masked message, when the repository fails: no retry, no rejection', async () => {
    // Three attempts would be allowed to a command: the probe makes one, so the second, which
    // would succeed, is never made.
    const h = makeEngineHarness({ retries: 2 });
    let loads = 0;
    const load = h.repository.load.bind(h.repository);
    h.repository.load = (id) => {
      loads += 1;
      return load(id);
    };
    h.repository.injectFailure('load', { code: 'unavailable', message: LEAKY, retryable: true });
    const checked = h.engine.checkHealth();
    const report = (await checked)._unsafeUnwrap();
    expect(loads).toBe(1);
    expect(report.storage.status).toBe('unavailable');
    expect(report.storage.message).toMatch(/^payment storage is unavailable \(unavailable\): cannot reach postgres:/);
    expect(report.storage.message).toContain('//[redacted]@db.internal');
    expectNothingSecret(report);
    expectNoCardData(h.logs);
    expect(h.logs.filter((log) => log.message === 'health check: storage unavailable')).toHaveLength(1);
    // Storage is back: the next check says so.
    expect((await h.engine.checkHealth())._unsafeUnwrap().storage.status).toBe('ok');
  });

  it('reports unavailable, never a throw or a rejection, when the adapter throws, rejects or answers no Result', async () => {
    const misbehaviours: Array<() => PortResult<PaymentRecord | null, RepositoryError>> = [
      () => {
        throw new Error(LEAKY);
      },
      () => Promise.reject(new TypeError(LEAKY)),
      () => Promise.resolve(undefined as never),
      () => 'no result' as never,
    ];
    for (const misbehave of misbehaviours) {
      const h = makeEngineHarness({}, 0, { wrapRepository: (repository) => ({ ...repository, load: misbehave }) });
      // Neither throws here nor rejects below.
      const checked = h.engine.checkHealth();
      const report = (await checked)._unsafeUnwrap();
      expect(report.storage.status).toBe('unavailable');
      expect(report.storage.message).toMatch(/^payment storage failed: (Type)?Error: /);
      expectNothingSecret(report);
      expectNoCardData(h.logs);
      expect(
        h.logs.some((log) => log.level === 'error' && log.message === 'health check: storage adapter defect'),
      ).toBe(true);
    }
  });

  it('answers unavailable by the storage time-out when the repository hangs, and by its own timeoutMs', async () => {
    const hanging = gate();
    const h = makeEngineHarness({ timeouts: { storageMs: 40 } }, 0, {
      wrapRepository: (repository) => ({
        ...repository,
        load: async (id: string) => {
          await hanging.opened;
          return repository.load(id);
        },
      }),
    });
    try {
      const byDefault = (await h.engine.checkHealth())._unsafeUnwrap();
      expect(byDefault.storage).toEqual({
        status: 'unavailable',
        ms: 0,
        message: 'payment storage did not answer within 40 ms',
      });
      const byOption = (await h.engine.checkHealth({ timeoutMs: 25 }))._unsafeUnwrap();
      expect(byOption.storage.message).toBe('payment storage did not answer within 25 ms');
    } finally {
      hanging.open();
    }
  });

  it('waits for a slow repository up to the time-out, and reports ok when it answers within it', async () => {
    const slow = gate();
    let asked = false;
    const h = makeEngineHarness({ timeouts: { storageMs: 30_000 } }, 0, {
      wrapRepository: (repository) => ({
        ...repository,
        load: async (id: string) => {
          asked = true;
          await slow.opened;
          return repository.load(id);
        },
      }),
    });
    let settled = false;
    const checked = h.engine.checkHealth();
    void checked.then(() => {
      settled = true;
    });
    await vi.waitFor(() => expect(asked).toBe(true), wait);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    slow.open();
    expect((await checked)._unsafeUnwrap().storage.status).toBe('ok');
  });

  it('refuses a timeoutMs that is not a number of milliseconds from 1 to 2^31 - 1', () => {
    const h = makeEngineHarness();
    for (const timeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(() => h.engine.checkHealth({ timeoutMs })).toThrow(RangeError);
    }
    expect(() => h.engine.checkHealth({ timeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });
});

describe('the health probe id', () => {
  it('is a well-formed payment id that createPayment refuses and newPaymentId never gives', async () => {
    expect(HEALTH_PROBE_PAYMENT_ID).toMatch(/^payment_[0-9a-f]{32}$/);
    const h = makeEngineHarness();
    const refused = await h.engine.createPayment({
      client: compliantClient,
      profileId: PROFILE,
      body: hostedRequest(),
      paymentId: HEALTH_PROBE_PAYMENT_ID,
    });
    expect(refused._unsafeUnwrapErr()).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'paymentId', message: "Is reserved for the engine's storage probe" }],
    });
    expect(h.repository.size()).toBe(0);

    // An id port that happens to draw all zeros: drawn again.
    const draws = ['0'.repeat(32), 'ab'.repeat(16)];
    const clock = createTestClock();
    const engine = createPaymentEngine({
      repository: createMemoryPaymentRepository(),
      acquirer: createSandboxAcquirer(),
      threeDS: createSandboxThreeDSProvider({ secret: 's', challengeUrl: () => 'https://acs.test/' }),
      cardVault: createMemoryCardVault(clock),
      clock,
      ids: { hex128: () => draws.shift() ?? 'cd'.repeat(16), secret: createSequentialIdGenerator().secret },
    });
    expect(engine.newPaymentId()).toBe(`payment_${'ab'.repeat(16)}`);
  });
});

describe('worker.status()', () => {
  it('reports a running worker, each loop tick by tick, with the clock port times and what the tick did', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    h.clock.advance(61 * MINUTE);
    const startedAt = h.clock.now();
    // One tick each: the next is an hour away.
    const worker = h.engine.startBackgroundWorker({ intervalMs: 3_600_000 });
    try {
      const first = worker.status();
      expect(first).toMatchObject({ state: 'running', intervalMs: 3_600_000, startedAt, at: startedAt });
      await vi.waitFor(() => {
        const status = worker.status();
        expect(status.sweep.ticks).toBe(1);
        expect(status.delivery.ticks).toBe(1);
      }, wait);
      const status = worker.status();
      expect(status.sweep).toEqual({
        ticking: false,
        ticks: 1,
        lastTickStartedAt: startedAt,
        lastTickEndedAt: startedAt,
        lastSuccessAt: startedAt,
        failuresInARow: 0,
        lastFailure: null,
        lastReport: { expired: 1, reconciled: 0, stillUnknown: 0, conflicts: 0, errors: 0 },
        moreWaiting: false,
      });
      expect(status.delivery).toMatchObject({ ticking: false, ticks: 1, failuresInARow: 0, lastFailure: null });
      expect(status.delivery.lastReport?.deferred).toBe(0);
      expect(status.delivery.lastReport?.delivered).toBeGreaterThanOrEqual(1);
      expect((await stored(h, payment.id)).state).toBe('expired');
      expectDeepFrozen(status);
      // Plain data, read again each time.
      expect(JSON.parse(JSON.stringify(status))).toEqual(status);
      h.clock.advance(5);
      expect(worker.status().at).toBe(startedAt + 5);
      expect(first.at).toBe(startedAt);
    } finally {
      await worker.stop();
    }
  });

  it('says more is waiting when a tick ended at batchesPerTick with its last batch full', async () => {
    const h = makeEngineHarness({ batchSize: 1, batchesPerTick: 2 });
    for (let index = 0; index < 3; index++) await createHosted(h);
    h.clock.advance(61 * MINUTE);
    const worker = h.engine.startBackgroundWorker({ intervalMs: 3_600_000 });
    try {
      await vi.waitFor(() => expect(worker.status().sweep.ticks).toBe(1), wait);
      expect(worker.status().sweep.lastReport?.expired).toBe(2);
      expect(worker.status().sweep.moreWaiting).toBe(true);
    } finally {
      await worker.stop();
    }
    // The next tick drains the rest: nothing more waits.
    const next = h.engine.startBackgroundWorker({ intervalMs: 3_600_000 });
    try {
      await vi.waitFor(() => expect(next.status().sweep.ticks).toBe(1), wait);
      expect(next.status().sweep.lastReport?.expired).toBe(1);
      expect(next.status().sweep.moreWaiting).toBe(false);
    } finally {
      await next.stop();
    }
  });

  it('counts failing ticks in a row with the masked failure, apart for each loop, and clears the count on success', async () => {
    let failing = true;
    const h = makeEngineHarness({}, 0, {
      repository: {
        failOn: (method) =>
          failing && method === 'findDue' ? { code: 'unavailable', message: LEAKY, retryable: false } : null,
      },
    });
    const healthyAt = h.clock.now();
    const worker = h.engine.startBackgroundWorker({ intervalMs: 5 });
    try {
      await vi.waitFor(() => expect(worker.status().sweep.failuresInARow).toBeGreaterThanOrEqual(3), wait);
      h.clock.advance(1_000);
      const failedAt = h.clock.now();
      const before = worker.status().sweep.failuresInARow;
      await vi.waitFor(() => expect(worker.status().sweep.failuresInARow).toBeGreaterThan(before), wait);
      const status = worker.status();
      expect(status.sweep.lastSuccessAt).toBeNull();
      expect(status.sweep.lastReport).toBeNull();
      expect(status.sweep.lastFailure).toEqual({
        at: failedAt,
        code: 'unavailable',
        message: expect.stringMatching(/^unavailable: payment storage is unavailable: cannot reach postgres:/),
      });
      expect(status.sweep.lastTickEndedAt).toBe(failedAt);
      // Delivery reads the outbox, which works: its loop goes on as before.
      expect(status.delivery.failuresInARow).toBe(0);
      expect(status.delivery.lastSuccessAt).not.toBeNull();
      expect(status.delivery.lastSuccessAt).toBeGreaterThanOrEqual(healthyAt);
      expectNothingSecret(status);
      expectNoCardData(h.logs);

      failing = false;
      h.clock.advance(1_000);
      const recoveredAt = h.clock.now();
      await vi.waitFor(() => expect(worker.status().sweep.failuresInARow).toBe(0), wait);
      const recovered = worker.status().sweep;
      expect(recovered.lastSuccessAt).toBe(recoveredAt);
      // The last failure stays on record.
      expect(recovered.lastFailure?.at).toBe(failedAt);
      expect(recovered.lastReport).toEqual({ expired: 0, reconciled: 0, stillUnknown: 0, conflicts: 0, errors: 0 });
    } finally {
      await worker.stop();
    }
  });

  it('reports a defect (an adapter that throws) as code defect with the masked headline, never its card number', async () => {
    const h = makeEngineHarness({}, 0, {
      wrapRepository: (repository) => ({
        ...repository,
        readOutbox: () => {
          throw new RangeError(`outbox broke on ${'4242424242424242'}`);
        },
      }),
    });
    const worker = h.engine.startBackgroundWorker({ intervalMs: 5 });
    try {
      await vi.waitFor(() => expect(worker.status().delivery.failuresInARow).toBeGreaterThanOrEqual(2), wait);
      const status = worker.status();
      expect(status.delivery.lastFailure).toEqual({
        at: h.clock.now(),
        code: 'defect',
        message: 'RangeError: outbox broke on [digits]',
      });
      expect(status.sweep.failuresInARow).toBe(0);
      expectNothingSecret(status);
      expectNoCardData(h.logs);
    } finally {
      await worker.stop();
    }
  });

  it('is stopping from stop() until it resolves, then stopped, with no tick under way, even one it abandoned', async () => {
    const hanging = gate();
    const h = makeEngineHarness({ timeouts: { storageMs: 30_000 } }, 0, {
      wrapRepository: (repository) => ({
        ...repository,
        findDue: async (query) => {
          await hanging.opened;
          return repository.findDue(query);
        },
      }),
    });
    const worker = h.engine.startBackgroundWorker({ intervalMs: 5 });
    try {
      await vi.waitFor(() => {
        const status = worker.status();
        expect(status.sweep.ticking).toBe(true);
        expect(status.delivery.ticks).toBeGreaterThanOrEqual(1);
      }, wait);
      const stopping = worker.stop({ waitMs: 0 });
      expect(worker.status().state).toBe('stopping');
      await stopping;
      const status = worker.status();
      expect(status.state).toBe('stopped');
      expect(status.sweep.ticking).toBe(false);
      expect(status.delivery.ticking).toBe(false);
      // The abandoned tick neither failed nor ended.
      expect(status.sweep.ticks).toBe(0);
      expect(status.sweep.failuresInARow).toBe(0);
      expect(h.logs.some((log) => log.message.startsWith('background worker stopped without waiting'))).toBe(true);
    } finally {
      hanging.open();
    }
  });
});

describe('engine.checkHealth: the worker', () => {
  it('includes the status of the worker this engine started last, stopped or not; none before', async () => {
    const h = makeEngineHarness();
    expect((await h.engine.checkHealth())._unsafeUnwrap().worker).toBeUndefined();
    const first = h.engine.startBackgroundWorker({ intervalMs: 3_600_000 });
    const second = h.engine.startBackgroundWorker({ intervalMs: 1_800_000 });
    try {
      await vi.waitFor(() => expect(second.status().delivery.ticks).toBe(1), wait);
      const report: HealthReport = (await h.engine.checkHealth())._unsafeUnwrap();
      expect(report.worker?.intervalMs).toBe(1_800_000);
      expect(report.worker?.state).toBe('running');
      expectDeepFrozen(report);
    } finally {
      await first.stop();
      await second.stop();
    }
    const worker: BackgroundWorkerStatus | undefined = (await h.engine.checkHealth())._unsafeUnwrap().worker;
    expect(worker?.state).toBe('stopped');
  });

  it('answers ok(report) through neverthrow, never an error: a host can match without handling one', async () => {
    const h = makeEngineHarness();
    h.repository.injectFailure('load');
    const status = await h.engine.checkHealth().match(
      (report) => report.storage.status,
      () => 'never' as const,
    );
    expect(status).toBe('unavailable');
  });
});
