import type { Result } from 'neverthrow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../src/domain/domain-event.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import type { OutboxEntry, PaymentRepository } from '../../src/ports/payment-repository.js';
import { contactInOrder } from '../../src/domain/contact.js';
import {
  billingContact,
  makeEvent,
  makeRecord,
  makeSucceededRecord,
  MINUTE,
  nextVersion,
  orderedPaymentIds,
  paymentId,
  shippingContact,
  T0,
  uniqueProfileId,
} from './fixtures.js';
import { operationRepositoryContract } from './operation-repository.contract.js';

/** A repository under test and how to dispose of it. */
export interface PaymentRepositoryHarness {
  /** Must start empty: no payments, no outbox entries. */
  readonly repository: PaymentRepository;
  close(): Promise<void>;
}

/** Resolves an ok result to its value; fails the test on an error. */
export async function expectOk<T, E extends { readonly code: string; readonly message: string }>(
  result: Result<T, E> | PromiseLike<Result<T, E>>,
): Promise<T> {
  const settled = await result;
  if (settled.isErr()) throw new Error(`expected ok, got ${settled.error.code}: ${settled.error.message}`);
  return settled.value;
}

/** Resolves an error result to its error; fails the test on ok. */
export async function expectErr<T, E>(result: Result<T, E> | PromiseLike<Result<T, E>>): Promise<E> {
  const settled = await result;
  if (settled.isOk()) throw new Error('expected an error, got ok');
  return settled.error;
}

/** Enough to read a whole test's outbox. */
const ALL = 10_000;

/**
 * Everything the `PaymentRepository` port promises, for any adapter. `makeHarness` is called
 * before every test and must return an empty repository (a fresh store, or truncated tables);
 * `close` is called after it. The suite uses the port only.
 *
 * Beyond the port's doc comments it pins down:
 * - `list` with an `after` cursor that is not a payment of that profile (and of that partner,
 *   when the query names one) returns an empty page, as an unknown cursor does;
 * - `nextCursor` is null when nothing follows, even if the page is full;
 * - a walk of the pages sees every payment stored when it began exactly once, whatever is inserted
 *   between its pages, and `list` puts an updated payment where its stored version belongs (the
 *   engine never changes `createdAt`, the profile or the partner, but a replaced record is replaced);
 * - `findDue` returns the oldest due first (by `expiresAt` / `nextInquiryAt`);
 * - `conflict` also answers `update` of an id that does not exist;
 * - `markDelivered` of already delivered or unknown sequences succeeds and changes nothing;
 * - `readOutbox` leaves out entries deferred past its `now` and the later entries of their
 *   payments; `deferDelivery` of delivered or unknown sequences changes nothing.
 */
