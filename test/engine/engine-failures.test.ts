import { err, errAsync, ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { MemoryPaymentRepository } from '../../adapters/memory/index.js';
import type { PaymentEngineOptions, PaymentRecord, RepositoryError, ThreeDSError } from '../../src/index.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import type { HarnessAdapterOptions } from '../support/engine-harness.js';
import { compliantClient, makeEngineHarness, type EngineHarness } from '../support/engine-harness.js';
import { cardSubmission, directRequest, hostedRequest } from '../support/requests.js';
import {
  CHALLENGE_CARD,
  MINUTE,
  PROFILE,
  SECOND,
  VISA,
  createHosted,
  eventTypes,
  stored,
} from '../support/engine-helpers.js';

function createDirect(h: EngineHarness, number: string) {
  return h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: directRequest(number) });
}

const sweepReport = (
  fields: Partial<Record<'expired' | 'reconciled' | 'stillUnknown' | 'conflicts' | 'errors', number>>,
) => ({
  expired: 0,
  reconciled: 0,
  stillUnknown: 0,
  conflicts: 0,
  errors: 0,
  ...fields,
});

describe('acquirer faults', () => {
  it("'unavailable': processing with an unknown outcome, never authorized again, failed after three inquiries found nothing", async () => {
    const h = makeEngineHarness();
    h.acquirer.failNextAuthorize('unavailable');
    const view = (await createDirect(h, VISA))._unsafeUnwrap();
    expect(view.state).toBe('processing');
    expect(view.next).toBeUndefined();
    const start = h.clock.now();
    const record = await stored(h, view.id);
    expect(record).toMatchObject({
      state: 'authorizing',
      authorizationStatus: 'unknown',
      inquiryAttempts: 1,
      nextInquiryAt: start + 10 * SECOND,
      authorization: null,
    });
    expect(h.acquirer.authorizeCalls(view.id)).toBe(1);

    h.clock.advance(10 * SECOND - 1);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({}));
    h.clock.advance(1);
    // The sandbox acquirer never received the request: every inquiry says not_found. The first
    // two are not believed yet (an authorization may still be in flight), the third is.
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({ stillUnknown: 1 }));
    expect((await stored(h, view.id)).nextInquiryAt).toBe(start + 40 * SECOND);
    h.clock.advance(30 * SECOND);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({ stillUnknown: 1 }));
    h.clock.advance(2 * 60 * SECOND);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({ reconciled: 1 }));
    const after = (await h.engine.getPayment({ paymentId: view.id, profileId: PROFILE }))._unsafeUnwrap();
    expect(after.state).toBe('failed');
    expect(after.failure_reason).toBe('processing_error');
    expect(h.acquirer.authorizeCalls(view.id)).toBe(1);
    expect(h.acquirer.authorizations()).toEqual([]);
    expect(await eventTypes(h, view.id)).toEqual(['payment.created', 'payment.failed']);
  });

  it("'answer_lost': the inquiry finds the approval; succeeded with the acquirer's data", async () => {
    const h = makeEngineHarness();
    h.acquirer.failNextAuthorize('answer_lost');
    const view = (await createDirect(h, '5200828282828210'))._unsafeUnwrap();
    expect(view.state).toBe('processing');
    expect(view.creditcard?.rrn).toBeUndefined();
    h.clock.advance(10 * SECOND);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({ reconciled: 1 }));
    const done = (await h.engine.getPayment({ paymentId: view.id, profileId: PROFILE }))._unsafeUnwrap();
    const recorded = h.acquirer.authorizations()[0]?.outcome;
    if (recorded?.kind !== 'approved') throw new Error('the sandbox acquirer should have approved');
    expect(done.state).toBe('succeeded');
    expect(done.creditcard?.rrn).toBe(recorded.rrn);
    expect(done.creditcard?.rrn).toMatch(/^\d{12}$/);
    expect(done.creditcard?.fees).toEqual(recorded.fees);
    expect(done.creditcard?.card).toMatchObject({ type: 'commercial', region: 'inter', issuing_country: 'US' });
    const record = await stored(h, view.id);
    expect(record).toMatchObject({ authorizationStatus: null, nextInquiryAt: null });
    expect(h.acquirer.authorizeCalls(view.id)).toBe(1);
    expect(await eventTypes(h, view.id)).toEqual(['payment.created', 'payment.succeeded']);
  });

  it("'answer_lost' on a declined card: the inquiry's decline reason is kept", async () => {
    const h = makeEngineHarness();
    h.acquirer.failNextAuthorize('answer_lost');
    const view = (await createDirect(h, '4000000000009995'))._unsafeUnwrap();
    h.clock.advance(10 * SECOND);
    await h.engine.sweep();
    const done = (await h.engine.getPayment({ paymentId: view.id, profileId: PROFILE }))._unsafeUnwrap();
    expect(done).toMatchObject({ state: 'failed', failure_reason: 'insufficient_funds' });
  });

  it("'hang': the call is given up after timeouts.acquirerMs, then reconciled by inquiry", async () => {
    const h = makeEngineHarness({ timeouts: { acquirerMs: 50 } });
    h.acquirer.failNextAuthorize('hang');
    const started = Date.now();
    const view = (await createDirect(h, VISA))._unsafeUnwrap();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(view.state).toBe('processing');
    expect((await stored(h, view.id)).authorizationStatus).toBe('unknown');
    h.clock.advance(10 * SECOND);
    expect((await h.engine.sweep())._unsafeUnwrap().reconciled).toBe(1);
    expect((await stored(h, view.id)).state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(view.id)).toBe(1);
  });

  it('failing inquiries keep the payment processing and back off, until one answers', async () => {
    const h = makeEngineHarness();
    h.acquirer.failNextAuthorize('answer_lost');
    const view = (await createDirect(h, VISA))._unsafeUnwrap();
    h.acquirer.failNextInquire();
    h.acquirer.failNextInquire();
    const nextInquiries: number[] = [];
    const record0 = await stored(h, view.id);
    nextInquiries.push(record0.nextInquiryAt ?? Number.NaN);

    h.clock.advance(10 * SECOND);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({ stillUnknown: 1 }));
    const record1 = await stored(h, view.id);
    expect(record1).toMatchObject({ state: 'authorizing', authorizationStatus: 'unknown', inquiryAttempts: 2 });
    expect(record1.nextInquiryAt).toBe(h.clock.now() + 30 * SECOND);
    nextInquiries.push(record1.nextInquiryAt ?? Number.NaN);

    h.clock.advance(30 * SECOND - 1);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({}));
    h.clock.advance(1);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({ stillUnknown: 1 }));
    const record2 = await stored(h, view.id);
    expect(record2.inquiryAttempts).toBe(3);
    expect(record2.nextInquiryAt).toBe(h.clock.now() + 2 * MINUTE);
    nextInquiries.push(record2.nextInquiryAt ?? Number.NaN);
    // Each wait is longer than the one before.
    const waits = nextInquiries.slice(1).map((at, i) => at - (nextInquiries[i] ?? 0));
    expect(waits[1]).toBeGreaterThan(waits[0] ?? Infinity);

    h.clock.advance(2 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({ reconciled: 1 }));
    expect((await stored(h, view.id)).state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(view.id)).toBe(1);
    expect(await eventTypes(h, view.id)).toEqual(['payment.created', 'payment.succeeded']);
  });

  it('fails the payment (processing_error) once three inquiries found nothing: the request never arrived', async () => {
    const h = makeEngineHarness();
    h.acquirer.failNextAuthorize('unavailable');
    const view = (await createDirect(h, VISA))._unsafeUnwrap();
    for (const [wait, state, notFoundAnswers] of [
      [10 * SECOND, 'authorizing', 1],
      [30 * SECOND, 'authorizing', 2],
      [2 * MINUTE, 'failed', 2],
    ] as const) {
      h.clock.advance(wait);
      await h.engine.sweep();
      expect(await stored(h, view.id)).toMatchObject({ state, notFoundAnswers });
    }
    expect((await stored(h, view.id)).failureReason).toBe('processing_error');
    expect(h.acquirer.authorizations()).toEqual([]);
  });

  it('does not count failed inquiries as answers: an outage, then one lagging not_found, leaves it processing', async () => {
    const h = makeEngineHarness();
    h.acquirer.failNextAuthorize('answer_lost');
    const view = (await createDirect(h, VISA))._unsafeUnwrap();
    h.acquirer.failNextInquire();
    h.acquirer.failNextInquire();
    // Two failed inquiries (the outage), then the third answers from a lagging index.
    const inquire = h.acquirer.inquire.bind(h.acquirer);
    let calls = 0;
    h.acquirer.inquire = (request) => {
      calls += 1;
      return calls === 3 ? ok({ kind: 'not_found' as const }) : inquire(request);
    };
    for (const wait of [10 * SECOND, 30 * SECOND, 2 * MINUTE]) {
      h.clock.advance(wait);
      await h.engine.sweep();
    }
    expect(await stored(h, view.id)).toMatchObject({ state: 'authorizing', notFoundAnswers: 1, inquiryAttempts: 4 });
    h.clock.advance(5 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap().reconciled).toBe(1);
    expect((await stored(h, view.id)).state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(view.id)).toBe(1);
  });

  it('an inquiry failure is retried within a sweep when retries are configured', async () => {
    const h = makeEngineHarness({ retries: 2 });
    h.acquirer.failNextAuthorize('answer_lost');
    const view = (await createDirect(h, VISA))._unsafeUnwrap();
    h.acquirer.failNextInquire();
    h.clock.advance(10 * SECOND);
    expect((await h.engine.sweep())._unsafeUnwrap().reconciled).toBe(1);
    expect((await stored(h, view.id)).state).toBe('succeeded');
  });

  it('honours a configured inquiry schedule', async () => {
    const h = makeEngineHarness({ inquiryDelaysMs: [SECOND, 5 * SECOND] });
    h.acquirer.failNextAuthorize('answer_lost');
    const view = (await createDirect(h, VISA))._unsafeUnwrap();
    h.acquirer.failNextInquire();
    h.acquirer.failNextInquire();
    expect((await stored(h, view.id)).nextInquiryAt).toBe(h.clock.now() + SECOND);
    h.clock.advance(SECOND);
    await h.engine.sweep();
    expect((await stored(h, view.id)).nextInquiryAt).toBe(h.clock.now() + 5 * SECOND);
    h.clock.advance(5 * SECOND);
    await h.engine.sweep();
    // The last delay repeats.
    expect((await stored(h, view.id)).nextInquiryAt).toBe(h.clock.now() + 5 * SECOND);
    h.clock.advance(5 * SECOND);
    expect((await h.engine.sweep())._unsafeUnwrap().reconciled).toBe(1);
  });

  it('a hosted payment whose authorization is unknown is reconciled the same way', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    h.acquirer.failNextAuthorize('answer_lost');
    const view = (
      await h.engine.submitCard({ paymentId: payment.id, token: h.hostedToken(payment), body: cardSubmission(VISA) })
    )._unsafeUnwrap();
    expect(view.state).toBe('processing');
    expect(view.next).toBeUndefined();
    // A second submit cannot authorize again.
    const again = await h.engine.submitCard({
      paymentId: payment.id,
      token: h.hostedToken(payment),
      body: cardSubmission(VISA),
    });
    expect(again._unsafeUnwrapErr().code).toBe('invalid_state');
    h.clock.advance(10 * SECOND);
    await h.engine.sweep();
    expect((await stored(h, payment.id)).state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
  });

  it('an unknown outcome after a challenge is reconciled too', async () => {
    const h = makeEngineHarness();
    const view = (await createDirect(h, CHALLENGE_CARD))._unsafeUnwrap();
    h.acquirer.failNextAuthorize('unavailable');
    const completed = (await h.engine.completeChallenge(await h.challengeAnswer(view.id, 'authorise')))._unsafeUnwrap();
    expect(completed.state).toBe('processing');
    expect(completed.next).toBeUndefined();
    expect(h.cardVault.size()).toBe(0);
    for (const wait of [10, 30, 120]) {
      h.clock.advance(wait * SECOND);
      await h.engine.sweep();
    }
    expect((await stored(h, view.id)).state).toBe('failed');
    expect(h.acquirer.authorizeCalls(view.id)).toBe(1);
  });
});

