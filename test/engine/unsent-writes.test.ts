import { err, type Result } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { MemoryPaymentRepository } from '../../adapters/memory/index.js';
import type { PaymentRepository, RepositoryError } from '../../src/index.js';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { cardSubmission, directRequest, hostedRequest } from '../support/requests.js';
import { PROFILE, VISA, createHosted } from '../support/engine-helpers.js';
import { MAYBE_SENT as lost, NOT_SENT as refused } from '../support/repository-errors.js';

/*
 * A write that certainly never reached storage (the adapter says `notSent`: the connection was
 * refused, none could be had in time) stored nothing: the command answers a plain `unavailable`,
 * not `outcome: 'unknown'`, which the HTTP API turns into `payment_may_exist` and which sends a
 * client off to reconcile. It used to answer `unknown` whenever the read that would confirm the
 * write failed too, which it always does when the database is down.
 */

/** Counts the loads that reach the repository, passing every call on. */
function countingLoads(counter: { loads: number }) {
  return (repository: MemoryPaymentRepository): PaymentRepository => ({
    ...repository,
    insert: (record, events) => repository.insert(record, events),
    update: (record, events) => repository.update(record, events),
    load: (id) => {
      counter.loads += 1;
      return repository.load(id);
    },
  });
}

describe('a write that never reached storage (notSent)', () => {
  it('a create whose every attempt was refused: plain unavailable, no read back, nothing stored or authorized', async () => {
    const counter = { loads: 0 };
    const h = makeEngineHarness({ retries: 2 }, 0, { wrapRepository: countingLoads(counter) });
    for (let attempt = 0; attempt < 3; attempt++) h.repository.injectFailure('insert', refused);
    // Were the payment read back, this read would fail too (the database is down).
    h.repository.injectFailure('load', refused);
    const created = await h.engine.createPayment({
      client: compliantClient,
      profileId: PROFILE,
      body: directRequest(VISA),
    });
    const error = created._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'unavailable', retryable: true });
    expect(error).not.toHaveProperty('outcome');
    expect(counter.loads).toBe(0);
    expect(h.repository.size()).toBe(0);
    expect(h.acquirer.authorizations()).toEqual([]);
  });

  it('a hosted create refused at once without retries: plain unavailable', async () => {
    const h = makeEngineHarness({ retries: 0 });
    h.repository.injectFailure('insert', refused);
    h.repository.injectFailure('load', refused);
    const error = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() })
    )._unsafeUnwrapErr();
    expect(error).toEqual({ code: 'unavailable', message: expect.stringContaining('ECONNREFUSED'), retryable: true });
  });

  it('an update refused at connect time (a hosted submit): plain unavailable, the payment as it was', async () => {
    // Once an update has failed, every read fails too (the database is down).
    let down = false;
    const h = makeEngineHarness({ retries: 1 }, 0, {
      wrapRepository: (repository) => ({
        ...repository,
        insert: (record, events) => repository.insert(record, events),
        update: () => {
          down = true;
          return err(refused);
        },
        load: (id) => (down ? err(refused) : repository.load(id)),
      }),
    });
    const payment = await createHosted(h);
    const submitted = await h.engine.submitCard({
      paymentId: payment.id,
      token: h.hostedToken(payment),
      body: cardSubmission(VISA),
    });
    expect(down).toBe(true);
    const error = submitted._unsafeUnwrapErr();
    expect(error.code).toBe('unavailable');
    expect(error).not.toHaveProperty('outcome');
    expect(h.repository.snapshot()[0]).toMatchObject({ id: payment.id, state: 'awaiting_card_data', version: 1 });
  });

  it('an attempt that may have been sent, then retries refused: still unknown (the first may have landed)', async () => {
    const counter = { loads: 0 };
    const h = makeEngineHarness({ retries: 2 }, 0, { wrapRepository: countingLoads(counter) });
    h.repository.injectFailure('insert', lost);
    h.repository.injectFailure('insert', refused);
    h.repository.injectFailure('insert', refused);
    for (let attempt = 0; attempt < 3; attempt++) h.repository.injectFailure('load', refused);
    const error = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() })
    )._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'unavailable', outcome: 'unknown' });
    expect(counter.loads).toBeGreaterThan(0);
  });

  it('a refused attempt, then one that may have been sent: read back as before (here: not stored, plain)', async () => {
    const h = makeEngineHarness({ retries: 1 });
    h.repository.injectFailure('insert', refused);
    h.repository.injectFailure('insert', lost);
    const error = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() })
    )._unsafeUnwrapErr();
    // The read found nothing: not stored, a plain failure (as without `notSent`).
    expect(error.code).toBe('unavailable');
    expect(error).not.toHaveProperty('outcome');
  });

  it('a write that ran out of time stays unknown, though its late answer says it was never sent', async () => {
    const h = makeEngineHarness({ retries: 0, timeouts: { storageMs: 30 } });
    h.repository.insert = () =>
      new Promise<Result<void, RepositoryError>>((resolve) => setTimeout(() => resolve(err(refused)), 100));
    h.repository.injectFailure('load', refused);
    const error = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() })
    )._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'unavailable', outcome: 'unknown' });
  });
});
