import { err, okAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../src/index.js';
import { TROUBLE_IN_A_ROW } from '../../src/engine/deliver-events.js';
import { describeDefect } from '../../src/engine/describe-defect.js';
import { compliantClient, makeEngineHarness, type EngineHarness } from '../support/engine-harness.js';
import { createDirect } from '../support/engine-helpers.js';
import { directRequest } from '../support/requests.js';

const PROFILE = 'profile_0001';

/** An engine whose event sink refuses every event of the payments in `refused`, and a direct create. */
function refusingHarness(refused: ReadonlySet<string>, retryable: boolean) {
  const h = makeEngineHarness({ batchSize: 2 }, 0, {
    events: {
      failOn: (event: DomainEvent) =>
        refused.has(event.paymentId)
          ? { code: 'unavailable', message: retryable ? 'webhook answered 500' : 'webhook answered 410', retryable }
          : null,
    },
  });
  const create = async (card: string) =>
    (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: directRequest(card) })
    )._unsafeUnwrap();
  return { h, create };
}

/** Makes the harness's sink fail every publish, retryable (`fail`) or by never answering (`hang`); counts the calls. */
function sinkDown(h: EngineHarness, how: 'fail' | 'hang'): { readonly count: number } {
  const calls = { count: 0 };
  h.events.publish = () => {
    calls.count += 1;
    return how === 'hang'
      ? new Promise(() => undefined)
      : err({ code: 'unavailable', message: 'connection refused', retryable: true });
  };
  return calls;
}