describe('configuration that would break at-most-once authorization', () => {
  it('refuses a stale window shorter than the longest an authorization can take', () => {
    expect(() => makeEngineHarness({ authorizationStaleAfterMs: 30 * SECOND })).toThrow(RangeError);
    expect(() => makeEngineHarness({ timeouts: { acquirerMs: 3 * 60 * SECOND } })).toThrow(/authorizationStaleAfterMs/);
    expect(() =>
      makeEngineHarness({ authorizationStaleAfterMs: 10 * 60 * SECOND, timeouts: { acquirerMs: 3 * 60 * SECOND } }),
    ).not.toThrow();
  });
});

describe('3DS faults', () => {
  const unavailable: ThreeDSError = { code: 'unavailable', message: 'directory server down', retryable: true };

  function harnessWith3DSFault(operation: 'authenticate' | 'resolveChallenge', options: PaymentEngineOptions = {}) {
    const fault = { on: true };
    const adapters: HarnessAdapterOptions = {
      threeDS: { failWith: (call) => (fault.on && call.operation === operation ? unavailable : undefined) },
    };
    return { h: makeEngineHarness(options, 0, adapters), fault };
  }

  it('provider unavailable on a direct payment: failed processing_error, nothing authorized', async () => {
    const { h } = harnessWith3DSFault('authenticate');
    const view = (await createDirect(h, VISA))._unsafeUnwrap();
    expect(view).toMatchObject({ state: 'failed', failure_reason: 'processing_error' });
    expect(h.acquirer.authorizeCalls(view.id)).toBe(0);
    const record = await stored(h, view.id);
    expect(record.threeDS).toBeNull();
    expect(h.cardVault.size()).toBe(0);
    expect(await eventTypes(h, view.id)).toEqual(['payment.created', 'payment.failed']);
    expect(h.logs.some((log) => log.level === 'warn' && log.message === '3DS authentication failed')).toBe(true);
  });

  it('provider unavailable on a hosted submission: failed processing_error, nothing authorized', async () => {
    const { h } = harnessWith3DSFault('authenticate');
    const payment = await createHosted(h);
    const view = (
      await h.engine.submitCard({ paymentId: payment.id, token: h.hostedToken(payment), body: cardSubmission(VISA) })
    )._unsafeUnwrap();
    expect(view).toMatchObject({ state: 'failed', failure_reason: 'processing_error' });
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
  });

  it('provider too slow (timeouts.threeDSMs): failed processing_error', async () => {
    const h = makeEngineHarness({ timeouts: { threeDSMs: 20 } }, 0, { threeDS: { latencyMs: 500 } });
    const view = (await createDirect(h, '4000000000003055'))._unsafeUnwrap();
    expect(view).toMatchObject({ state: 'failed', failure_reason: 'processing_error' });
    expect(h.acquirer.authorizeCalls(view.id)).toBe(0);
  });

  it('provider unavailable when the challenge returns: unavailable, state and card kept, a retry completes', async () => {
    const { h, fault } = harnessWith3DSFault('resolveChallenge');
    const view = (await createDirect(h, CHALLENGE_CARD))._unsafeUnwrap();
    const before = await stored(h, view.id);
    const answer = await h.challengeAnswer(view.id, 'authorise');
    const error = (await h.engine.completeChallenge(answer))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'unavailable', retryable: true });
    expect(await stored(h, view.id)).toEqual(before);
    expect(h.cardVault.size()).toBe(1);
    expect(h.acquirer.authorizeCalls(view.id)).toBe(0);

    fault.on = false;
    expect((await h.engine.completeChallenge(answer))._unsafeUnwrap().state).toBe('succeeded');
    expect(h.cardVault.size()).toBe(0);
  });
  // The sandbox 3DS server marks a challenge resolved when it decides, before its answer travels
  // back. When that answer arrives after timeouts.threeDSMs the engine answers `unavailable`
  // (retryable: true), but every retry of the same cres is then refused as `invalid_challenge`
  // (validation_failed): the authenticated cardholder can only watch the payment expire.
  // Since the card is taken only after the intent commit, resolving the same cres again with the
  // same result (idempotent resolution) would be safe.
  it('a challenge completion whose 3DS answer came too late can be retried', async () => {
    const h = makeEngineHarness({ timeouts: { threeDSMs: 20 } });
    const view = (await createDirect(h, CHALLENGE_CARD))._unsafeUnwrap();
    const answer = await h.challengeAnswer(view.id, 'authorise');
    const resolve = h.threeDS.resolveChallenge.bind(h.threeDS);
    // The first answer is held until the engine has given up on it (not a fixed real-time delay,
    // which a busy machine can outlast with the time-out's own timer), then comes late.
    let slow = true;
    let sendLate = (): void => undefined;
    h.threeDS.resolveChallenge = async (request) => {
      const result = await resolve(request);
      if (slow) await new Promise<void>((done) => (sendLate = done));
      return result;
    };
    const first = (await h.engine.completeChallenge(answer))._unsafeUnwrapErr();
    expect(first).toMatchObject({ code: 'unavailable', retryable: true });
    sendLate();
    await new Promise((done) => setTimeout(done, 0));
    expect((await stored(h, view.id)).state).toBe('awaiting_challenge');

    slow = false;
    const retry = await h.engine.completeChallenge(answer);
    expect(retry._unsafeUnwrap().state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(view.id)).toBe(1);
  });
});

