import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { MemoryPaymentRepository } from '../../adapters/memory/index.js';
import { isDeepFrozen } from '../../src/domain/index.js';
import type { FailureReason } from '../../src/domain/index.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { createDirect, VISA } from '../support/engine-helpers.js';

/** Records whether each write the repository gets is frozen all the way down (checked without a base). */
function checkedWrites(repository: MemoryPaymentRepository) {
  const frozen: boolean[] = [];
  const check =
    (write: PaymentRepository['insert']): PaymentRepository['insert'] =>
    (record, events) => {
      frozen.push(isDeepFrozen(record) && isDeepFrozen(events));
      return write(record, events);
    };
  const wrapped: PaymentRepository = {
    insert: check(repository.insert),
    update: check(repository.update),
    load: repository.load,
    list: repository.list,
    findDue: repository.findDue,
    readOutbox: repository.readOutbox,
    markDelivered: repository.markDelivered,
    deferDelivery: repository.deferDelivery,
  };
  return { wrapped, frozen };
}

// Values that reach the record through a machine event (a decline's `reason`, becoming
// `failureReason` in applyStep) are not frozen by `newWorkingPayment` or `patch`: `persist` walks
// every field that is not the very object of the last frozen version, so they are frozen there.
describe('what the engine hands a repository, when a port answers with an object where a string belongs', () => {
  it('is still frozen all the way down, and so is the payment it returns', async () => {
    let spy: ReturnType<typeof checkedWrites> | undefined;
    const h = makeEngineHarness({}, 0, {
      wrapRepository: (repository) => {
        spy = checkedWrites(repository);
        return spy.wrapped;
      },
    });
    // An acquirer written in JavaScript (or behind a cast) that declines with a structured reason.
    const reason = { code: 'declined' } as unknown as FailureReason;
    Object.assign(h.acquirer, {
      authorize: () => Promise.resolve(ok({ kind: 'declined' as const, responseCode: '05', reason })),
    });
    const payment = await createDirect(h, VISA);
    expect(payment.state).toBe('failed');
    expect(spy?.frozen).toEqual([true, true]);
    expect(isDeepFrozen(payment)).toBe(true);
  });
});
