import { describe, expect, it } from 'vitest';
import type { MemoryPaymentRepository } from '../../adapters/memory/index.js';
import type { PaymentRecord } from '../../src/index.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { cardSubmission } from '../support/requests.js';
import { MINUTE, VISA, createHosted } from '../support/engine-helpers.js';

/**
 * A repository may hand out records it does not freeze (Postgres builds fresh objects): the engine
 * freezes a copy, not the record object it was handed, which stays the repository's own. Written
 * against a mutant (the handed-out record frozen in place) that no other test killed. (The copy is
 * shallow: the nested objects, contacts and the like, are shared and do get frozen; not pinned here.)
 */
describe('records a repository hands out unfrozen', () => {
  function unfrozenRepository() {
    const handedOut: PaymentRecord[] = [];
    const hand = (record: PaymentRecord): PaymentRecord => {
      const copy = structuredClone(record);
      handedOut.push(copy);
      return copy;
    };
    const wrap = (repository: MemoryPaymentRepository): PaymentRepository => ({
      ...repository,
      load: async (id) => (await repository.load(id)).map((record) => (record === null ? null : hand(record))),
      findDue: async (query) =>
        (await repository.findDue(query)).map((due) => ({
          expiries: due.expiries.map(hand),
          inquiries: due.inquiries.map(hand),
          authorizationExpiries: due.authorizationExpiries.map(hand),
        })),
    });
    return { wrap, handedOut };
  }

  it('stay unfrozen and unchanged after a submit and after a sweep', async () => {
    const { wrap, handedOut } = unfrozenRepository();
    const h = makeEngineHarness({}, 0, { wrapRepository: wrap });
    const paid = await createHosted(h);
    const abandoned = await createHosted(h);
    const submitted = await h.engine.submitCard({
      paymentId: paid.id,
      token: h.hostedToken(paid),
      body: cardSubmission(VISA),
    });
    expect(submitted._unsafeUnwrap().state).toBe('succeeded');
    h.clock.advance(61 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(1);

    expect(handedOut.map((record) => record.id)).toEqual(expect.arrayContaining([paid.id, abandoned.id]));
    for (const record of handedOut) {
      expect(Object.isFrozen(record)).toBe(false);
      expect(record.version).toBe(1);
      expect(record.state).toBe('awaiting_card_data');
    }
    // And what the engine answered is frozen all the way down all the same.
    const view = submitted._unsafeUnwrap();
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.isFrozen(view.billing.address)).toBe(true);
  });
});