describe('event delivery order', () => {
  it('a payment whose event the sink refuses waits; other payments are delivered meanwhile, in order', async () => {
    let refused: string | null = null;
    const h = makeEngineHarness({}, 0, {
      events: {
        failOn: (event: DomainEvent) =>
          event.paymentId === refused
            ? { code: 'unavailable', message: 'webhook answered 410', retryable: false }
            : null,
      },
    });
    const first = (
      await h.engine.createPayment({
        client: compliantClient,
        profileId: PROFILE,
        body: directRequest('4242424242424242'),
      })
    )._unsafeUnwrap();
    const second = (
      await h.engine.createPayment({
        client: compliantClient,
        profileId: PROFILE,
        body: directRequest('5555555555554444'),
      })
    )._unsafeUnwrap();
    refused = first.id;

    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(h.events.events().map((e) => [e.paymentId, e.type])).toEqual([
      [second.id, 'payment.created'],
      [second.id, 'payment.succeeded'],
    ]);

    refused = null;
    h.clock.advance(1000);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(
      h.events
        .events()
        .filter((e) => e.paymentId === first.id)
        .map((e) => e.type),
    ).toEqual(['payment.created', 'payment.succeeded']);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
  });

  it('payments whose events the sink keeps refusing do not hold back the rest, however many they are', async () => {
    const refused = new Set<string>();
    const { h, create } = refusingHarness(refused, true);
    const stuck = [
      await create('4242424242424242'),
      await create('5555555555554444'),
      await create('4242424242424242'),
    ];
    for (const payment of stuck) refused.add(payment.id);
    const fine = await create('5555555555554444');

    // Batches of two: each of the first three defers one stuck payment (its later event waits
    // behind), so the fourth reaches the payment the sink accepts.
    const delivered: number[] = [];
    for (let batch = 0; batch < 4; batch++) delivered.push((await h.engine.deliverEvents())._unsafeUnwrap());
    expect(delivered).toEqual([0, 0, 0, 2]);
    expect(h.events.events().map((e) => [e.paymentId, e.type])).toEqual([
      [fine.id, 'payment.created'],
      [fine.id, 'payment.succeeded'],
    ]);
    const outbox = (await h.repository.readOutbox({ now: h.clock.now() + 1000, limit: 100 }))._unsafeUnwrap();
    expect(outbox.map((entry) => [entry.event.paymentId, entry.attempts])).toEqual(
      stuck.flatMap((payment) => [
        [payment.id, 1],
        [payment.id, 0],
      ]),
    );
    // Every refusal is logged with its attempt, when it is offered again and what the sink
    // answered, never with card data.
    const warnings = h.logs.filter((line) => line.level === 'warn');
    expect(warnings.map((line) => line.fields)).toEqual(
      outbox
        .filter((entry) => entry.attempts === 1)
        .map((entry) => ({
          eventId: entry.event.id,
          paymentId: entry.event.paymentId,
          attempts: 1,
          retryAt: new Date(h.clock.now() + 1000).toISOString(),
          reason: 'unavailable: webhook answered 500',
        })),
    );
  });

  it("logs what the sink answered with a refusal, without a card number or a URL's password, and a time-out as such", async () => {
    const h = makeEngineHarness({ batchSize: 10, timeouts: { eventSinkMs: 50 } });
    const messages = [
      'endpoint https://user:s3cret@hooks.example/x answered 503',
      'echoed 4242 4242 4242 4242 back',
      'x'.repeat(500),
    ];
    let call = 0;
    h.events.publish = () => {
      const message = messages[call++];
      return message === undefined
        ? new Promise(() => undefined)
        : err({ code: 'unavailable', message, retryable: false });
    };
    for (let n = 0; n < 4; n++) {
      (
        await h.engine.createPayment({
          client: compliantClient,
          profileId: PROFILE,
          body: directRequest('4242424242424242'),
        })
      )._unsafeUnwrap();
    }
    await h.engine.deliverEvents();
    const reasons = h.logs.filter((line) => line.message.startsWith('event sink')).map((line) => line.fields['reason']);
    expect(reasons).toEqual([
      'unavailable: endpoint https://[redacted]@hooks.example/x answered 503',
      'unavailable: echoed [digits] back',
      `unavailable: ${'x'.repeat(200)}`,
      'no answer within 50 ms',
    ]);
  });

  it('backs off exponentially up to maxDelayMs, logs an error once it is there, and delivers in order when accepted', async () => {
    let refusing = true;
    const h = makeEngineHarness({ deliveryRetry: { firstDelayMs: 100, maxDelayMs: 1000 } }, 0, {
      events: {
        failOn: () => (refusing ? { code: 'unavailable', message: 'sink down', retryable: true } : null),
      },
    });
    await h.engine.createPayment({
      client: compliantClient,
      profileId: PROFILE,
      body: directRequest('4242424242424242'),
    });
    const delays: number[] = [];
    let last = h.clock.now();
    for (let attempt = 1; attempt <= 6; attempt++) {
      expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
      const [entry] = (await h.repository.readOutbox({ now: Number.MAX_SAFE_INTEGER, limit: 1 }))._unsafeUnwrap();
      expect(entry?.attempts).toBe(attempt);
      // Not offered a millisecond early, offered exactly on time.
      let waited = 0;
      while ((await h.repository.readOutbox({ now: h.clock.now(), limit: 1 }))._unsafeUnwrap().length === 0) {
        h.clock.advance(1);
        waited += 1;
      }
      delays.push(h.clock.now() - last);
      last = h.clock.now();
      expect(waited).toBeGreaterThan(0);
    }
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(h.logs.filter((line) => line.level === 'warn')).toHaveLength(4);
    const errors = h.logs.filter((line) => line.level === 'error');
    expect(errors.map((line) => line.fields['attempts'])).toEqual([5, 6]);

    refusing = false;
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(h.events.events().map((e) => e.type)).toEqual(['payment.created', 'payment.succeeded']);
  });

  it('the background worker goes past full batches of refused events within one tick', async () => {
    const stuck = new Set<string>();
    const { h, create } = refusingHarness(stuck, false);
    for (let index = 0; index < 6; index++) stuck.add((await create('4242424242424242')).id);
    const fine = await create('5555555555554444');
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    await expect
      .poll(() => h.events.events().filter((event) => event.paymentId === fine.id).length, { timeout: 2_000 })
      .toBe(2);
    await worker.stop();
  });

  it.each([
    ['answers nothing (time-outs)', 'hang'],
    ['fails with retryable errors', 'fail'],
  ] as const)('a sink that %s costs one event per tick, not one per waiting payment', async (_, how) => {
    const h = makeEngineHarness({ batchSize: 5, retries: 0, timeouts: { eventSinkMs: 20 } });
    for (let index = 0; index < 12; index++) {
      await h.engine.createPayment({
        client: compliantClient,
        profileId: PROFILE,
        body: directRequest('4242424242424242'),
      });
    }
    const calls = sinkDown(h, how);
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await worker.stop();
    expect(calls.count).toBe(1);
    const [first] = (await h.repository.readOutbox({ now: h.clock.now() + 1000, limit: 1 }))._unsafeUnwrap();
    expect(first?.attempts).toBe(1);
  });

  it('aborts the signal of a publish that runs out of time, once per attempt, and no other', async () => {
    const h = makeEngineHarness({ retries: 1, timeouts: { eventSinkMs: 20 } });
    await h.engine.createPayment({
      client: compliantClient,
      profileId: PROFILE,
      body: directRequest('4242424242424242'),
    });
    const signals: (AbortSignal | undefined)[] = [];
    h.events.publish = (_event, options) => {
      signals.push(options?.signal);
      // The first attempt hangs; the retry answers in time.
      return signals.length === 1 ? new Promise(() => undefined) : okAsync(undefined);
    };
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(signals).toHaveLength(3);
    const [hung, retried, next] = signals;
    expect(hung?.aborted).toBe(true);
    expect(hung?.reason).toBeInstanceOf(DOMException);
    expect((hung?.reason as DOMException).name).toBe('TimeoutError');
    expect(retried?.aborted).toBe(false);
    expect(next?.aborted).toBe(false);
    expect(new Set(signals).size).toBe(3);
  });

  it('counts and logs a refusal only once it is stored', async () => {
    const h = makeEngineHarness({}, 0, {
      events: { failOn: () => ({ code: 'unavailable', message: 'sink down', retryable: true }) },
    });
    await h.engine.createPayment({
      client: compliantClient,
      profileId: PROFILE,
      body: directRequest('4242424242424242'),
    });
    h.repository.injectFailure('deferDelivery');
    expect((await h.engine.deliverEvents())._unsafeUnwrapErr().code).toBe('unavailable');
    expect(h.logs.filter((line) => line.level === 'warn' || line.level === 'error')).toEqual([]);
    const [entry] = (await h.repository.readOutbox({ now: h.clock.now(), limit: 1 }))._unsafeUnwrap();
    expect(entry?.attempts).toBe(0);
  });

  it.each([
    [{ maxDelayMs: 2 ** 31 }],
    [{ firstDelayMs: 9e15, maxDelayMs: 9e15 }],
    [{ firstDelayMs: 0 }],
    [{ firstDelayMs: 1.5 }],
    [{ firstDelayMs: 2000, maxDelayMs: 1000 }],
    [{ maxDelayMs: Number.POSITIVE_INFINITY }],
  ])('refuses deliveryRetry %j', (deliveryRetry) => {
    expect(() => makeEngineHarness({ deliveryRetry })).toThrow(RangeError);
  });
});