export function paymentRepositoryContract(
  name: string,
  makeHarness: () => Promise<PaymentRepositoryHarness>,
  options: { readonly operations?: boolean } = {},
): void {
  describe(`PaymentRepository contract: ${name}`, () => {
    let harness: PaymentRepositoryHarness;
    let repository: PaymentRepository;

    beforeEach(async () => {
      harness = await makeHarness();
      repository = harness.repository;
    });

    afterEach(async () => {
      await harness.close();
    });

    // Captures, cancels and refunds (decisions.md section 8): on by default.
    if (options.operations !== false) operationRepositoryContract(() => repository, { ok: expectOk, err: expectErr });

    const insert = async (record: PaymentRecord, events: readonly DomainEvent[] = []): Promise<PaymentRecord> => {
      await expectOk(repository.insert(record, events));
      return record;
    };
    const load = (id: string): Promise<PaymentRecord | null> => expectOk(repository.load(id));
    const outbox = (limit = ALL, at = T0): Promise<readonly OutboxEntry[]> =>
      expectOk(repository.readOutbox({ now: at, limit }));
    const outboxEvents = async (): Promise<DomainEvent[]> => (await outbox()).map((entry) => entry.event);
    const ids = (records: readonly PaymentRecord[]): string[] => records.map((record) => record.id);

    describe('load', () => {
      it('returns ok(null) for an unknown id', async () => {
        expect(await load(paymentId())).toBeNull();
      });
    });

    describe('insert', () => {
      it('stores a record that load returns deep-equal, every nested object included', async () => {
        const record = await insert(makeSucceededRecord());
        const loaded = await load(record.id);
        expect(loaded).toStrictEqual(record);
        expect(loaded?.amount).toBe(999_999_999_999);
        expect(typeof loaded?.amount).toBe('number');
      });

      it('preserves nulls and leaves absent optional fields absent', async () => {
        const record = await insert(makeRecord());
        const loaded = await load(record.id);
        expect(loaded).toStrictEqual(record);
        expect(loaded?.browser).toBeNull();
        expect(loaded?.card).toBeNull();
        expect(loaded?.threeDS).toBeNull();
        expect(loaded?.authorization).toBeNull();
        expect(loaded?.description).toBeNull();
        expect(loaded?.nextInquiryAt).toBeNull();
        expect(Object.keys(loaded?.shipping ?? {})).not.toContain('phone');
        expect(Object.keys(loaded?.shipping.address ?? {})).not.toContain('premise');
      });

      it('gives contacts back in the order the engine writes them, so that answers read the same', async () => {
        // The engine's order (contactInOrder): optional fields last. A JSON column may store keys in another.
        const record = await insert(
          makeRecord({ billing: contactInOrder(billingContact), shipping: contactInOrder(shippingContact) }),
        );
        const loaded = await load(record.id);
        expect(JSON.stringify(loaded?.billing)).toBe(JSON.stringify(record.billing));
        expect(JSON.stringify(loaded?.shipping)).toBe(JSON.stringify(record.shipping));
      });

      it('stores a copy: changing the caller’s object afterwards changes nothing', async () => {
        const record = structuredClone(makeSucceededRecord());
        const original = structuredClone(record);
        await insert(record);
        const mutable = record as { -readonly [K in keyof PaymentRecord]: PaymentRecord[K] };
        mutable.amount = 1;
        (mutable.billing.address as { locality: string }).locality = 'Elsewhere';
        expect(await load(record.id)).toStrictEqual(original);
      });

      it('refuses a taken id with conflict, keeping the first record and writing no events', async () => {
        const first = await insert(makeRecord(), []);
        const second = makeRecord({ id: first.id, amount: 2_000 });
        const error = await expectErr(repository.insert(second, [makeEvent(second)]));
        expect(error.code).toBe('conflict');
        expect(await load(first.id)).toStrictEqual(first);
        expect(await outbox()).toEqual([]);
      });

      it('writes no outbox entry when given no events', async () => {
        await insert(makeRecord(), []);
        expect(await outbox()).toEqual([]);
      });
    });

    describe('update', () => {
      it('replaces the record when the stored version is record.version - 1', async () => {
        const v1 = await insert(makeRecord());
        const v2 = nextVersion(v1, { state: 'authenticating', nextRedirect: null });
        await expectOk(repository.update(v2, []));
        expect(await load(v1.id)).toStrictEqual(v2);
        const v3 = nextVersion(v2, { state: 'authorizing', authorizationStatus: 'unknown', nextInquiryAt: T0 });
        await expectOk(repository.update(v3, []));
        expect(await load(v1.id)).toStrictEqual(v3);
      });

      it('can fill and clear nested objects', async () => {
        const v1 = await insert(makeRecord());
        const filled = makeSucceededRecord({ id: v1.id, version: 2 });
        await expectOk(repository.update(filled, []));
        expect(await load(v1.id)).toStrictEqual(filled);
        const cleared = nextVersion(filled, { card: null, threeDS: null, authorization: null, browser: null });
        await expectOk(repository.update(cleared, []));
        expect(await load(v1.id)).toStrictEqual(cleared);
      });

      it('refuses a stale or skipped version with conflict and writes nothing', async () => {
        const v1 = await insert(makeRecord());
        const v2 = nextVersion(v1, { description: 'v2' });
        await expectOk(repository.update(v2, []));

        const stale = { ...v2, description: 'lost update' };
        expect((await expectErr(repository.update(stale, [makeEvent(stale, 'payment.failed')]))).code).toBe('conflict');
        const skipped = { ...v2, version: 4, description: 'skipped' };
        expect((await expectErr(repository.update(skipped, [makeEvent(skipped)]))).code).toBe('conflict');

        expect(await load(v1.id)).toStrictEqual(v2);
        expect(await outbox()).toEqual([]);
      });

      it('refuses an unknown id with conflict and creates nothing', async () => {
        const record = makeRecord({ version: 2 });
        expect((await expectErr(repository.update(record, [makeEvent(record)]))).code).toBe('conflict');
        expect(await load(record.id)).toBeNull();
        expect(await outbox()).toEqual([]);
      });

      it('lets exactly one of 10 concurrent updates from the same version win', async () => {
        const v1 = await insert(makeRecord());
        const candidates = Array.from({ length: 10 }, (_, index) =>
          nextVersion(v1, { description: `writer ${index}` }),
        );
        const events = candidates.map((candidate) => makeEvent(candidate, 'payment.action_required'));
        const results = await Promise.all(
          candidates.map((candidate, index) => repository.update(candidate, [events[index] as DomainEvent])),
        );

        const winners = results.flatMap((result, index) => (result.isOk() ? [index] : []));
        expect(winners).toHaveLength(1);
        for (const result of results) {
          if (result.isErr()) expect(result.error.code).toBe('conflict');
        }
        const winner = winners[0] as number;
        expect(await load(v1.id)).toStrictEqual(candidates[winner]);
        expect(await outboxEvents()).toStrictEqual([events[winner]]);
      });
    });

    describe('list', () => {
      it('returns a profile’s payments newest first', async () => {
        const profileId = uniqueProfileId();
        const times = [T0 + 3, T0, T0 + 7, T0 - 2, T0 + 5];
        const records = times.map((createdAt) => makeRecord({ profileId, createdAt }));
        for (const record of records) await insert(record);

        const page = await expectOk(repository.list({ profileId, limit: 10 }));
        expect(page.items.map((item) => item.createdAt)).toEqual([T0 + 7, T0 + 5, T0 + 3, T0, T0 - 2]);
        expect(page.items).toStrictEqual([...records].sort((a, b) => b.createdAt - a.createdAt));
        expect(page.nextCursor).toBeNull();
      });

      it('breaks createdAt ties by id, descending', async () => {
        const profileId = uniqueProfileId();
        const [a, b, c] = orderedPaymentIds(3) as [string, string, string];
        for (const id of [b, a, c]) await insert(makeRecord({ id, profileId, createdAt: T0 }));

        const page = await expectOk(repository.list({ profileId, limit: 10 }));
        expect(ids(page.items)).toEqual([c, b, a]);
      });

      it('pages with the cursor across equal createdAt values until nextCursor is null', async () => {
        const profileId = uniqueProfileId();
        const paymentIds = orderedPaymentIds(8);
        const times = [T0, T0 + 1, T0, T0 + 2, T0 + 1, T0, T0 - 1, T0 + 1];
        const records = paymentIds.map((id, index) => makeRecord({ id, profileId, createdAt: times[index] as number }));
        for (const record of [...records].reverse()) await insert(record);
        const expected = [...records].sort((x, y) => y.createdAt - x.createdAt || (x.id < y.id ? 1 : -1));

        const seen: PaymentRecord[] = [];
        const pageSizes: number[] = [];
        let after: string | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page = await expectOk(
            repository.list({ profileId, limit: 3, ...(after === undefined ? {} : { after }) }),
          );
          seen.push(...page.items);
          pageSizes.push(page.items.length);
          if (page.nextCursor === null) break;
          expect(page.nextCursor).toBe(page.items[page.items.length - 1]?.id);
          after = page.nextCursor;
        }
        expect(pageSizes).toEqual([3, 3, 2]);
        expect(ids(seen)).toEqual(ids(expected));
        expect(seen).toStrictEqual(expected);
      });

      it('returns nextCursor null when the last page is exactly full', async () => {
        const profileId = uniqueProfileId();
        for (let index = 0; index < 4; index++) await insert(makeRecord({ profileId, createdAt: T0 + index }));

        const first = await expectOk(repository.list({ profileId, limit: 2 }));
        expect(first.items).toHaveLength(2);
        expect(first.nextCursor).not.toBeNull();
        const second = await expectOk(repository.list({ profileId, limit: 2, after: first.nextCursor as string }));
        expect(second.items.map((item) => item.createdAt)).toEqual([T0 + 1, T0]);
        expect(second.nextCursor).toBeNull();

        const all = await expectOk(repository.list({ profileId, limit: 4 }));
        expect(all.items).toHaveLength(4);
        expect(all.nextCursor).toBeNull();
      });

      it('returns limit items at most', async () => {
        const profileId = uniqueProfileId();
        for (let index = 0; index < 5; index++) await insert(makeRecord({ profileId, createdAt: T0 + index }));
        const page = await expectOk(repository.list({ profileId, limit: 1 }));
        expect(page.items.map((item) => item.createdAt)).toEqual([T0 + 4]);
        expect(page.nextCursor).toBe(page.items[0]?.id);
      });

      it('keeps profiles apart, cursors included', async () => {
        const shop = uniqueProfileId();
        const other = uniqueProfileId();
        const mine = [
          await insert(makeRecord({ profileId: shop, createdAt: T0 })),
          await insert(makeRecord({ profileId: shop, createdAt: T0 + 2 })),
        ];
        const theirs = await insert(makeRecord({ profileId: other, createdAt: T0 + 1 }));

        const page = await expectOk(repository.list({ profileId: shop, limit: 10 }));
        expect(ids(page.items)).toEqual([mine[1]?.id, mine[0]?.id]);
        const otherPage = await expectOk(repository.list({ profileId: other, limit: 10 }));
        expect(ids(otherPage.items)).toEqual([theirs.id]);

        const foreignCursor = await expectOk(repository.list({ profileId: shop, limit: 10, after: theirs.id }));
        expect(foreignCursor).toEqual({ items: [], nextCursor: null });
      });

      describe('of one partner, on a profile that changed hands', () => {
        const partnerA = 'partner_list_a';
        const partnerB = 'partner_list_b';
        const owners = [partnerA, partnerB, partnerA, partnerA, partnerB, partnerB, partnerA, partnerB, partnerA];
        const times = [T0, T0, T0 + 1, T0 + 2, T0 + 2, T0 + 2, T0 + 3, T0 + 5, T0 + 5];

        /** The profile's payments of two partners, interleaved (ties on createdAt included), newest first. */
        const interleaved = async (profileId: string): Promise<PaymentRecord[]> => {
          const paymentIds = orderedPaymentIds(owners.length);
          const records = paymentIds.map((id, index) =>
            makeRecord({ id, profileId, partnerId: owners[index] as string, createdAt: times[index] as number }),
          );
          for (const record of [...records].reverse()) await insert(record);
          // Payments of both partners on another profile, newer than all of them: never listed here.
          await insert(makeRecord({ profileId: uniqueProfileId(), partnerId: partnerA, createdAt: T0 + 9 }));
          await insert(makeRecord({ profileId: uniqueProfileId(), partnerId: partnerB, createdAt: T0 + 9 }));
          return [...records].sort((x, y) => y.createdAt - x.createdAt || (x.id < y.id ? 1 : -1));
        };

        it.each([1, 2, 3])(
          'walks full pages of that partner’s payments only, limit %i, cursors naming none of the other’s',
          async (limit) => {
            const profileId = uniqueProfileId();
            const newestFirst = await interleaved(profileId);
            for (const partnerId of [partnerA, partnerB]) {
              const expected = newestFirst.filter((record) => record.partnerId === partnerId);
              const foreign = new Set(ids(newestFirst.filter((record) => record.partnerId !== partnerId)));
              const seen: PaymentRecord[] = [];
              const pageSizes: number[] = [];
              let after: string | undefined;
              for (let pages = 0; pages < 20; pages++) {
                const page = await expectOk(
                  repository.list({ profileId, partnerId, limit, ...(after === undefined ? {} : { after }) }),
                );
                for (const item of page.items) expect(foreign.has(item.id)).toBe(false);
                seen.push(...page.items);
                pageSizes.push(page.items.length);
                if (page.nextCursor === null) break;
                expect(foreign.has(page.nextCursor)).toBe(false);
                expect(page.nextCursor).toBe(page.items[page.items.length - 1]?.id);
                after = page.nextCursor;
              }
              expect(seen).toStrictEqual(expected);
              // Full pages but the last, and no empty page at the end.
              const full = Math.floor(expected.length / limit);
              const rest = expected.length % limit;
              expect(pageSizes).toEqual([...Array<number>(full).fill(limit), ...(rest > 0 ? [rest] : [])]);
            }
            // Without a partner: the profile's payments of both.
            const all = await expectOk(repository.list({ profileId, limit: 20 }));
            expect(all.items).toStrictEqual(newestFirst);
          },
        );

        it('reads a cursor of another partner or profile as an unknown one', async () => {
          const profileId = uniqueProfileId();
          const newestFirst = await interleaved(profileId);
          const ofA = newestFirst.filter((record) => record.partnerId === partnerA);
          const ofB = newestFirst.filter((record) => record.partnerId === partnerB);
          const elsewhereOfB = await insert(
            makeRecord({ profileId: uniqueProfileId(), partnerId: partnerB, createdAt: T0 + 4 }),
          );
          const unknown = await expectOk(
            repository.list({ profileId, partnerId: partnerB, limit: 10, after: paymentId() }),
          );
          expect(unknown).toEqual({ items: [], nextCursor: null });
          for (const after of [...ids(ofA), elsewhereOfB.id]) {
            expect(await expectOk(repository.list({ profileId, partnerId: partnerB, limit: 10, after }))).toEqual(
              unknown,
            );
          }
          for (const after of ids(ofB)) {
            expect(await expectOk(repository.list({ profileId, partnerId: partnerA, limit: 10, after }))).toEqual(
              unknown,
            );
          }
          // The partner's own cursor still works, and a partner with no payment on the profile gets nothing.
          const second = ofB[1] as PaymentRecord;
          expect(
            (
              await expectOk(
                repository.list({ profileId, partnerId: partnerB, limit: 10, after: ofB[0]?.id as string }),
              )
            ).items[0],
          ).toStrictEqual(second);
          expect(await expectOk(repository.list({ profileId, partnerId: 'partner_list_none', limit: 10 }))).toEqual(
            unknown,
          );
        });
      });

      it('returns an empty page for an unknown cursor or a profile without payments', async () => {
        const profileId = uniqueProfileId();
        await insert(makeRecord({ profileId }));
        expect(await expectOk(repository.list({ profileId, limit: 10, after: paymentId() }))).toEqual({
          items: [],
          nextCursor: null,
        });
        expect(await expectOk(repository.list({ profileId: uniqueProfileId(), limit: 10 }))).toEqual({
          items: [],
          nextCursor: null,
        });
      });

      it('shows the current version of updated payments, in creation order', async () => {
        const profileId = uniqueProfileId();
        const older = await insert(makeRecord({ profileId, createdAt: T0 }));
        const newer = await insert(makeRecord({ profileId, createdAt: T0 + 1 }));
        const updated = nextVersion(older, {
          state: 'expired',
          expiresAt: null,
          nextRedirect: null,
          updatedAt: T0 + 99,
        });
        await expectOk(repository.update(updated, []));

        const page = await expectOk(repository.list({ profileId, limit: 10 }));
        expect(page.items).toStrictEqual([newer, updated]);
      });

      it('never skips nor repeats a payment across pages while payments are inserted between them', async () => {
        const profileId = uniqueProfileId();
        // Ids spaced apart, so later inserts can fall between them on a createdAt tie.
        const at = (n: number): string => paymentId(n * 1_000 + 500);
        const times = [T0, T0, T0, T0 + 1, T0 + 1, T0 + 2, T0 + 2, T0 + 2, T0 + 3];
        const records = times.map((createdAt, index) => makeRecord({ id: at(index), profileId, createdAt }));
        for (const record of records) await insert(record);
        const expected = ids([...records].sort((x, y) => y.createdAt - x.createdAt || (x.id < y.id ? 1 : -1)));

        const seen: string[] = [];
        let after: string | undefined;
        let inserted = 0;
        for (let pages = 0; pages < 20; pages++) {
          const page = await expectOk(
            repository.list({ profileId, limit: 2, ...(after === undefined ? {} : { after }) }),
          );
          seen.push(...ids(page.items));
          if (page.nextCursor === null) break;
          after = page.nextCursor;
          // Before the next page: a newer payment, and two on the cursor's own createdAt, one on
          // each side of it in id order (the one below it comes later in the list).
          const cursor = page.items[page.items.length - 1] as PaymentRecord;
          const cursorN = (Number.parseInt(cursor.id.slice('payment_'.length), 16) - 500) / 1_000;
          for (const [id, createdAt] of [
            [paymentId(100_000 + inserted), T0 + 10],
            [paymentId(cursorN * 1_000 + 501 + inserted), cursor.createdAt],
            [paymentId(cursorN * 1_000 + 100 + inserted), cursor.createdAt],
          ] as const) {
            await insert(makeRecord({ id, profileId, createdAt }));
          }
          inserted += 1;
        }
        // Every payment there at the start exactly once, in order; no payment twice.
        expect(seen.filter((id) => expected.includes(id))).toEqual(expected);
        expect(new Set(seen).size).toBe(seen.length);
      });

      it('lists an updated payment where its stored createdAt, profile and partner put it', async () => {
        const profileId = uniqueProfileId();
        const elsewhere = uniqueProfileId();
        const [a, b, c] = [T0, T0 + 1, T0 + 2].map((createdAt) => makeRecord({ profileId, createdAt })) as [
          PaymentRecord,
          PaymentRecord,
          PaymentRecord,
        ];
        for (const record of [a, b, c]) await insert(record);
        // The engine never changes these; a store that replaces the payment must still list it
        // where its current version belongs, as the others read it.
        const moved = nextVersion(a, { createdAt: T0 + 5 });
        await expectOk(repository.update(moved, []));
        expect((await expectOk(repository.list({ profileId, limit: 10 }))).items).toStrictEqual([moved, c, b]);
        const afterMoved = await expectOk(repository.list({ profileId, limit: 10, after: moved.id }));
        expect(afterMoved.items).toStrictEqual([c, b]);

        const gone = nextVersion(b, { profileId: elsewhere, partnerId: 'partner_contract_other' });
        await expectOk(repository.update(gone, []));
        expect((await expectOk(repository.list({ profileId, limit: 10 }))).items).toStrictEqual([moved, c]);
        expect(await expectOk(repository.list({ profileId, limit: 10, after: gone.id }))).toEqual({
          items: [],
          nextCursor: null,
        });
        expect((await expectOk(repository.list({ profileId: elsewhere, limit: 10 }))).items).toStrictEqual([gone]);
        expect(
          (await expectOk(repository.list({ profileId: elsewhere, partnerId: 'partner_contract_other', limit: 10 })))
            .items,
        ).toStrictEqual([gone]);
        expect(
          await expectOk(repository.list({ profileId: elsewhere, partnerId: 'partner_contract', limit: 10 })),
        ).toEqual({ items: [], nextCursor: null });
      });
    });

    describe('findDue', () => {
      const now = T0 + 60 * MINUTE;

      it('finds awaiting_card_data and awaiting_challenge payments whose expiresAt <= now', async () => {
        const past = await insert(makeRecord({ state: 'awaiting_card_data', expiresAt: now - 1 }));
        const boundary = await insert(makeRecord({ state: 'awaiting_challenge', expiresAt: now }));
        await insert(makeRecord({ state: 'awaiting_card_data', expiresAt: now + 1 }));
        await insert(makeRecord({ state: 'awaiting_challenge', expiresAt: now + MINUTE }));
        await insert(makeRecord({ state: 'awaiting_card_data', expiresAt: null }));
        for (const state of ['authenticating', 'succeeded', 'failed', 'expired'] as const) {
          await insert(makeRecord({ state, expiresAt: now - MINUTE }));
        }
        await insert(makeRecord({ state: 'authorizing', expiresAt: now - MINUTE, nextInquiryAt: null }));

        const due = await expectOk(repository.findDue({ now, limit: 10 }));
        expect(ids(due.expiries)).toEqual([past.id, boundary.id]);
        expect(due.expiries[1]).toStrictEqual(boundary);
        expect(due.inquiries).toEqual([]);
      });

      it('finds authorizing payments whose nextInquiryAt <= now', async () => {
        const authorizing = { state: 'authorizing', authorizationStatus: 'unknown', expiresAt: null } as const;
        const past = await insert(makeRecord({ ...authorizing, nextInquiryAt: now - MINUTE }));
        const boundary = await insert(makeRecord({ ...authorizing, nextInquiryAt: now }));
        await insert(makeRecord({ ...authorizing, nextInquiryAt: now + 1 }));
        await insert(makeRecord({ ...authorizing, authorizationStatus: 'requested', nextInquiryAt: null }));
        await insert(makeSucceededRecord({ nextInquiryAt: now - MINUTE }));
        await insert(makeRecord({ state: 'awaiting_card_data', expiresAt: now + 1, nextInquiryAt: now - MINUTE }));

        const due = await expectOk(repository.findDue({ now, limit: 10 }));
        expect(ids(due.inquiries)).toEqual([past.id, boundary.id]);
        expect(due.inquiries[0]).toStrictEqual(past);
        expect(due.expiries).toEqual([]);
      });

      it('returns at most limit of each kind, oldest due first', async () => {
        const expiring = [5, 1, 4, 2, 3].map((minutes) =>
          makeRecord({
            state: minutes % 2 === 0 ? 'awaiting_challenge' : 'awaiting_card_data',
            expiresAt: now - minutes * MINUTE,
          }),
        );
        const inquiring = [2, 4, 1, 3].map((minutes) =>
          makeRecord({
            state: 'authorizing',
            authorizationStatus: 'unknown',
            expiresAt: null,
            nextInquiryAt: now - minutes * MINUTE,
          }),
        );
        for (const record of [...expiring, ...inquiring]) await insert(record);

        const two = await expectOk(repository.findDue({ now, limit: 2 }));
        expect(two.expiries.map((record) => record.expiresAt)).toEqual([now - 5 * MINUTE, now - 4 * MINUTE]);
        expect(two.inquiries.map((record) => record.nextInquiryAt)).toEqual([now - 4 * MINUTE, now - 3 * MINUTE]);

        const all = await expectOk(repository.findDue({ now, limit: 100 }));
        expect(all.expiries.map((record) => record.expiresAt)).toEqual([5, 4, 3, 2, 1].map((m) => now - m * MINUTE));
        expect(all.inquiries.map((record) => record.nextInquiryAt)).toEqual([4, 3, 2, 1].map((m) => now - m * MINUTE));
      });

      it('follows updates: a payment leaves the due sets when it moves on or is rescheduled', async () => {
        const hosted = await insert(makeRecord({ state: 'awaiting_card_data', expiresAt: now - MINUTE }));
        const inquiry = await insert(
          makeRecord({
            state: 'authorizing',
            authorizationStatus: 'unknown',
            expiresAt: null,
            nextInquiryAt: now - MINUTE,
          }),
        );
        const before = await expectOk(repository.findDue({ now, limit: 10 }));
        expect(ids(before.expiries)).toEqual([hosted.id]);
        expect(ids(before.inquiries)).toEqual([inquiry.id]);

        await expectOk(repository.update(nextVersion(hosted, { state: 'expired', nextRedirect: null }), []));
        await expectOk(
          repository.update(nextVersion(inquiry, { nextInquiryAt: now + MINUTE, inquiryAttempts: 1 }), []),
        );
        expect(await expectOk(repository.findDue({ now, limit: 10 }))).toEqual({
          expiries: [],
          inquiries: [],
          authorizationExpiries: [],
        });

        const later = await expectOk(repository.findDue({ now: now + MINUTE, limit: 10 }));
        expect(later.expiries).toEqual([]);
        expect(ids(later.inquiries)).toEqual([inquiry.id]);
        expect(later.inquiries[0]?.inquiryAttempts).toBe(1);
      });

      it('joins the due sets through an update as well', async () => {
        const created = await insert(makeRecord({ state: 'authenticating', expiresAt: null }));
        const challenged = nextVersion(created, { state: 'awaiting_challenge', expiresAt: now - 1 });
        await expectOk(repository.update(challenged, []));
        const due = await expectOk(repository.findDue({ now, limit: 10 }));
        expect(due.expiries).toStrictEqual([challenged]);
      });

      it('returns empty lists when nothing is due', async () => {
        await insert(makeRecord({ expiresAt: now + 1 }));
        expect(await expectOk(repository.findDue({ now, limit: 10 }))).toEqual({
          expiries: [],
          inquiries: [],
          authorizationExpiries: [],
        });
      });
    });

    describe('outbox', () => {
      it('returns undelivered events oldest first, with increasing sequences', async () => {
        const a = makeRecord();
        const b = makeRecord();
        const created = [makeEvent(a, 'payment.created'), makeEvent(a, 'payment.action_required')];
        const other = makeEvent(b, 'payment.created');
        await insert(a, created);
        await insert(b, [other]);
        const expiredA = nextVersion(a, { state: 'expired', nextRedirect: null });
        const expired = makeEvent(expiredA, 'payment.expired');
        await expectOk(repository.update(expiredA, [expired]));

        const entries = await outbox();
        expect(entries.map((entry) => entry.event)).toStrictEqual([...created, other, expired]);
        // As written, keys in their order too: a consumer gets the same bytes from every adapter.
        expect(entries.map((entry) => JSON.stringify(entry.event))).toEqual(
          [...created, other, expired].map((event) => JSON.stringify(event)),
        );
        const sequences = entries.map((entry) => entry.sequence);
        for (let index = 1; index < sequences.length; index++) {
          expect(sequences[index]).toBeGreaterThan(sequences[index - 1] as number);
        }
      });

      it('returns at most limit entries', async () => {
        const record = makeRecord();
        const events = [
          makeEvent(record),
          makeEvent(record, 'payment.action_required'),
          makeEvent(record, 'payment.expired'),
        ];
        await insert(record, events);
        expect((await outbox(2)).map((entry) => entry.event)).toStrictEqual(events.slice(0, 2));
      });

      it('forgets delivered entries; marking again or unknown sequences changes nothing', async () => {
        const record = makeRecord();
        const events = [
          makeEvent(record),
          makeEvent(record, 'payment.action_required'),
          makeEvent(record, 'payment.expired'),
        ];
        await insert(record, events);
        const [first, second, third] = (await outbox()) as [OutboxEntry, OutboxEntry, OutboxEntry];

        await expectOk(repository.markDelivered([second.sequence]));
        expect(await outbox()).toStrictEqual([first, third]);
        await expectOk(repository.markDelivered([first.sequence, second.sequence, third.sequence + 1_000_000]));
        expect(await outbox()).toStrictEqual([third]);
        await expectOk(repository.markDelivered([]));
        await expectOk(repository.markDelivered([third.sequence]));
        expect(await outbox()).toEqual([]);

        const later = makeEvent(record, 'payment.expired');
        await expectOk(repository.update(nextVersion(record, { state: 'expired' }), [later]));
        const [next] = (await outbox()) as [OutboxEntry];
        expect(next.event).toStrictEqual(later);
        expect(next.sequence).toBeGreaterThan(third.sequence);
      });

      it('leaves a deferred entry out until its retryAt, then returns it with its attempt count', async () => {
        const record = makeRecord();
        await insert(record, [makeEvent(record)]);
        const [entry] = (await outbox()) as [OutboxEntry];
        expect(entry.attempts).toBe(0);

        await expectOk(repository.deferDelivery([{ sequence: entry.sequence, attempts: 1, retryAt: T0 + MINUTE }]));
        expect(await outbox(ALL, T0)).toEqual([]);
        expect(await outbox(ALL, T0 + MINUTE - 1)).toEqual([]);
        expect(await outbox(ALL, T0 + MINUTE)).toStrictEqual([{ ...entry, attempts: 1 }]);

        // Deferring again replaces both, an earlier retryAt included.
        await expectOk(repository.deferDelivery([{ sequence: entry.sequence, attempts: 2, retryAt: T0 + 1 }]));
        expect(await outbox(ALL, T0)).toEqual([]);
        expect(await outbox(ALL, T0 + 1)).toStrictEqual([{ ...entry, attempts: 2 }]);
      });

      it("holds a payment's later entries behind its deferred one, in order, and no other payment's", async () => {
        const a = makeRecord();
        const b = makeRecord();
        await insert(a, [makeEvent(a)]);
        await insert(b, [makeEvent(b)]);
        const aLater = nextVersion(a, { state: 'expired', nextRedirect: null });
        await expectOk(repository.update(aLater, [makeEvent(aLater, 'payment.expired')]));
        const [aFirst, bFirst, aSecond] = (await outbox()) as [OutboxEntry, OutboxEntry, OutboxEntry];
        expect([aFirst.event.paymentId, bFirst.event.paymentId, aSecond.event.paymentId]).toEqual([a.id, b.id, a.id]);

        await expectOk(repository.deferDelivery([{ sequence: aFirst.sequence, attempts: 1, retryAt: T0 + MINUTE }]));
        expect(await outbox()).toStrictEqual([bFirst]);
        expect(await outbox(ALL, T0 + MINUTE)).toStrictEqual([{ ...aFirst, attempts: 1 }, bFirst, aSecond]);

        // A later entry deferred on its own does not hold back the earlier one.
        await expectOk(repository.deferDelivery([{ sequence: aFirst.sequence, attempts: 1, retryAt: T0 }]));
        await expectOk(repository.deferDelivery([{ sequence: aSecond.sequence, attempts: 1, retryAt: T0 + MINUTE }]));
        expect(await outbox()).toStrictEqual([{ ...aFirst, attempts: 1 }, bFirst]);
      });

      it('fills the limit from other payments however many deferred entries come first', async () => {
        const stuck = Array.from({ length: 5 }, () => makeRecord());
        for (const record of stuck) await insert(record, [makeEvent(record)]);
        const fresh = makeRecord();
        const freshEvents = [makeEvent(fresh), makeEvent(fresh, 'payment.action_required')];
        await insert(fresh, freshEvents);
        const deferrals = (await outbox())
          .filter((entry) => entry.event.paymentId !== fresh.id)
          .map((entry) => ({ sequence: entry.sequence, attempts: 3, retryAt: T0 + MINUTE }));
        expect(deferrals).toHaveLength(5);
        await expectOk(repository.deferDelivery(deferrals));
        expect((await outbox(2)).map((entry) => entry.event)).toStrictEqual(freshEvents);
        expect(await outbox(2, T0 + MINUTE)).toHaveLength(2);
        expect((await outbox(ALL, T0 + MINUTE)).map((entry) => entry.attempts)).toEqual([3, 3, 3, 3, 3, 0, 0]);
      });

      it('ignores deferrals of delivered or unknown sequences; marking a deferred entry delivered forgets it', async () => {
        const record = makeRecord();
        await insert(record, [makeEvent(record), makeEvent(record, 'payment.action_required')]);
        const [first, second] = (await outbox()) as [OutboxEntry, OutboxEntry];
        await expectOk(repository.markDelivered([first.sequence]));
        await expectOk(
          repository.deferDelivery([
            { sequence: first.sequence, attempts: 1, retryAt: T0 + MINUTE },
            { sequence: second.sequence + 1_000_000, attempts: 1, retryAt: T0 + MINUTE },
          ]),
        );
        await expectOk(repository.deferDelivery([]));
        expect(await outbox()).toStrictEqual([second]);

        await expectOk(repository.deferDelivery([{ sequence: second.sequence, attempts: 1, retryAt: T0 + MINUTE }]));
        await expectOk(repository.markDelivered([second.sequence]));
        expect(await outbox(ALL, T0 + MINUTE)).toEqual([]);
      });

      it('writes events only together with their record', async () => {
        const record = makeRecord();
        await insert(record, [makeEvent(record)]);
        const [created] = (await outbox()) as [OutboxEntry];
        await expectOk(repository.markDelivered([created.sequence]));

        const duplicate = makeRecord({ id: record.id });
        await expectErr(repository.insert(duplicate, [makeEvent(duplicate)]));
        const stale = { ...record, description: 'stale' };
        await expectErr(repository.update(stale, [makeEvent(stale, 'payment.failed')]));
        expect(await outbox()).toEqual([]);

        const v2 = nextVersion(record);
        const event = makeEvent(v2, 'payment.action_required');
        await expectOk(repository.update(v2, [event]));
        expect(await outboxEvents()).toStrictEqual([event]);
      });
    });
  });
}