describe('card vault faults', () => {
  it('a card gone from the vault before the challenge returns: failed processing_error, not authorized', async () => {
    const h = makeEngineHarness();
    const view = (await createDirect(h, CHALLENGE_CARD))._unsafeUnwrap();
    expect(h.cardVault.size()).toBe(1);
    expect((await h.cardVault.take(view.id))._unsafeUnwrap()?.number).toBe(CHALLENGE_CARD);
    const done = (await h.engine.completeChallenge(await h.challengeAnswer(view.id, 'authorise')))._unsafeUnwrap();
    expect(done).toMatchObject({ state: 'failed', failure_reason: 'processing_error' });
    expect(h.acquirer.authorizeCalls(view.id)).toBe(0);
    expect(h.logs.some((log) => log.level === 'error' && log.fields['paymentId'] === view.id)).toBe(true);
  });

  it('a vault that cannot keep the card: the challenge can only end without authorization', async () => {
    const h = makeEngineHarness();
    h.cardVault.put = () => errAsync({ code: 'unavailable', message: 'vault down', retryable: false });
    const view = (await createDirect(h, CHALLENGE_CARD))._unsafeUnwrap();
    // The cardholder is still sent to the challenge (see the report: this could fail fast instead).
    expect(view.next?.redirect).toBeDefined();
    expect(h.logs.some((log) => log.level === 'error' && /card vault unavailable/.test(log.message))).toBe(true);
    const done = (await h.engine.completeChallenge(await h.challengeAnswer(view.id, 'authorise')))._unsafeUnwrap();
    expect(done).toMatchObject({ state: 'failed', failure_reason: 'processing_error' });
    expect(h.acquirer.authorizeCalls(view.id)).toBe(0);
  });

  it('a refused challenge takes the card out of the vault too', async () => {
    const h = makeEngineHarness();
    const view = (await createDirect(h, CHALLENGE_CARD))._unsafeUnwrap();
    await h.engine.completeChallenge(await h.challengeAnswer(view.id, 'refuse'));
    expect(h.cardVault.size()).toBe(0);
    expect((await h.cardVault.take(view.id))._unsafeUnwrap()).toBeNull();
  });
});