describe('defects', () => {
  it('an adapter that throws with card data in its message gives internal_error, and the log carries no card data', async () => {
    const h = makeEngineHarness();
    h.acquirer.authorize = (request) => {
      throw new Error(`bad request: pan=${request.card.number} cvc=${request.card.cvc}`);
    };
    const result = await h.engine.createPayment({
      client: compliantClient,
      profileId: PROFILE,
      body: directRequest('4242424242424242'),
    });
    expect(result._unsafeUnwrapErr().code).toBe('internal_error');
    const defect = h.logs.find((log) => log.message === 'engine defect');
    expect(defect).toBeDefined();
    const logged = JSON.stringify(h.logs);
    expect(logged).not.toContain('4242424242424242');
    expect(logged).not.toMatch(/cvc=\d/);
    expect(String(defect?.fields['cause'])).toMatch(/^Error: bad request/);
  });
});

describe('an adapter that throws for one payment (found by a reviewing helper)', () => {
  it('costs the sweeper that payment only: the others of the batch are reconciled, tick after tick', async () => {
    const h = makeEngineHarness({ sweepConcurrency: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      h.acquirer.failNextAuthorize('answer_lost');
      const created = (
        await h.engine.createPayment({
          client: compliantClient,
          profileId: PROFILE,
          body: directRequest('4242424242424242'),
        })
      )._unsafeUnwrap();
      ids.push(created.id);
      h.clock.advance(1);
    }
    const poisoned = ids[0];
    const inquire = h.acquirer.inquire.bind(h.acquirer);
    h.acquirer.inquire = (request) => {
      if (request.paymentId === poisoned) throw new Error('acquirer adapter bug: card 4242424242424242');
      return inquire(request);
    };
    h.clock.advance(60_000);
    const report = (await h.engine.sweep())._unsafeUnwrap();
    // The throw is a failed inquiry of that payment: asked again later, with back-off.
    expect(report).toMatchObject({ reconciled: 4, stillUnknown: 1, errors: 0 });
    const states = await Promise.all(
      ids.map(async (id) => (await h.engine.getPaymentRecord(id))._unsafeUnwrap().state),
    );
    expect(states).toEqual(['authorizing', 'succeeded', 'succeeded', 'succeeded', 'succeeded']);
    const logged = h.logs.filter((log) => log.message === 'acquirer inquiry threw; the payment is asked again later');
    expect(logged.map((log) => [log.level, log.fields['paymentId']])).toEqual([['error', poisoned]]);
    expect(JSON.stringify(h.logs)).not.toContain('4242424242424242');
  });

  it('payments whose inquiry throws, however many, keep no other payment from being reconciled (found by a reviewing helper)', async () => {
    const h = makeEngineHarness({ batchSize: 2, batchesPerTick: 1, sweepConcurrency: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.acquirer.failNextAuthorize('answer_lost');
      ids.push((await createDirect(h, '4242424242424242')).id);
      h.clock.advance(1);
    }
    // The two oldest, which head every batch of two, make the acquirer adapter throw.
    const poisoned = new Set(ids.slice(0, 2));
    const inquire = h.acquirer.inquire.bind(h.acquirer);
    h.acquirer.inquire = (request) => {
      if (poisoned.has(request.paymentId)) throw new Error('acquirer adapter bug');
      return inquire(request);
    };
    for (let sweep = 0; sweep < 3; sweep++) {
      h.clock.advance(60_000);
      expect((await h.engine.sweep()).isOk()).toBe(true);
    }
    const states = await Promise.all(
      ids.map(async (id) => (await h.engine.getPaymentRecord(id))._unsafeUnwrap().state),
    );
    expect(states).toEqual(['authorizing', 'authorizing', 'succeeded']);
    // Never authorized again: they wait, backed off, for an inquiry that answers.
    for (const id of ids) expect(h.acquirer.authorizeCalls(id)).toBe(1);
  });

  it('a sweep that fails as a whole does not keep the background worker from delivering events', async () => {
    const h = makeEngineHarness({}, 0, {
      wrapRepository: (repository) => ({
        ...repository,
        findDue: () => {
          throw new Error('storage adapter bug');
        },
      }),
    });
    for (let i = 0; i < 3; i++) {
      await h.engine.createPayment({
        client: compliantClient,
        profileId: PROFILE,
        body: directRequest('4242424242424242'),
      });
    }
    const worker = h.engine.startBackgroundWorker({ intervalMs: 5 });
    await expect.poll(() => h.events.events().length, { timeout: 5_000 }).toBe(6);
    await worker.stop();
    const failures = h.logs.filter((log) => log.message === 'background tick failed');
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((log) => log.fields['part'] === 'sweep')).toBe(true);
  });
});

describe('events the sink keeps failing as retryable (found by a reviewing helper)', () => {
  const answered500 = { code: 'unavailable', message: 'webhook answered 500', retryable: true } as const;

  /** Payments whose events a consumer answers 500 for, each deferred once, and a sink that counts offers. */
  async function poisoned(count: number, deliveryRetry = { firstDelayMs: 100, maxDelayMs: 100 }) {
    const poison = new Set<string>();
    const h = makeEngineHarness({ deliveryRetry }, 0, {
      events: { failOn: (event: DomainEvent) => (poison.has(event.paymentId) ? answered500 : null) },
    });
    for (let index = 0; index < count; index++) {
      poison.add((await createDirect(h, '4242424242424242')).id);
    }
    const offered: string[] = [];
    const publish = h.events.publish.bind(h.events);
    h.events.publish = (event, options) => {
      offered.push(event.paymentId);
      return publish(event, options);
    };
    // A new event that fails so, before the sink has delivered anything, may mean the sink is
    // down: each batch ends at one.
    for (let index = 0; index < count; index++) {
      expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    }
    expect(offered).toEqual([...poison]);
    const waiting = (await h.repository.readOutbox({ now: Number.MAX_SAFE_INTEGER, limit: 1000 }))._unsafeUnwrap();
    expect(waiting.filter((entry) => entry.attempts === 1).map((entry) => entry.event.paymentId)).toEqual([...poison]);
    return { h, poison, offered };
  }

  it('other payments are delivered while many of them are due again, batch after batch', async () => {
    const { h, poison, offered } = await poisoned(12);
    for (let round = 0; round < 5; round++) {
      h.clock.advance(100); // every refused event is due again, ahead of the new ones in the outbox
      offered.length = 0;
      const fine = await createDirect(h, '5555555555554444');
      expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
      expect(
        h.events
          .events()
          .filter((event) => event.paymentId === fine.id)
          .map((event) => event.type),
      ).toEqual(['payment.created', 'payment.succeeded']);
      // The refused ones were offered again too, up to the limit of failures in a row.
      expect(offered.filter((paymentId) => poison.has(paymentId))).toHaveLength(TROUBLE_IN_A_ROW);
    }
    expect(h.events.events().filter((event) => poison.has(event.paymentId))).toEqual([]);
  });

  it.each([
    ['fails with retryable errors', 'fail'],
    ['answers nothing (time-outs)', 'hang'],
  ] as const)(
    'a sink that %s while every waiting event has failed before costs a few events per batch',
    async (_, how) => {
      const h = makeEngineHarness({ batchSize: 50, timeouts: { eventSinkMs: 20 } });
      for (let index = 0; index < 8; index++) {
        await createDirect(h, '4242424242424242');
      }
      const calls = sinkDown(h, how);
      for (let index = 0; index < 8; index++) expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
      expect(calls.count).toBe(8);
      h.clock.advance(1000);
      expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
      expect(calls.count).toBe(8 + TROUBLE_IN_A_ROW);
      // A new event goes first and, failing so before anything was delivered, ends the batch.
      await createDirect(h, '4242424242424242');
      h.clock.advance(2000);
      expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
      expect(calls.count).toBe(8 + TROUBLE_IN_A_ROW + 1);
    },
  );

  it('a new event that fails so after the sink delivered others concerns that event only', async () => {
    let poison: string | null = null;
    const h = makeEngineHarness({}, 0, {
      events: { failOn: (event: DomainEvent) => (event.paymentId === poison ? answered500 : null) },
    });
    const first = await createDirect(h, '4242424242424242');
    poison = (await createDirect(h, '5555555555554444')).id;
    const third = await createDirect(h, '4242424242424242');
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(4);
    expect(h.events.events().map((event) => event.paymentId)).toEqual([first.id, first.id, third.id, third.id]);
  });
});

describe('a publish that throws or rejects (found by a reviewing helper)', () => {
  it.each([
    ['throws', 'throw'],
    ['rejects', 'reject'],
  ] as const)(
    'a publish that %s for one event defers that event only: the rest is delivered and marked, once',
    async (_, how) => {
      const h = makeEngineHarness();
      const ids: string[] = [];
      for (let index = 0; index < 3; index++) {
        ids.push((await createDirect(h, '4242424242424242')).id);
      }
      const [first, poison, third] = ids;
      const thrown = new Error('fetch failed: POST https://shop.test/hook?pan=4242424242424242');
      let broken = true;
      const publish = h.events.publish.bind(h.events);
      h.events.publish = (event, options) => {
        if (broken && event.paymentId === poison && event.type === 'payment.succeeded') {
          if (how === 'throw') throw thrown;
          return Promise.reject(thrown);
        }
        return publish(event, options);
      };

      expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(5);
      const delivered = () => h.events.events().map((event) => [event.paymentId, event.type]);
      expect(delivered()).toEqual([
        [first, 'payment.created'],
        [first, 'payment.succeeded'],
        [poison, 'payment.created'],
        [third, 'payment.created'],
        [third, 'payment.succeeded'],
      ]);
      // Marked: nothing goes out again; the failed event waits for its back-off.
      expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
      expect(h.events.events()).toHaveLength(5);
      const [waiting] = (await h.repository.readOutbox({ now: h.clock.now() + 1000, limit: 10 }))._unsafeUnwrap();
      expect([waiting?.event.paymentId, waiting?.event.type, waiting?.attempts]).toEqual([
        poison,
        'payment.succeeded',
        1,
      ]);

      const logged = h.logs.filter((line) => line.level === 'error');
      expect(logged.map((line) => line.message)).toEqual(['event sink threw for an event; it will be offered again']);
      expect(logged[0]?.fields).toEqual({
        eventId: waiting?.event.id,
        paymentId: poison,
        attempts: 1,
        retryAt: new Date(h.clock.now() + 1000).toISOString(),
        cause: describeDefect(thrown),
      });
      expect(JSON.stringify(h.logs)).not.toContain('4242424242424242');

      broken = false;
      h.clock.advance(1000);
      expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(1);
      expect(delivered().at(-1)).toEqual([poison, 'payment.succeeded']);
    },
  );
});
