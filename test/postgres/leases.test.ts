import { setTimeout as sleep } from 'node:timers/promises';
import { ok } from 'neverthrow';
import { describe, expect, it, vi } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import { createPostgresPaymentRepository } from '../../adapters/postgres/index.js';
import { createSandboxAcquirer } from '../../adapters/sandbox/index.js';
import type { Acquirer, InquiryOutcome } from '../../src/index.js';
import { expectOk } from '../contracts/payment-repository.contract.js';
import { makeEvent, makeRecord, MINUTE, nextVersion, T0 } from '../contracts/fixtures.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';
import { createDirect, makePostgresEngine, type PostgresEngineHarness } from './support/postgres-engine.js';
import { moneyOperationsOf } from '../support/money-operations.js';

/*
 * Found by a reviewing helper: the outbox lease (30 s) was shorter than a publish that hangs for
 * its time-out and retries (about 34 s), so while one instance waited for a slow sink, another
 * took the lease and delivered the same events, and the first went on publishing after it. The
 * sweeper's claim (30 s) likewise lapsed while its acquirer inquiry hung (about 101 s), and
 * another instance asked again. Two repositories on one database are two instances here; the
 * leases are short (300 ms) so that the database's clock runs them out within the test.
 */

const db = useMigratedDatabase();
const SHORT = 300;
const now = T0 + 60 * MINUTE;