describe('storage faults', () => {
  it('insert fails on a hosted create: unavailable, nothing stored', async () => {
    const h = makeEngineHarness();
    h.repository.injectFailure('insert');
    const error = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() })
    )._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'unavailable', retryable: true });
    expect(h.repository.size()).toBe(0);
    expect((await h.repository.readOutbox({ now: h.clock.now(), limit: 10 }))._unsafeUnwrap()).toEqual([]);
  });

  it('insert of the intent fails on a direct create: unavailable, nothing stored, nothing authorized', async () => {
    const h = makeEngineHarness();
    h.repository.injectFailure('insert');
    const error = (await createDirect(h, VISA))._unsafeUnwrapErr();
    expect(error.code).toBe('unavailable');
    expect(h.repository.size()).toBe(0);
    expect(h.acquirer.authorizations()).toEqual([]);
    expect(h.acquirer.authorizeCalls('payment_00000000000000000000000000000001')).toBe(0);
    expect(JSON.stringify(error)).not.toContain(VISA);
  });

  it('a conflicting insert (id taken) is a conflict and authorizes nothing', async () => {
    const h = makeEngineHarness();
    const taken: RepositoryError = { code: 'conflict', message: 'exists', retryable: false };
    h.repository.injectFailure('insert', taken);
    const error = (await createDirect(h, VISA))._unsafeUnwrapErr();
    expect(error.code).toBe('conflict');
    expect(h.acquirer.authorizations()).toEqual([]);
  });

  it('an intent commit that does not answer in time: unavailable with an unknown outcome, the acquirer never called', async () => {
    const h = makeEngineHarness({ timeouts: { storageMs: 30 } });
    h.repository.insert = () => new Promise(() => undefined);
    const error = (await createDirect(h, VISA))._unsafeUnwrapErr();
    // It may still land: the database may only be slow.
    expect(error).toMatchObject({ code: 'unavailable', outcome: 'unknown' });
    expect(h.acquirer.authorizations()).toEqual([]);
  });

  it('an intent commit that lands after its time-out and after the read that found nothing: the outcome was unknown, and the payment is failed by inquiry', async () => {
    const h = makeEngineHarness({ timeouts: { storageMs: 30 } });
    const insert = h.repository.insert.bind(h.repository);
    let landed!: Promise<unknown>;
    h.repository.insert = (record, events) => {
      landed = new Promise((resolve) => setTimeout(resolve, 150)).then(() => insert(record, events));
      return landed as ReturnType<typeof insert>;
    };
    const error = (await createDirect(h, VISA))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'unavailable', outcome: 'unknown' });
    expect(h.repository.size()).toBe(0);
    await landed;
    const [record] = h.repository.snapshot();
    expect(record).toMatchObject({ state: 'authorizing', authorizationStatus: 'requested', authorization: null });
    expect(h.acquirer.authorizations()).toEqual([]);
    // The acquirer never saw it: the inquiries find nothing, and the third is believed.
    for (const wait of [2 * MINUTE, 10 * SECOND, 30 * SECOND, 2 * MINUTE]) {
      h.clock.advance(wait);
      (await h.engine.sweep())._unsafeUnwrap();
    }
    const after = (await h.engine.getPayment({ paymentId: record?.id ?? '', profileId: PROFILE }))._unsafeUnwrap();
    expect(after).toMatchObject({ state: 'failed', failure_reason: 'processing_error' });
    expect(h.acquirer.authorizeCalls(record?.id ?? '')).toBe(0);
  });

  it('the outcome update fails after the intent commit: processing now, reconciled by inquiry later', async () => {
    const h = makeEngineHarness();
    h.repository.injectFailure('update');
    const start = h.clock.now();
    const view = (await createDirect(h, VISA))._unsafeUnwrap();
    // The answer is the stored intent, not the outcome that could not be stored.
    expect(view.state).toBe('processing');
    expect(view.creditcard?.rrn).toBeUndefined();
    const record = await stored(h, view.id);
    expect(record).toMatchObject({
      state: 'authorizing',
      authorizationStatus: 'requested',
      nextInquiryAt: start + 2 * MINUTE,
      version: 1,
    });
    expect(h.acquirer.authorizeCalls(view.id)).toBe(1);
    expect(h.logs.some((log) => log.level === 'error' && /could not store the outcome/.test(log.message))).toBe(true);

    h.clock.advance(2 * MINUTE - 1);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({}));
    h.clock.advance(1);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({ reconciled: 1 }));
    const done = (await h.engine.getPayment({ paymentId: view.id, profileId: PROFILE }))._unsafeUnwrap();
    expect(done.state).toBe('succeeded');
    expect(done.creditcard?.rrn).toMatch(/^\d{12}$/);
    expect(h.acquirer.authorizeCalls(view.id)).toBe(1);
    expect(await eventTypes(h, view.id)).toEqual(['payment.created', 'payment.succeeded']);
  });

  it('respects a configured authorizationStaleAfterMs for a lost outcome', async () => {
    const h = makeEngineHarness({
      authorizationStaleAfterMs: 30 * SECOND,
      timeouts: { storageMs: 5 * SECOND, acquirerMs: 5 * SECOND },
    });
    h.repository.injectFailure('update');
    const view = (await createDirect(h, VISA))._unsafeUnwrap();
    h.clock.advance(30 * SECOND);
    expect((await h.engine.sweep())._unsafeUnwrap().reconciled).toBe(1);
    expect((await stored(h, view.id)).state).toBe('succeeded');
  });

  it('the intent commit of a hosted submission fails: unavailable, nothing authorized, the page can retry', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    const token = h.hostedToken(payment);
    h.repository.injectFailure('update');
    const error = (
      await h.engine.submitCard({ paymentId: payment.id, token, body: cardSubmission(VISA) })
    )._unsafeUnwrapErr();
    expect(error.code).toBe('unavailable');
    expect(await stored(h, payment.id)).toMatchObject({ state: 'awaiting_card_data', version: 1 });
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);

    const retry = (
      await h.engine.submitCard({ paymentId: payment.id, token, body: cardSubmission(VISA) })
    )._unsafeUnwrap();
    expect(retry.state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
  });

  it('a retryable storage failure is retried when retries are configured', async () => {
    const h = makeEngineHarness({ retries: 2 });
    h.repository.injectFailure('insert');
    h.repository.injectFailure('insert');
    const view = (await createDirect(h, VISA))._unsafeUnwrap();
    expect(view.state).toBe('succeeded');
    expect(h.repository.size()).toBe(1);
    expect(h.acquirer.authorizeCalls(view.id)).toBe(1);
  });

  it('gives up after the configured number of retries', async () => {
    const h = makeEngineHarness({ retries: 1 });
    h.repository.injectFailure('insert');
    h.repository.injectFailure('insert');
    const error = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() })
    )._unsafeUnwrapErr();
    expect(error.code).toBe('unavailable');
    expect(h.repository.size()).toBe(0);
  });

  it('a failure marked not retryable is not retried', async () => {
    const h = makeEngineHarness({ retries: 2 });
    h.repository.injectFailure('insert', { code: 'unavailable', message: 'disk full', retryable: false });
    const error = (await createDirect(h, VISA))._unsafeUnwrapErr();
    expect(error.code).toBe('unavailable');
    expect(h.repository.size()).toBe(0);
    expect(h.acquirer.authorizations()).toEqual([]);
  });

  it('a sweep whose query fails reports unavailable and changes nothing', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    h.clock.advance(60 * MINUTE);
    h.repository.injectFailure('findDue');
    expect((await h.engine.sweep())._unsafeUnwrapErr().code).toBe('unavailable');
    expect((await stored(h, payment.id)).state).toBe('awaiting_card_data');
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(1);
  });

  it('a payment the sweep cannot store is counted, logged and handled on the next sweep', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    h.clock.advance(60 * MINUTE);
    h.repository.injectFailure('update');
    // A storage failure is counted as an error, not hidden among harmless races.
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({ errors: 1 }));
    expect(h.logs.some((log) => log.level === 'warn' && log.fields['code'] === 'unavailable')).toBe(true);
    expect((await stored(h, payment.id)).state).toBe('awaiting_card_data');
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({ expired: 1 }));
  });

  it('an inquiry outcome the sweep cannot store is asked again on the next sweep', async () => {
    const h = makeEngineHarness();
    h.acquirer.failNextAuthorize('answer_lost');
    const view = (await createDirect(h, VISA))._unsafeUnwrap();
    h.clock.advance(10 * SECOND);
    h.repository.injectFailure('update');
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({ errors: 1 }));
    expect((await stored(h, view.id)).state).toBe('authorizing');
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual(sweepReport({ reconciled: 1 }));
    expect((await stored(h, view.id)).state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(view.id)).toBe(1);
  });
});

