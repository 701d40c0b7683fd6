import { err, ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { MemoryPaymentRepository } from '../../adapters/memory/index.js';
import { resolveEngineOptions } from '../../src/engine/engine-options.js';
import type { PaymentEngineOptions } from '../../src/index.js';
import type { PaymentRepository, RepositoryError } from '../../src/ports/payment-repository.js';
import type { PortResult } from '../../src/ports/port-result.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import type { EngineHarness } from '../support/engine-harness.js';
import { MINUTE, VISA, createDirect, stored } from '../support/engine-helpers.js';

// Found by a reviewing helper: on a repository that leases the outbox to one instance (Postgres),
// a publish that hangs for its time-out and retries (about 34 s by default) outlasted the 30 s
// lease, so another instance read and delivered the same events meanwhile, and the first went on
// publishing after it. Likewise a sweeper's claim on a payment (30 s) lapsed while its inquiry
// hung (about 101 s), and another instance asked the acquirer again.

type HoldAnswer = () => PortResult<boolean, RepositoryError>;

const held =
  (value: boolean): HoldAnswer =>
  () =>
    ok(value);
/** Answers from a script, one entry per call, the last one from then on. */
const script = (...values: boolean[]): HoldAnswer => {
  let call = 0;
  return () => ok(values[Math.min(call++, values.length - 1)] ?? false);
};

/** A memory repository that leases like a shared one: every hold is recorded and answered by `answer`. */
function leasing(answers: { outbox?: HoldAnswer; claim?: HoldAnswer }) {
  const calls: string[] = [];
  const holds: { outbox: number[]; claims: { paymentId: string; version: number; forMs: number }[] } = {
    outbox: [],
    claims: [],
  };
  const wrap = (repository: MemoryPaymentRepository): PaymentRepository => ({
    ...repository,
    holdOutbox: ({ forMs }) => {
      calls.push('holdOutbox');
      holds.outbox.push(forMs);
      return (answers.outbox ?? held(true))();
    },
    holdClaim: (query) => {
      calls.push(`holdClaim ${query.paymentId}`);
      holds.claims.push({ ...query });
      return (answers.claim ?? held(true))();
    },
  });
  return { wrap, calls, holds };
}

/** The default time-outs with two retries, as an engine without options has them. */
const DEFAULTS: PaymentEngineOptions = { retries: 2 };

/** An engine whose sink records each publish and moves the clock on by `publishMs` while it publishes. */
function slowSinkEngine(lease: ReturnType<typeof leasing>, publishMs: number) {
  const h = makeEngineHarness(DEFAULTS, 0, { wrapRepository: lease.wrap });
  const publish = h.events.publish.bind(h.events);
  h.events.publish = (event, options) => {
    lease.calls.push(`publish ${event.type}`);
    h.clock.advance(publishMs);
    return publish(event, options);
  };
  return h;
}

async function waitingEvents(h: EngineHarness) {
  return (await h.repository.readOutbox({ now: h.clock.now(), limit: 100 }))._unsafeUnwrap();
}

describe('lease times derived from the time-outs (found by a reviewing helper)', () => {
  it('holds the outbox for the longest publish and the writes after it, and a claim for the longest inquiry and its write', () => {
    // Per call: attempts x 9/8 of the time-out (the deadline wheel) + jittered back-offs + 1 s of lag.
    // publish 3 x 11,250 + 180 + 1,000 = 34,930; storage 3 x 11,250 + 90 + 1,000 = 34,840;
    // inquiry 3 x 33,750 + 90 + 1,000 = 102,340.
    const options = resolveEngineOptions(DEFAULTS);
    expect(options.outboxHoldNeededMs).toBe(34_930 + 3 * 34_840);
    expect(options.outboxHoldMs).toBe(34_930 + 4 * 34_840);
    expect(options.claimHoldMs).toBe(102_340 + 3 * 34_840);
  });

  it('refuses time-outs that would need a lease longer than 2^31 - 1 ms', () => {
    expect(() => makeEngineHarness({ timeouts: { eventSinkMs: 2 ** 31 - 1 } })).toThrow(/lease/);
    expect(() => makeEngineHarness({ timeouts: { eventSinkMs: 600_000 } })).not.toThrow();
  });
});

describe('delivery keeps the outbox lease of a repository that leases it (found by a reviewing helper)', () => {
  it('renews the lease before the first publish of a batch, and again only when it would not cover the next', async () => {
    const lease = leasing({ outbox: held(true) });
    // Each publish takes 10 s of the clock: the lease covers four before it must be renewed.
    const h = slowSinkEngine(lease, 10_000);
    for (let index = 0; index < 3; index++) await createDirect(h, VISA);
    lease.calls.length = 0;
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(6);
    expect(lease.calls.filter((call) => call === 'holdOutbox')).toHaveLength(2);
    expect(lease.calls[0]).toBe('holdOutbox');
    expect(lease.calls[5]).toBe('holdOutbox');
    expect(lease.holds.outbox).toEqual([174_290, 174_290]);
  });

  it('keeps the lease of an instance whose sink is slow: renewed before every publish that would outlast it', async () => {
    const lease = leasing({ outbox: held(true) });
    const h = slowSinkEngine(lease, 40_000);
    for (let index = 0; index < 2; index++) await createDirect(h, VISA);
    lease.calls.length = 0;
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(4);
    expect(lease.calls).toEqual([
      'holdOutbox',
      'publish payment.created',
      'holdOutbox',
      'publish payment.succeeded',
      'holdOutbox',
      'publish payment.created',
      'holdOutbox',
      'publish payment.succeeded',
    ]);
  });

  it('publishes nothing when another instance holds the lease; the events wait, not deferred', async () => {
    const lease = leasing({ outbox: held(false) });
    const h = slowSinkEngine(lease, 0);
    await createDirect(h, VISA);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    expect(h.events.events()).toEqual([]);
    expect((await waitingEvents(h)).map((entry) => entry.attempts)).toEqual([0, 0]);
    expect(h.logs.some((log) => log.level === 'warn' && log.message.startsWith('outbox lease lost'))).toBe(true);
  });

  it('stops the batch once a renewal finds the lease lost: what it published is marked, the rest waits', async () => {
    const lease = leasing({ outbox: script(true, false) });
    const h = slowSinkEngine(lease, 40_000);
    const first = await createDirect(h, VISA);
    await createDirect(h, VISA);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(1);
    expect(h.events.events().map((event) => [event.paymentId, event.type])).toEqual([[first.id, 'payment.created']]);
    const waiting = await waitingEvents(h);
    expect(waiting).toHaveLength(3);
    expect(waiting.every((entry) => entry.attempts === 0)).toBe(true);
    expect(waiting.map((entry) => entry.event.id)).not.toContain(h.events.events()[0]?.id);
  });

  it('publishes nothing more when the lease cannot be renewed (storage fails, or the adapter throws)', async () => {
    const failing = leasing({
      outbox: () => err({ code: 'unavailable', message: 'down', retryable: false }),
    });
    const h = slowSinkEngine(failing, 0);
    await createDirect(h, VISA);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    expect(h.events.events()).toEqual([]);
    expect(h.logs.some((log) => log.message.startsWith('outbox lease could not be renewed'))).toBe(true);

    const throwing = leasing({
      outbox: () => {
        throw new Error('adapter bug');
      },
    });
    const t = slowSinkEngine(throwing, 0);
    await createDirect(t, VISA);
    expect((await t.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    expect(t.events.events()).toEqual([]);
    expect(t.logs.some((log) => log.level === 'error' && log.message.startsWith('outbox lease renewal threw'))).toBe(
      true,
    );
  });

  it('does not renew anything on a repository that does not lease (memory)', async () => {
    const h = makeEngineHarness();
    await createDirect(h, VISA);
    expect('holdOutbox' in h.repository).toBe(false);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
  });
});

describe('the sweeper keeps its claim on a payment while it inquires (found by a reviewing helper)', () => {
  async function unknownAuthorization(lease: ReturnType<typeof leasing>) {
    const h = makeEngineHarness(DEFAULTS, 0, { wrapRepository: lease.wrap });
    h.acquirer.failNextAuthorize('answer_lost');
    const payment = await createDirect(h, VISA);
    h.clock.advance(15 * MINUTE);
    const inquire = h.acquirer.inquire.bind(h.acquirer);
    h.acquirer.inquire = (request) => {
      lease.calls.push(`inquire ${request.paymentId}`);
      return inquire(request);
    };
    return { h, payment };
  }

  it('holds the claim for claimHoldMs before it asks the acquirer', async () => {
    const lease = leasing({ claim: held(true) });
    const { h, payment } = await unknownAuthorization(lease);
    const version = (await stored(h, payment.id)).version;
    expect((await h.engine.sweep())._unsafeUnwrap()).toMatchObject({ reconciled: 1 });
    expect(lease.calls).toEqual([`holdClaim ${payment.id}`, `inquire ${payment.id}`]);
    expect(lease.holds.claims).toEqual([{ paymentId: payment.id, version, forMs: 206_860 }]);
  });

  it('leaves a payment another instance has claimed since to that one: no inquiry, a conflict', async () => {
    const lease = leasing({ claim: held(false) });
    const { h, payment } = await unknownAuthorization(lease);
    const before = await stored(h, payment.id);
    expect((await h.engine.sweep())._unsafeUnwrap()).toMatchObject({ reconciled: 0, conflicts: 1 });
    expect(lease.calls).toEqual([`holdClaim ${payment.id}`]);
    expect(await stored(h, payment.id)).toStrictEqual(before);
  });

  it('asks nothing when the claim cannot be held: the payment is an error of this sweep, tried again later', async () => {
    const lease = leasing({ claim: () => err({ code: 'unavailable', message: 'down', retryable: false }) });
    const { h, payment } = await unknownAuthorization(lease);
    expect((await h.engine.sweep())._unsafeUnwrap()).toMatchObject({ reconciled: 0, errors: 1 });
    expect(lease.calls).toEqual([`holdClaim ${payment.id}`]);
    expect((await stored(h, payment.id)).state).toBe('authorizing');
  });
});
