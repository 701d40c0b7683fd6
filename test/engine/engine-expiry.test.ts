import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { Payment, PaymentEngineOptions } from '../../src/index.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { cardSubmission } from '../support/requests.js';
import {
  CHALLENGE_CARD,
  MINUTE,
  PROFILE,
  VISA,
  createDirect,
  createHosted,
  eventTypes,
  stored,
} from '../support/engine-helpers.js';

const HOUR = 60 * MINUTE;

function harness(options: PaymentEngineOptions = {}) {
  const h = makeEngineHarness(options);
  let authentications = 0;
  const authenticate = h.threeDS.authenticate.bind(h.threeDS);
  h.threeDS.authenticate = (request) => {
    authentications += 1;
    return authenticate(request);
  };
  return { h, authentications: () => authentications };
}

describe('hosted page deadline', () => {
  it('a sweep before the deadline does nothing; at the deadline it expires the payment', async () => {
    const { h } = harness();
    const payment = await createHosted(h);

    h.clock.advance(60 * MINUTE - 1);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual({
      expired: 0,
      reconciled: 0,
      stillUnknown: 0,
      conflicts: 0,
      errors: 0,
    });
    expect((await stored(h, payment.id)).state).toBe('awaiting_card_data');

    h.clock.advance(1);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual({
      expired: 1,
      reconciled: 0,
      stillUnknown: 0,
      conflicts: 0,
      errors: 0,
    });
    const record = await stored(h, payment.id);
    expect(record).toMatchObject({ state: 'expired', expiresAt: null, nextRedirect: null, version: 2 });
    const view = (await h.engine.getPayment({ paymentId: payment.id, profileId: PROFILE }))._unsafeUnwrap();
    expect(view.state).toBe('expired');
    expect(view.next).toBeUndefined();
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.expired']);

    // Final: later sweeps and submits change nothing; once the link has lapsed
    // (`hostedPageLinkGraceMs`, 30 minutes) a submit finds no payment at all.
    const submit = () =>
      h.engine.submitCard({ paymentId: payment.id, token: h.hostedToken(payment), body: cardSubmission(VISA) });
    expect((await submit())._unsafeUnwrapErr().code).toBe('invalid_state');
    h.clock.advance(HOUR);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(0);
    const late = await submit();
    expect(late._unsafeUnwrapErr().code).toBe('not_found');
    expect((await stored(h, payment.id)).version).toBe(2);
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
  });

  it('a submit after the deadline, before any sweep, finds the payment expired and authorizes nothing', async () => {
    const { h, authentications } = harness();
    const payment = await createHosted(h);
    h.clock.advance(60 * MINUTE);
    const result = await h.engine.submitCard({
      paymentId: payment.id,
      token: h.hostedToken(payment),
      body: cardSubmission(VISA),
    });
    // The engine answers with the payment, now expired (the hosted page shows that).
    const view = result._unsafeUnwrap();
    expect(view.state).toBe('expired');
    expect(view.next).toBeUndefined();
    expect(view.creditcard).toBeUndefined();
    const record = await stored(h, payment.id);
    expect(record).toMatchObject({ state: 'expired', card: null, browser: null });
    expect(authentications()).toBe(0);
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.expired']);
    // The sweeper has nothing left to do.
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(0);
  });

  it('a submit one millisecond before the deadline goes through', async () => {
    const { h } = harness();
    const payment = await createHosted(h);
    h.clock.advance(60 * MINUTE - 1);
    const view = (
      await h.engine.submitCard({ paymentId: payment.id, token: h.hostedToken(payment), body: cardSubmission(VISA) })
    )._unsafeUnwrap();
    expect(view.state).toBe('succeeded');
    h.clock.advance(HOUR);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(0);
  });

  it('honours a configured hostedPageTimeoutMs', async () => {
    const { h } = harness({ hostedPageTimeoutMs: 5 * MINUTE });
    const payment = await createHosted(h);
    const record = await stored(h, payment.id);
    expect(record.expiresAt).toBe(record.createdAt + 5 * MINUTE);
    h.clock.advance(5 * MINUTE - 1);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(0);
    h.clock.advance(1);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(1);
    expect((await stored(h, payment.id)).state).toBe('expired');
  });

  it('stops counting once card data is submitted: a challenge then has its own deadline', async () => {
    const { h } = harness();
    const payment = await createHosted(h);
    h.clock.advance(55 * MINUTE);
    const submitted = (
      await h.engine.submitCard({
        paymentId: payment.id,
        token: h.hostedToken(payment),
        body: cardSubmission(CHALLENGE_CARD),
      })
    )._unsafeUnwrap();
    expect(submitted.next?.redirect).toMatch(/^https:\/\/acs\.sandbox\.test\/challenge\//);
    expect((await stored(h, payment.id)).expiresAt).toBe(Date.parse(payment.created) + 65 * MINUTE);

    h.clock.advance(9 * MINUTE); // 64 minutes after creation: past the hosted page deadline
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(0);
    const done = (await h.engine.completeChallenge(await h.challengeAnswer(payment.id, 'authorise')))._unsafeUnwrap();
    expect(done.state).toBe('succeeded');
  });

  it('expires many payments, only those due, across sweeps limited by batchSize', async () => {
    const { h } = harness({ batchSize: 3 });
    const early: Payment[] = [];
    for (let i = 0; i < 5; i++) early.push(await createHosted(h));
    h.clock.advance(30 * MINUTE);
    const late = await createHosted(h);
    h.clock.advance(30 * MINUTE);

    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(3);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(2);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(0);
    for (const payment of early) expect((await stored(h, payment.id)).state).toBe('expired');
    expect((await stored(h, late.id)).state).toBe('awaiting_card_data');
  });
});

describe('challenge deadline', () => {
  it('a challenge completed after 10 minutes finds the payment expired and authorizes nothing', async () => {
    const { h } = harness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    const record = await stored(h, payment.id);
    expect(record.expiresAt).toBe(record.createdAt + 10 * MINUTE);
    const answer = await h.challengeAnswer(payment.id, 'authorise');
    h.clock.advance(10 * MINUTE);

    const view = (await h.engine.completeChallenge(answer))._unsafeUnwrap();
    expect(view.state).toBe('expired');
    expect(view.next).toBeUndefined();
    expect((await stored(h, payment.id)).state).toBe('expired');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    expect(h.cardVault.size()).toBe(0);
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.action_required', 'payment.expired']);
  });

  it('a refusal after the deadline also ends in expired, not failed', async () => {
    const { h } = harness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    const answer = await h.challengeAnswer(payment.id, 'refuse');
    h.clock.advance(11 * MINUTE);
    const view = (await h.engine.completeChallenge(answer))._unsafeUnwrap();
    expect(view.state).toBe('expired');
    expect(view.failure_reason).toBeUndefined();
  });

  it('a challenge completed just before the deadline is authorized', async () => {
    const { h } = harness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    h.clock.advance(10 * MINUTE - 1);
    const view = (await h.engine.completeChallenge(await h.challengeAnswer(payment.id, 'authorise')))._unsafeUnwrap();
    expect(view.state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
  });

  it('a challenge completed just before the deadline is authorized when storing the intent takes past it (found by a reviewing helper)', async () => {
    const h = makeEngineHarness({}, 0, {
      wrapRepository: (repository) => ({
        ...repository,
        update: (record, events) => {
          // The intent commit takes 5 ms: the deadline passes while it is under way.
          if (record.state === 'authorizing') h.clock.advance(5);
          return repository.update(record, events);
        },
      }),
    });
    const payment = await createDirect(h, CHALLENGE_CARD);
    h.clock.advance(10 * MINUTE - 1);
    const view = (await h.engine.completeChallenge(await h.challengeAnswer(payment.id, 'authorise')))._unsafeUnwrap();
    expect(view.state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
    expect(h.cardVault.size()).toBe(0);
  });

  it('the sweeper expires an abandoned challenge at its deadline', async () => {
    const { h } = harness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    h.clock.advance(10 * MINUTE - 1);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(0);
    h.clock.advance(1);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(1);
    expect((await stored(h, payment.id)).state).toBe('expired');
    const late = await h.engine.completeChallenge(await h.challengeAnswer(payment.id, 'authorise'));
    expect(late._unsafeUnwrapErr().code).toBe('invalid_state');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    expect(await eventTypes(h, payment.id)).toEqual(['payment.created', 'payment.action_required', 'payment.expired']);
  });

  it('honours a configured challengeTimeoutMs', async () => {
    const { h } = harness({ challengeTimeoutMs: MINUTE });
    const payment = await createDirect(h, CHALLENGE_CARD);
    h.clock.advance(MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(1);
    expect((await stored(h, payment.id)).state).toBe('expired');
  });

  // Regression: the in-memory vault only hides an entry past its `expiresAt` (take returns null)
  // until a purge that runs when the vault has grown past 64 entries, so an abandoned challenge
  // kept its CVC in memory. The command whose write ends the challenge now drops the card.
  it('an expired challenge leaves no card data behind in the vault', async () => {
    const { h } = harness();
    await createDirect(h, CHALLENGE_CARD);
    expect(h.cardVault.size()).toBe(1);
    h.clock.advance(10 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(1);
    expect(h.cardVault.size()).toBe(0);
  });
});

describe('authorizing never expires', () => {
  it('an unknown authorization is still processing after days without an inquiry answer, then reconciles', async () => {
    const { h } = harness();
    let acquirerDown = true;
    let inquiries = 0;
    const inquire = h.acquirer.inquire.bind(h.acquirer);
    h.acquirer.inquire = (request) => {
      inquiries += 1;
      return acquirerDown ? errAsync({ code: 'unavailable', message: 'down', retryable: true }) : inquire(request);
    };
    h.acquirer.failNextAuthorize('answer_lost');
    const payment = await createDirect(h, VISA);
    for (let i = 0; i < 20; i++) {
      h.clock.advance(6 * HOUR);
      expect((await h.engine.sweep())._unsafeUnwrap().reconciled).toBe(0);
    }
    const record = await stored(h, payment.id);
    expect(record.state).toBe('authorizing');
    expect(record.authorizationStatus).toBe('unknown');
    // Quick at first, then daily: 7 inquiries in the first 36 hours, then one a day.
    expect(inquiries).toBe(10);
    expect(record.inquiryAttempts).toBe(11);
    expect(record.nextInquiryAt).toBeGreaterThan(h.clock.now());
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);

    acquirerDown = false;
    h.clock.advance(24 * HOUR);
    expect((await h.engine.sweep())._unsafeUnwrap().reconciled).toBe(1);
    expect((await stored(h, payment.id)).state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
  });
});

describe('settings that would keep payments from ever expiring (found by a reviewing helper)', () => {
  /** Options as a host without `exactOptionalPropertyTypes` (or plain JavaScript) may pass them. */
  const loose = (options: Record<string, unknown>) => options as PaymentEngineOptions;

  it('an option given as undefined keeps its default: the payment still expires at its deadline', async () => {
    const { h } = harness(
      loose({ hostedPageTimeoutMs: undefined, challengeTimeoutMs: undefined, authorizationStaleAfterMs: undefined }),
    );
    const payment = await createHosted(h);
    expect((await stored(h, payment.id)).expiresAt).toBe(h.clock.now() + HOUR);
    h.clock.advance(HOUR);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(1);
    expect((await stored(h, payment.id)).state).toBe('expired');
  });

  it('refuses deadlines and inquiry delays that are not finite milliseconds from 0', () => {
    for (const options of [
      { hostedPageTimeoutMs: Number.NaN },
      { challengeTimeoutMs: -1 },
      { hostedPageTimeoutMs: Number.POSITIVE_INFINITY },
      { inquiryDelaysMs: [10_000, Number.NaN] },
      { notFoundIsFinalAfterInquiries: 0 },
      { notFoundIsFinalAfterInquiries: 1.5 },
    ]) {
      expect(() => harness(options)).toThrow(RangeError);
    }
  });

  it('refuses a batch size, batches per tick or sweep concurrency that is not a whole number from 1', async () => {
    for (const options of [
      { batchSize: 0 },
      { batchSize: Number.NaN },
      { batchSize: 2.5 },
      { batchesPerTick: 0 },
      { sweepConcurrency: 0 },
      { sweepConcurrency: -1 },
    ]) {
      expect(() => harness(options)).toThrow(RangeError);
    }
    const { h } = harness({ batchSize: 1, batchesPerTick: 1, sweepConcurrency: 1 });
    const payment = await createHosted(h);
    h.clock.advance(HOUR);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(1);
    expect((await stored(h, payment.id)).state).toBe('expired');
  });
});