/** A promise and the function that settles it. */
function gate(): { readonly opened: Promise<void>; open(): void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Makes the harness's first publish wait for `opened`; counts publishes. */
function holdFirstPublish(harness: PostgresEngineHarness, opened: Promise<void>) {
  let publishing = 0;
  const publish = harness.events.publish.bind(harness.events);
  harness.events.publish = async (event, options) => {
    publishing += 1;
    if (publishing === 1) await opened;
    return publish(event, options);
  };
  return () => publishing;
}

describe('the outbox lease while an instance publishes', () => {
  it('holdOutbox keeps the lease past outboxLeaseMs, and answers false once another instance has read', async () => {
    await resetTables(db.pool);
    const a = createPostgresPaymentRepository({ pool: db.pool, outboxLeaseMs: SHORT });
    const b = createPostgresPaymentRepository({ pool: db.pool, outboxLeaseMs: SHORT });
    const record = makeRecord();
    await expectOk(a.insert(record, [makeEvent(record), makeEvent(record, 'payment.expired')]));
    expect(await expectOk(a.readOutbox({ now, limit: 10 }))).toHaveLength(2);
    expect(await expectOk(a.holdOutbox({ forMs: 60_000 }))).toBe(true);
    await sleep(SHORT + 100);
    expect(await expectOk(b.readOutbox({ now, limit: 10 }))).toEqual([]);
    expect(await expectOk(b.holdOutbox({ forMs: 60_000 }))).toBe(false);

    // A hold for a moment only: it runs out, another instance reads, and the lease is lost for good.
    expect(await expectOk(a.holdOutbox({ forMs: 1 }))).toBe(true);
    await sleep(20);
    expect(await expectOk(b.readOutbox({ now, limit: 10 }))).toHaveLength(2);
    expect(await expectOk(a.holdOutbox({ forMs: 60_000 }))).toBe(false);
    expect(await expectOk(a.readOutbox({ now, limit: 10 }))).toEqual([]);
    await b.close();
    // Released: nobody holds it, and a hold is no read.
    expect(await expectOk(a.holdOutbox({ forMs: 60_000 }))).toBe(false);
    expect(await expectOk(a.readOutbox({ now, limit: 10 }))).toHaveLength(2);
    await a.close();
  });

  it('an instance whose publish hangs past outboxLeaseMs keeps the lease: no other delivers meanwhile, each event goes out once', async () => {
    await resetTables(db.pool);
    const clock = createTestClock();
    const a = makePostgresEngine({ pool: db.pool, seed: 1, clock, repository: { outboxLeaseMs: SHORT } });
    const b = makePostgresEngine({ pool: db.pool, seed: 2, clock, repository: { outboxLeaseMs: SHORT } });
    await createDirect(a);
    const publish = gate();
    const publishing = holdFirstPublish(a, publish.opened);
    const delivering = a.engine.deliverEvents();
    await vi.waitFor(() => expect(publishing()).toBe(1), { timeout: 5_000, interval: 5 });
    // The lease the read took has run out by the database's clock; the one held for the publish has not.
    await sleep(SHORT + 100);
    expect((await b.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    expect(b.events.events()).toEqual([]);

    publish.open();
    expect((await delivering)._unsafeUnwrap()).toBe(2);
    expect((await b.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    const ids = [...a.events.events(), ...b.events.events()].map((event) => event.id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    await a.close();
    await b.close();
  });

  it('an instance that finds its lease lost publishes nothing after the publish under way', async () => {
    await resetTables(db.pool);
    const clock = createTestClock();
    const a = makePostgresEngine({ pool: db.pool, seed: 1, clock });
    const b = makePostgresEngine({ pool: db.pool, seed: 2, clock });
    await createDirect(a);
    const publish = gate();
    const publishing = holdFirstPublish(a, publish.opened);
    const delivering = a.engine.deliverEvents();
    await vi.waitFor(() => expect(publishing()).toBe(1), { timeout: 5_000, interval: 5 });
    // As if the publish had outlasted everything A holds: by the database's clock (the lease runs
    // out) and by A's (it knows its hold has), and B then takes the lease and delivers both events.
    await db.pool.query(`UPDATE paystate_outbox_lease SET held_until = now() - interval '1 millisecond'`);
    clock.advance(10 * MINUTE); // more than A holds the lease for (`outboxHoldMs`, about 3 minutes)
    expect((await b.engine.deliverEvents())._unsafeUnwrap()).toBe(2);

    publish.open();
    // The publish under way ends (delivered twice: at least once), and A offers nothing more.
    expect((await delivering)._unsafeUnwrap()).toBe(1);
    expect(a.events.events().map((event) => event.type)).toEqual(['payment.created']);
    expect(b.events.events().map((event) => event.type)).toEqual(['payment.created', 'payment.succeeded']);
    expect(publishing()).toBe(1);
    await a.close();
    await b.close();
  });
});

describe('the sweeper claim while an instance inquires', () => {
  it('holdClaim keeps a claim past claimLeaseMs, and answers false once another instance claimed or changed it', async () => {
    await resetTables(db.pool);
    const a = createPostgresPaymentRepository({ pool: db.pool, claimLeaseMs: SHORT });
    const b = createPostgresPaymentRepository({ pool: db.pool, claimLeaseMs: SHORT });
    const record = makeRecord({ state: 'awaiting_card_data', expiresAt: now - MINUTE });
    await expectOk(a.insert(record, []));
    const hold = (repository: typeof a, forMs: number, version = record.version) =>
      expectOk(repository.holdClaim({ paymentId: record.id, version, forMs }));

    expect((await expectOk(a.findDue({ now, limit: 10 }))).expiries).toHaveLength(1);
    expect(await hold(a, 60_000)).toBe(true);
    expect(await hold(b, 60_000)).toBe(false);
    await sleep(SHORT + 100);
    expect((await expectOk(b.findDue({ now, limit: 10 }))).expiries).toEqual([]);

    // Held for a moment only: it runs out, another instance claims the payment, and it is lost.
    expect(await hold(a, 1)).toBe(true);
    await sleep(20);
    expect((await expectOk(b.findDue({ now, limit: 10 }))).expiries).toHaveLength(1);
    expect(await hold(a, 60_000)).toBe(false);
    expect(await hold(b, 60_000)).toBe(true);
    expect(await hold(b, 60_000, record.version + 1)).toBe(false);
    // Any update ends the claim.
    await expectOk(b.update(nextVersion(record), []));
    expect(await hold(b, 60_000, record.version + 1)).toBe(false);
    await a.close();
    await b.close();

    const unleased = createPostgresPaymentRepository({ pool: db.pool, claimLeaseMs: 0 });
    expect(await expectOk(unleased.holdClaim({ paymentId: record.id, version: 9, forMs: 1 }))).toBe(true);
    await unleased.close();
  });

  it('an instance whose inquiry hangs past claimLeaseMs keeps the payment: no other asks the acquirer meanwhile', async () => {
    await resetTables(db.pool);
    const clock = createTestClock();
    const answer = gate();
    const sandbox = createSandboxAcquirer();
    const inquiries = { a: 0, b: 0 };
    const acquirerA: Acquirer = {
      authorize: (request) => sandbox.authorize(request),
      inquire: async (request) => {
        inquiries.a += 1;
        await answer.opened;
        return sandbox.inquire(request);
      },
      ...moneyOperationsOf(sandbox),
    };
    const acquirerB: Acquirer = {
      authorize: (request) => sandbox.authorize(request),
      inquire: () => {
        inquiries.b += 1;
        return ok<InquiryOutcome>({ kind: 'unknown', detail: 'asked again' });
      },
      ...moneyOperationsOf(sandbox),
    };
    const repository = { claimLeaseMs: SHORT };
    const a = makePostgresEngine({ pool: db.pool, seed: 1, clock, acquirer: acquirerA, repository });
    const b = makePostgresEngine({ pool: db.pool, seed: 2, clock, acquirer: acquirerB, repository });
    sandbox.failNextAuthorize('answer_lost');
    const payment = await createDirect(a);
    expect(payment.state).toBe('processing');
    clock.advance(15 * MINUTE);

    const sweeping = a.engine.sweep();
    await vi.waitFor(() => expect(inquiries.a).toBe(1), { timeout: 5_000, interval: 5 });
    // The claim findDue took has run out by the database's clock; the one held for the inquiry has not.
    await sleep(SHORT + 100);
    expect((await b.engine.sweep())._unsafeUnwrap()).toEqual({
      expired: 0,
      reconciled: 0,
      stillUnknown: 0,
      conflicts: 0,
      errors: 0,
    });
    expect(inquiries.b).toBe(0);

    answer.open();
    expect((await sweeping)._unsafeUnwrap()).toMatchObject({ reconciled: 1 });
    expect((await a.engine.getPaymentRecord(payment.id))._unsafeUnwrap().state).toBe('succeeded');
    expect(inquiries).toEqual({ a: 1, b: 0 });
    await a.close();
    await b.close();
  });
});

describe('lease options', () => {
  it('refuses a lease that is not a number of milliseconds, instead of sending NaN to the database', () => {
    for (const bad of [Number.NaN, -1]) {
      expect(() => createPostgresPaymentRepository({ pool: db.pool, outboxLeaseMs: bad })).toThrow(RangeError);
      expect(() => createPostgresPaymentRepository({ pool: db.pool, claimLeaseMs: bad })).toThrow(RangeError);
    }
    // 0 turns the claim lease off, as documented; longer than the int parameter holds is cut.
    expect(() => createPostgresPaymentRepository({ pool: db.pool, claimLeaseMs: 0 })).not.toThrow();
    expect(() => createPostgresPaymentRepository({ pool: db.pool, outboxLeaseMs: Infinity })).not.toThrow();
  });
});
