import { beforeEach, describe, expect, it } from 'vitest';
import type { OperationRecord } from '../../src/domain/money-operation.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import { makeEvent, MINUTE, nextVersion, T0 } from './fixtures.js';
import type { expectErr, expectOk } from './payment-repository.contract.js';
import { makeManualPayment, makeOperation, makeSalePayment } from './operation-fixtures.js';

/** `expectOk` and `expectErr` of the payment repository contract. */
interface Expect {
  readonly ok: typeof expectOk;
  readonly err: typeof expectErr;
}

/**
 * The money-operation methods of `PaymentRepository` (decisions.md section 8): every write of an
 * operation is atomic with its payment and events, versioned on both, and refuses a payment whose
 * counters break an invariant, so that of two concurrent reservations only one can land.
 * `repository()` gives the (empty) repository of the running test.
 */
export function operationRepositoryContract(repository: () => PaymentRepository, expectResult: Expect): void {
  describe('money operations', () => {
    let store: PaymentRepository;
    beforeEach(() => {
      store = repository();
    });
    const insertPayment = async (record: PaymentRecord) => {
      await expectResult.ok(store.insert(record, []));
      return record;
    };
    const outbox = async () =>
      (await expectResult.ok(store.readOutbox({ now: T0 + 10 * MINUTE, limit: 1000 }))).map((entry) => entry.event);
    const reserveRefund = (payment: PaymentRecord, operation: OperationRecord) =>
      nextVersion(payment, { refundReserved: payment.refundReserved + operation.amount });

    it('insertOperation stores the operation, the payment and the events together', async () => {
      const payment = await insertPayment(makeSalePayment());
      const refund = makeOperation(payment, 'refund');
      const reserved = reserveRefund(payment, refund);
      const event = makeEvent(reserved, 'refund.succeeded');
      await expectResult.ok(store.insertOperation({ operation: refund, payment: reserved, events: [event] }));
      expect(await expectResult.ok(store.loadOperation(refund.id))).toStrictEqual(refund);
      expect(await expectResult.ok(store.load(payment.id))).toStrictEqual(reserved);
      expect(await outbox()).toStrictEqual([event]);
      expect(await expectResult.ok(store.loadOperation(`refund_${'0'.repeat(32)}`))).toBeNull();
    });

    it('refuses, writing nothing: a taken operation id, a stale payment version, broken invariants', async () => {
      const payment = await insertPayment(makeSalePayment());
      const first = makeOperation(payment, 'refund', { amount: 60 });
      const v2 = reserveRefund(payment, first);
      await expectResult.ok(store.insertOperation({ operation: first, payment: v2, events: [] }));

      const sameId = { ...makeOperation(v2, 'refund', { amount: 10 }), id: first.id };
      expect(
        (
          await expectResult.err(
            store.insertOperation({ operation: sameId, payment: reserveRefund(v2, sameId), events: [makeEvent(v2)] }),
          )
        ).code,
      ).toBe('conflict');

      const stale = makeOperation(payment, 'refund', { amount: 10 });
      expect(
        (
          await expectResult.err(
            store.insertOperation({
              operation: stale,
              payment: reserveRefund(payment, stale),
              events: [makeEvent(v2)],
            }),
          )
        ).code,
      ).toBe('conflict');

      const tooMuch = makeOperation(v2, 'refund', { amount: 41 });
      expect(
        (
          await expectResult.err(
            store.insertOperation({ operation: tooMuch, payment: reserveRefund(v2, tooMuch), events: [makeEvent(v2)] }),
          )
        ).code,
      ).toBe('conflict');
      const manual = await insertPayment(makeManualPayment());
      const overCapture = makeOperation(manual, 'capture', { amount: 101 });
      const overReserved = nextVersion(manual, { captureReserved: 101 });
      expect(
        (await expectResult.err(store.insertOperation({ operation: overCapture, payment: overReserved, events: [] })))
          .code,
      ).toBe('conflict');

      for (const refused of [stale, tooMuch, overCapture]) {
        expect(await expectResult.ok(store.loadOperation(refused.id))).toBeNull();
      }
      expect(await expectResult.ok(store.loadOperation(first.id))).toStrictEqual(first);
      expect(await expectResult.ok(store.load(payment.id))).toStrictEqual(v2);
      expect(await expectResult.ok(store.load(manual.id))).toStrictEqual(manual);
      expect(await outbox()).toEqual([]);
    });

    it('update refuses a payment whose counters break an invariant', async () => {
      const payment = await insertPayment(makeSalePayment());
      const broken = nextVersion(payment, { amountRefunded: 10 });
      expect((await expectResult.err(store.update(broken, []))).code).toBe('conflict');
      expect(await expectResult.ok(store.load(payment.id))).toStrictEqual(payment);
    });

    it('of two concurrent reservations on one payment version, exactly one lands', async () => {
      const payment = await insertPayment(makeSalePayment());
      const a = makeOperation(payment, 'refund', { amount: 60 });
      const b = makeOperation(payment, 'refund', { amount: 60 });
      const results = await Promise.all([
        store.insertOperation({ operation: a, payment: reserveRefund(payment, a), events: [] }),
        store.insertOperation({ operation: b, payment: reserveRefund(payment, b), events: [] }),
      ]);
      expect(results.filter((result) => result.isOk())).toHaveLength(1);
      const stored = await expectResult.ok(store.load(payment.id));
      expect(stored?.refundReserved).toBe(60);
      const listed = await expectResult.ok(store.listOperations({ paymentId: payment.id, limit: 10 }));
      expect(listed.items).toHaveLength(1);
    });

    it('updateOperation is versioned on the operation and, when given, on the payment', async () => {
      const payment = await insertPayment(makeSalePayment());
      const refund = makeOperation(payment, 'refund');
      const v2 = reserveRefund(payment, refund);
      await expectResult.ok(store.insertOperation({ operation: refund, payment: v2, events: [] }));

      // An unknown outcome: the operation alone is rescheduled.
      const unknown = {
        ...refund,
        version: 2,
        status: 'unknown' as const,
        nextInquiryAt: T0 + 5 * MINUTE,
        inquiryAttempts: 1,
      };
      await expectResult.ok(store.updateOperation({ operation: unknown, payment: null, events: [] }));
      expect(
        (await expectResult.err(store.updateOperation({ operation: unknown, payment: null, events: [] }))).code,
      ).toBe('conflict');

      const succeeded: OperationRecord = {
        ...unknown,
        version: 3,
        state: 'succeeded',
        status: null,
        nextInquiryAt: null,
        acquirerReference: 'ref_0001',
      };
      const staleSettled = nextVersion(payment, { refundReserved: 60, amountRefunded: 60 });
      expect(
        (
          await expectResult.err(
            store.updateOperation({ operation: succeeded, payment: staleSettled, events: [makeEvent(staleSettled)] }),
          )
        ).code,
      ).toBe('conflict');
      expect(await expectResult.ok(store.loadOperation(refund.id))).toStrictEqual(unknown);

      const settled = nextVersion(v2, { amountRefunded: 60 });
      const event = makeEvent(settled, 'refund.succeeded');
      await expectResult.ok(store.updateOperation({ operation: succeeded, payment: settled, events: [event] }));
      expect(await expectResult.ok(store.loadOperation(refund.id))).toStrictEqual(succeeded);
      expect(await expectResult.ok(store.load(payment.id))).toStrictEqual(settled);
      expect(await outbox()).toStrictEqual([event]);
      const missing = makeOperation(payment, 'refund', { version: 2 });
      expect(
        (await expectResult.err(store.updateOperation({ operation: missing, payment: null, events: [] }))).code,
      ).toBe('conflict');
    });

    it('listOperations: oldest first, by kind, in pages with a cursor', async () => {
      let payment = await insertPayment(makeManualPayment());
      const made: OperationRecord[] = [];
      for (let i = 0; i < 5; i += 1) {
        const kind = i === 2 ? 'refund' : 'capture';
        const operation = makeOperation(payment, kind, {
          amount: 10,
          createdAt: T0 + (i === 4 ? 3 : i) * MINUTE,
          final: false,
        });
        const next =
          kind === 'capture'
            ? nextVersion(payment, {
                captureReserved: payment.captureReserved + 10,
                amountCaptured: payment.amountCaptured + 10,
              })
            : nextVersion(payment, { refundReserved: payment.refundReserved + 10 });
        await expectResult.ok(store.insertOperation({ operation, payment: next, events: [] }));
        payment = next;
        made.push(operation);
      }
      const captures = made.filter((operation) => operation.kind === 'capture');
      const expected = [...captures]
        .sort((x, y) => x.createdAt - y.createdAt || (x.id < y.id ? -1 : 1))
        .map((o) => o.id);
      const all = await expectResult.ok(store.listOperations({ paymentId: payment.id, kind: 'capture', limit: 10 }));
      expect(all.items.map((o) => o.id)).toEqual(expected);
      expect(all.nextCursor).toBeNull();
      const first = await expectResult.ok(store.listOperations({ paymentId: payment.id, kind: 'capture', limit: 2 }));
      expect(first.items.map((o) => o.id)).toEqual(expected.slice(0, 2));
      expect(first.nextCursor).toBe(expected[1]);
      const rest = await expectResult.ok(
        store.listOperations({ paymentId: payment.id, kind: 'capture', limit: 2, after: first.nextCursor ?? '' }),
      );
      expect(rest.items.map((o) => o.id)).toEqual(expected.slice(2, 4));
      expect(rest.nextCursor).toBeNull();
      const everything = await expectResult.ok(store.listOperations({ paymentId: payment.id, limit: 10 }));
      expect(everything.items).toHaveLength(5);
      const unknownCursor = await expectResult.ok(
        store.listOperations({ paymentId: payment.id, limit: 10, after: `capture_${'f'.repeat(32)}` }),
      );
      expect(unknownCursor).toEqual({ items: [], nextCursor: null });
      const none = await expectResult.ok(store.listOperations({ paymentId: makeManualPayment().id, limit: 10 }));
      expect(none).toEqual({ items: [], nextCursor: null });
    });

    it('findDueOperations: processing operations whose inquiry is due, soonest first', async () => {
      let payment = await insertPayment(makeSalePayment());
      const due = [3, 1, 2].map((minutes) =>
        makeOperation(payment, 'refund', { amount: 10, nextInquiryAt: T0 + minutes * MINUTE }),
      );
      const later = makeOperation(payment, 'refund', { amount: 10, nextInquiryAt: T0 + 60 * MINUTE });
      const done = makeOperation(payment, 'refund', {
        amount: 10,
        state: 'succeeded',
        status: null,
        nextInquiryAt: null,
      });
      for (const operation of [...due, later, done]) {
        const next = nextVersion(payment, { refundReserved: payment.refundReserved + 10 });
        await expectResult.ok(store.insertOperation({ operation, payment: next, events: [] }));
        payment = next;
      }
      const found = await expectResult.ok(store.findDueOperations({ now: T0 + 5 * MINUTE, limit: 10 }));
      expect(found.map((o) => o.id)).toEqual([due[1], due[2], due[0]].map((o) => o?.id));
      expect(
        (await expectResult.ok(store.findDueOperations({ now: T0 + 5 * MINUTE, limit: 2 }))).map((o) => o.id),
      ).toEqual([due[1]?.id, due[2]?.id]);
    });

    it('findDue: open manual authorizations whose time is up', async () => {
      const dueOpen = await insertPayment(makeManualPayment({ authorizationExpiresAt: T0 }));
      await insertPayment(makeManualPayment({ authorizationExpiresAt: T0 + MINUTE }));
      await insertPayment(makeManualPayment({ authorizationExpiresAt: T0, captureClosedBy: 'expiry' }));
      await insertPayment(makeSalePayment({ authorizationExpiresAt: T0 }));
      const found = await expectResult.ok(store.findDue({ now: T0, limit: 10 }));
      expect(found.authorizationExpiries.map((record) => record.id)).toEqual([dueOpen.id]);
      await expectResult.ok(store.update(nextVersion(dueOpen, { captureClosedBy: 'expiry' }), []));
      expect((await expectResult.ok(store.findDue({ now: T0, limit: 10 }))).authorizationExpiries).toEqual([]);
    });
  });
}
