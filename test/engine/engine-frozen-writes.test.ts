import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { MemoryPaymentRepository } from '../../adapters/memory/index.js';
import { isDeepFrozen } from '../../src/domain/index.js';
import type { FailureReason } from '../../src/domain/index.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { CHALLENGE_CARD, createDirect, createHosted, MINUTE, stored, VISA } from '../support/engine-helpers.js';
import { cardSubmission } from '../support/requests.js';

interface Write {
  readonly method: string;
  readonly state: string;
  readonly frozen: boolean;
}

/**
 * A repository that reads like Postgres (every record it returns is a fresh, unfrozen object) and
 * records in `writes` whether each write it gets is frozen all the way down, checked without any base.
 */
function unfrozenReads(repository: MemoryPaymentRepository, writes: Write[]): PaymentRepository {
  const thaw = <T>(value: T): T => structuredClone(value);
  const recorded =
    (method: string, write: PaymentRepository['insert']): PaymentRepository['insert'] =>
    (record, events) => {
      writes.push({ method, state: record.state, frozen: isDeepFrozen(record) && isDeepFrozen(events) });
      return write(record, events);
    };
  const wrapped: PaymentRepository = {
    insert: recorded('insert', repository.insert),
    update: recorded('update', repository.update),
    load: async (id) => (await repository.load(id)).map(thaw),
    list: async (query) => (await repository.list(query)).map(thaw),
    findDue: async (query) => (await repository.findDue(query)).map(thaw),
    readOutbox: async (query) => (await repository.readOutbox(query)).map(thaw),
    markDelivered: (sequences) => repository.markDelivered(sequences),
    deferDelivery: (deferrals) => repository.deferDelivery(deferrals),
    insertOperation: (write) => repository.insertOperation(write),
    updateOperation: (write) => repository.updateOperation(write),
    loadOperation: async (id) => (await repository.loadOperation(id)).map(thaw),
    listOperations: async (query) => (await repository.listOperations(query)).map(thaw),
    findDueOperations: async (query) => (await repository.findDueOperations(query)).map(thaw),
  };
  return wrapped;
}

/** An engine harness whose repository reads like Postgres and records how frozen each write is. */
function spiedHarness() {
  const writes: Write[] = [];
  const h = makeEngineHarness({}, 0, { wrapRepository: (repository) => unfrozenReads(repository, writes) });
  return { h, writes };
}

describe('what the engine hands a repository', () => {
  it('is frozen all the way down in every flow, also when the repository returns unfrozen records', async () => {
    const { h, writes } = spiedHarness();
    // Direct flow: insert, then update in one command.
    await createDirect(h, VISA);
    // Hosted flow with a challenge: loaded (unfrozen) for the submit and again for the answer.
    const hosted = await createHosted(h);
    const submitted = await h.engine.submitCard({
      paymentId: hosted.id,
      token: h.hostedToken(hosted),
      body: cardSubmission(CHALLENGE_CARD),
    });
    expect(submitted._unsafeUnwrap().state).toBe('processing');
    expect((await stored(h, hosted.id)).state).toBe('awaiting_challenge');
    const answered = await h.engine.completeChallenge(await h.challengeAnswer(hosted.id, 'authorise'));
    expect(answered._unsafeUnwrap().state).toBe('succeeded');
    // Sweeper: an expiry and a reconciliation, both from unfrozen findDue records.
    const abandoned = await createHosted(h);
    h.acquirer.failNextAuthorize('answer_lost');
    const unknown = await createDirect(h, VISA);
    h.clock.advance(2 * 60 * MINUTE);
    const report = (await h.engine.sweep())._unsafeUnwrap();
    expect(report).toMatchObject({ expired: 1, reconciled: 1 });
    expect((await stored(h, abandoned.id)).state).toBe('expired');
    expect((await stored(h, unknown.id)).state).toBe('succeeded');

    expect(writes.filter((write) => write.method === 'update').length).toBeGreaterThanOrEqual(6);
    expect(writes.filter((write) => !write.frozen)).toEqual([]);
  });

  // Values that reach the record through a machine event (a decline's `reason`, becoming
  // `failureReason` in applyStep) are not frozen by `newWorkingPayment` or `patch`: `persist` walks
  // every field that is not the very object of the last frozen version, so they are frozen there.
  // Since the engine checks every acquirer answer (port-answers.ts), such a value no longer
  // reaches the record at all: the decline below is malformed, so its outcome is unknown.
  it('is frozen all the way down when a port answers with an object where a string belongs, and so is the payment returned', async () => {
    const { h, writes } = spiedHarness();
    // An acquirer written in JavaScript (or behind a cast) that declines with a structured reason.
    const reason = { code: 'declined' } as unknown as FailureReason;
    Object.assign(h.acquirer, {
      authorize: () => Promise.resolve(ok({ kind: 'declined' as const, responseCode: '05', reason })),
    });
    const payment = await createDirect(h, VISA);
    expect(payment.state).toBe('processing');
    expect((await stored(h, payment.id)).failureReason).toBeNull();
    expect(writes.map((write) => write.frozen)).toEqual([true, true]);
    expect(isDeepFrozen(payment)).toBe(true);
  });
});