describe('writes whose outcome is unknown', () => {
  /** A repository whose chosen writes land and then report `failure`, as a commit whose answer was lost. */
  function landsThenFails(failure: RepositoryError, which: (record: PaymentRecord) => boolean) {
    const landThenFail =
      (write: PaymentRepository['insert']): PaymentRepository['insert'] =>
      async (record, events) => {
        const result = await write(record, events);
        return result.isOk() && which(record) ? err(failure) : result;
      };
    return (repository: MemoryPaymentRepository): PaymentRepository => ({
      ...repository,
      insert: landThenFail(repository.insert),
      update: landThenFail(repository.update),
    });
  }
  const lost: RepositoryError = { code: 'unavailable', message: 'Connection terminated', retryable: true };

  it('a challenge write that landed but answered failure: the card is kept and the challenge completes', async () => {
    const h = makeEngineHarness({}, 0, {
      wrapRepository: landsThenFails(lost, (record) => record.state === 'awaiting_challenge'),
    });
    const payment = await createHosted(h);
    const submitted = await h.engine.submitCard({
      paymentId: payment.id,
      token: h.hostedToken(payment),
      body: cardSubmission(CHALLENGE_CARD),
    });
    expect(submitted._unsafeUnwrap().state).toBe('processing');
    expect((await stored(h, payment.id)).state).toBe('awaiting_challenge');
    const answered = await h.engine.completeChallenge(await h.challengeAnswer(payment.id, 'authorise'));
    expect(answered._unsafeUnwrap().state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
  });

  it('an insert that landed, answered a lost connection and was retried into a conflict with itself: created', async () => {
    const h = makeEngineHarness({ retries: 1 }, 0, { wrapRepository: landsThenFails(lost, () => true) });
    expect((await createHosted(h)).state).toBe('processing');
    expect(h.repository.size()).toBe(1);
    expect(h.logs.some((log) => log.message === 'write reported failed but stored')).toBe(true);
  });

  it('a write that did not land stays failed, and another instance’s write stays a conflict', async () => {
    const h = makeEngineHarness();
    h.repository.injectFailure('insert', lost);
    expect((await createDirect(h, VISA))._unsafeUnwrapErr().code).toBe('unavailable');
    expect(h.repository.size()).toBe(0);
    const taken: RepositoryError = { code: 'conflict', message: 'exists', retryable: false };
    h.repository.injectFailure('insert', taken);
    expect((await createDirect(h, VISA))._unsafeUnwrapErr().code).toBe('conflict');
    expect(h.acquirer.authorizations()).toEqual([]);
  });
});

describe('adapter defects', () => {
  it('an acquirer that throws after the intent commit: internal_error, then reconciled, never re-authorized', async () => {
    const h = makeEngineHarness();
    const authorize = h.acquirer.authorize.bind(h.acquirer);
    h.acquirer.authorize = async (request) => {
      await authorize(request);
      throw new Error('bug in the response parser');
    };
    const error = (await createDirect(h, VISA))._unsafeUnwrapErr();
    expect(error.code).toBe('internal_error');
    const [record] = h.repository.snapshot();
    expect(record?.state).toBe('authorizing');
    expect(h.logs.some((log) => log.message === 'engine defect')).toBe(true);
    h.clock.advance(2 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap().reconciled).toBe(1);
    expect((await stored(h, record?.id ?? '')).state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(record?.id ?? '')).toBe(1);
  });
});
