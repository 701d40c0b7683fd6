import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_TEST_CLOCK_START } from '../../adapters/memory/index.js';
import type { Client, Payment, PaymentError, PaymentList } from '../../src/index.js';
import {
  CHALLENGE_SECRET,
  compliantClient,
  hostedOnlyClient,
  makeEngineHarness,
  type EngineHarness,
} from '../support/engine-harness.js';
import { browser, cardSubmission, creditcard, directRequest, hostedRequest } from '../support/requests.js';
import { createChallengeResponse } from '../../adapters/sandbox/index.js';
import {
  CHALLENGE_CARD,
  MINUTE,
  PROFILE,
  VISA,
  createDirect,
  createHosted,
  stored,
} from '../support/engine-helpers.js';

const DECLINED_CARD = '4000000000000002';
const PAYMENT_ID = /^payment_[0-9a-f]{32}$/;

/** Wraps every method of every port but the clock; returns what was called so far, in order. */
function recordPortCalls(h: EngineHarness): () => string[] {
  const calls: string[] = [];
  const ports: Record<string, object> = {
    repository: h.repository,
    acquirer: h.acquirer,
    threeDS: h.threeDS,
    cardVault: h.cardVault,
    events: h.events,
    ids: h.ids,
  };
  for (const [name, port] of Object.entries(ports)) {
    const methods = port as Record<string, unknown>;
    for (const key of Object.keys(methods)) {
      const original = methods[key];
      if (typeof original !== 'function') continue;
      methods[key] = (...args: unknown[]) => {
        calls.push(`${name}.${key}`);
        return (original as (...a: unknown[]) => unknown).apply(port, args);
      };
    }
  }
  return () => [...calls];
}

function expectError(error: PaymentError, code: PaymentError['code']): void {
  expect(error.code).toBe(code);
}

describe('createPayment', () => {
  it('refuses a profile the client may not act on, touching no port', async () => {
    const h = makeEngineHarness();
    const calls = recordPortCalls(h);
    const forOtherProfile = await h.engine.createPayment({
      client: compliantClient,
      profileId: 'profile_9999',
      body: directRequest(VISA),
    });
    const hostedOnly = await h.engine.createPayment({
      client: hostedOnlyClient,
      profileId: 'profile_0002',
      body: hostedRequest(),
    });
    expect(calls()).toEqual([]);
    expectError(forOtherProfile._unsafeUnwrapErr(), 'forbidden_profile');
    expectError(hostedOnly._unsafeUnwrapErr(), 'forbidden_profile');
    expect(forOtherProfile._unsafeUnwrapErr().retryable).toBe(false);
    expect(h.repository.size()).toBe(0);
    expect(JSON.stringify(forOtherProfile._unsafeUnwrapErr())).not.toContain(VISA);
  });

  it.each([
    ['a valid card', directRequest(VISA)],
    ['an invalid card', hostedRequest({ creditcard: { number: '4242424242424241', cvc: 'x' }, user: browser })],
    ['a card and an otherwise invalid body', { creditcard: creditcard(VISA), amount: -1 }],
    ['a card without user', hostedRequest({ creditcard: creditcard(VISA) })],
  ])('refuses the direct flow to a client that is not PCI DSS compliant (%s), storing nothing', async (_, body) => {
    const h = makeEngineHarness();
    const calls = recordPortCalls(h);
    const result = await h.engine.createPayment({ client: hostedOnlyClient, profileId: PROFILE, body });
    const error = result._unsafeUnwrapErr();
    expectError(error, 'direct_flow_not_permitted');
    expect(calls()).toEqual([]);
    expect(h.repository.size()).toBe(0);
    expect((await h.repository.readOutbox({ now: h.clock.now(), limit: 100 }))._unsafeUnwrap()).toEqual([]);
    expect(JSON.stringify(error)).not.toMatch(/424242424242424/);
  });

  it('still lets a non-compliant client create a hosted payment', async () => {
    const h = makeEngineHarness();
    const result = await h.engine.createPayment({
      client: hostedOnlyClient,
      profileId: PROFILE,
      body: hostedRequest(),
    });
    expect(result._unsafeUnwrap().state).toBe('processing');
    expect(h.repository.size()).toBe(1);
  });

  it('reports validation errors with paths, stores nothing and never echoes the card number', async () => {
    const h = makeEngineHarness();
    const calls = recordPortCalls(h);
    const badNumber = '4242424242424241'; // fails Luhn
    const body = directRequest(badNumber, {
      amount: 0,
      billing: { ...(hostedRequest()['billing'] as object), email: 'not-an-email' },
    });
    const error = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body })
    )._unsafeUnwrapErr();
    if (error.code !== 'validation_failed') throw new Error(`expected validation_failed, got ${error.code}`);
    const paths = error.errors.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['amount', 'billing.email', 'creditcard.number']));
    for (const issue of error.errors) expect(issue.message.length).toBeGreaterThan(0);
    expect(error.retryable).toBe(false);
    expect(JSON.stringify(error)).not.toContain(badNumber);
    expect(JSON.stringify(error)).not.toContain('4242424242');
    expect(calls()).toEqual([]);
    expect(h.repository.size()).toBe(0);
    expect(h.acquirer.authorizeCalls(`payment_${'0'.repeat(31)}1`)).toBe(0);
  });

  it('reports an expired card against the test clock, not the wall clock', async () => {
    const h = makeEngineHarness();
    h.clock.set(Date.UTC(2031, 0, 10)); // FUTURE_EXPIRY is 2030-12
    const error = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: directRequest(VISA) })
    )._unsafeUnwrapErr();
    if (error.code !== 'validation_failed') throw new Error(`expected validation_failed, got ${error.code}`);
    expect(error.errors.map((issue) => issue.path)).toContain('creditcard.expiration');
    expect(h.repository.size()).toBe(0);
  });

  it('creates a hosted payment: processing, hosted page link, created from the clock, links and id', async () => {
    const h = makeEngineHarness({}, 0xabcdef);
    h.clock.advance(123);
    const payment = await createHosted(h);

    expect(payment.id).toMatch(PAYMENT_ID);
    expect(payment.id).toBe('payment_00abcdef000000000000000000000001');
    expect(payment.state).toBe('processing');
    expect(payment.created).toBe('2026-01-15T12:00:00.123Z');
    expect(payment.created).toBe(new Date(DEFAULT_TEST_CLOCK_START + 123).toISOString());
    const token = h.hostedToken(payment);
    expect(token).toMatch(/^test_secret_[0-9a-f]{32}$/);
    expect(payment.next).toEqual({
      redirect: `http://localhost:3000/pay/${payment.id}?token=${encodeURIComponent(token)}`,
    });
    expect(payment._links).toEqual({
      self: {
        href: `/v1/partners/partner_0001/profiles/profile_0001/payments/${payment.id}`,
        type: 'application/json',
      },
      profile: { href: '/v1/partners/partner_0001/profiles/profile_0001', type: 'application/json' },
    });
    expect(payment.creditcard).toBeUndefined();
    expect(payment.failure_reason).toBeUndefined();
    expect(payment).not.toHaveProperty('hostedToken');
    expect(JSON.stringify(payment)).not.toContain('"version"');
    expect(payment).toMatchObject({
      description: 'Order 1234',
      reference: '8d9a5cbe-1f4e-4c1b-9a0e-5b8f3f0d2c11',
      method: 'creditcard',
      currency: 'EUR',
      amount: 1999,
      session: { redirect_url: 'https://shop.example.com/return' },
    });

    const record = await stored(h, payment.id);
    expect(record).toMatchObject({
      flow: 'hosted',
      state: 'awaiting_card_data',
      version: 1,
      hostedToken: token,
      card: null,
      threeDS: null,
      createdAt: DEFAULT_TEST_CLOCK_START + 123,
      expiresAt: DEFAULT_TEST_CLOCK_START + 123 + 60 * MINUTE,
      authorizationStatus: null,
    });
    // Nothing was sent to 3DS or the acquirer for a hosted payment.
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    const outbox = (await h.repository.readOutbox({ now: h.clock.now(), limit: 10 }))._unsafeUnwrap();
    expect(outbox.map((entry) => entry.event.type)).toEqual(['payment.created']);
    expect(outbox[0]?.event.payment).toEqual(payment);
  });

  it('uses the configured hosted page URL', async () => {
    const h = makeEngineHarness({ hostedPageUrl: ({ id, token }) => `https://pay.example.com/p/${id}#${token}` });
    const payment = await createHosted(h);
    const record = await stored(h, payment.id);
    expect(payment.next?.redirect).toBe(`https://pay.example.com/p/${payment.id}#${record.hostedToken}`);
  });

  it('runs a direct payment to its end before answering, without a hosted token', async () => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, VISA);
    expect(payment.state).toBe('succeeded');
    expect(payment.next).toBeUndefined();
    expect(payment.creditcard?.card).toMatchObject({ last4: '4242', bin: '42424242', scheme: 'visa' });
    const record = await stored(h, payment.id);
    expect(record).toMatchObject({ flow: 'direct', hostedToken: null, nextRedirect: null, state: 'succeeded' });
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
  });

  it('gives every payment its own id', async () => {
    const h = makeEngineHarness();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await createHosted(h)).id);
    ids.add((await createDirect(h, VISA)).id);
    expect(ids.size).toBe(6);
    for (const id of ids) expect(id).toMatch(PAYMENT_ID);
  });
});

describe('submitCard (hosted page)', () => {
  it('answers not_found to a wrong token, storing nothing and calling nobody', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    const token = h.hostedToken(payment);
    const calls = recordPortCalls(h);
    for (const wrong of ['', 'x', `${token}x`, token.slice(0, -1), token.toUpperCase()]) {
      const result = await h.engine.submitCard({ paymentId: payment.id, token: wrong, body: cardSubmission(VISA) });
      expectError(result._unsafeUnwrapErr(), 'not_found');
    }
    expect(calls()).toContain('repository.load');
    expect(calls().filter((call) => call !== 'repository.load')).toEqual([]);
    expect((await stored(h, payment.id)).version).toBe(1);
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
  });

  it('answers not_found for a direct payment and for an unknown or malformed id', async () => {
    const h = makeEngineHarness();
    const direct = await createDirect(h, CHALLENGE_CARD);
    const hosted = await createHosted(h);
    const token = h.hostedToken(hosted);
    for (const paymentId of [direct.id, `payment_${'f'.repeat(32)}`, 'payment_1', '../etc/passwd']) {
      const result = await h.engine.submitCard({ paymentId, token, body: cardSubmission(VISA) });
      expectError(result._unsafeUnwrapErr(), 'not_found');
    }
    expect((await stored(h, direct.id)).state).toBe('awaiting_challenge');
  });

  it('succeeds once; a second submit is invalid_state and the acquirer was asked once', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    const token = h.hostedToken(payment);
    const first = (
      await h.engine.submitCard({ paymentId: payment.id, token, body: cardSubmission(VISA) })
    )._unsafeUnwrap();
    expect(first.state).toBe('succeeded');
    expect(first.next).toBeUndefined();
    expect(first.creditcard?.rrn).toMatch(/^\d{12}$/);

    const second = await h.engine.submitCard({ paymentId: payment.id, token, body: cardSubmission(DECLINED_CARD) });
    const error = second._unsafeUnwrapErr();
    expectError(error, 'invalid_state');
    if (error.code === 'invalid_state') expect(error.state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
    expect((await stored(h, payment.id)).state).toBe('succeeded');
  });

  it('validates the submission without changing the payment or echoing the card', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    const badNumber = '4000000000000003';
    const result = await h.engine.submitCard({
      paymentId: payment.id,
      token: h.hostedToken(payment),
      body: cardSubmission(badNumber),
    });
    const error = result._unsafeUnwrapErr();
    if (error.code !== 'validation_failed') throw new Error(`expected validation_failed, got ${error.code}`);
    expect(error.errors.map((issue) => issue.path)).toContain('creditcard.number');
    expect(JSON.stringify(error)).not.toContain(badNumber);
    const record = await stored(h, payment.id);
    expect(record).toMatchObject({ state: 'awaiting_card_data', version: 1, card: null });
    // The page can still be used.
    const retry = await h.engine.submitCard({
      paymentId: payment.id,
      token: h.hostedToken(payment),
      body: cardSubmission(VISA),
    });
    expect(retry._unsafeUnwrap().state).toBe('succeeded');
  });

  it('keeps the card summary and browser data of the submission, and clears the hosted link', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    const token = h.hostedToken(payment);
    await h.engine.submitCard({ paymentId: payment.id, token, body: cardSubmission('5555555555554444') });
    const record = await stored(h, payment.id);
    expect(record.card).toEqual({
      scheme: 'mastercard',
      bin: '55555555',
      last4: '4444',
      expiration: '2030-12-01T00:00:00.000Z',
      holder_name: 'Ada Lovelace',
    });
    expect(record.browser).toEqual(browser);
    expect(record.nextRedirect).toBeNull();
    expect(record.expiresAt).toBeNull();
  });
});

describe('completeChallenge', () => {
  it('answers not_found to a wrong transaction id, leaving the payment and the vault alone', async () => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    const answer = await h.challengeAnswer(payment.id, 'authorise');
    const before = await stored(h, payment.id);
    const result = await h.engine.completeChallenge({ ...answer, transactionId: `threeds_${'9'.repeat(32)}` });
    expectError(result._unsafeUnwrapErr(), 'not_found');
    expect(await stored(h, payment.id)).toEqual(before);
    expect(h.cardVault.size()).toBe(1);
    expect((await h.engine.completeChallenge(answer))._unsafeUnwrap().state).toBe('succeeded');
  });

  it('answers not_found for a payment that has no challenge', async () => {
    const h = makeEngineHarness();
    const hosted = await createHosted(h);
    const result = await h.engine.completeChallenge({ paymentId: hosted.id, transactionId: '', cres: 'x' });
    expectError(result._unsafeUnwrapErr(), 'not_found');
    const frictionless = await createDirect(h, VISA);
    const other = await h.engine.completeChallenge({
      paymentId: frictionless.id,
      transactionId: 'threeds_x',
      cres: 'x',
    });
    expectError(other._unsafeUnwrapErr(), 'not_found');
  });

  it.each([
    ['a tampered cres', (cres: string) => `${cres}x`],
    [
      'a cres with a swapped decision',
      (cres: string) => cres.replace(/^[^.]+/, Buffer.from('{}').toString('base64url')),
    ],
    ['an empty cres', () => ''],
  ])('refuses %s with validation_failed and leaves the state unchanged', async (_, tamper) => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    const answer = await h.challengeAnswer(payment.id, 'authorise');
    const before = await stored(h, payment.id);
    const error = (await h.engine.completeChallenge({ ...answer, cres: tamper(answer.cres) }))._unsafeUnwrapErr();
    if (error.code !== 'validation_failed') throw new Error(`expected validation_failed, got ${error.code}`);
    expect(error.errors.map((issue) => issue.path)).toEqual(['cres']);
    expect(await stored(h, payment.id)).toEqual(before);
    expect(h.cardVault.size()).toBe(1);
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    // The genuine answer still completes the payment.
    expect((await h.engine.completeChallenge(answer))._unsafeUnwrap().state).toBe('succeeded');
  });

  it('refuses a genuine cres of another payment', async () => {
    const h = makeEngineHarness();
    const a = await createDirect(h, CHALLENGE_CARD);
    const b = await createDirect(h, CHALLENGE_CARD);
    const answerA = await h.challengeAnswer(a.id, 'authorise');
    const recordB = await stored(h, b.id);
    const result = await h.engine.completeChallenge({
      paymentId: b.id,
      transactionId: recordB.threeDS?.transactionId ?? '',
      cres: answerA.cres,
    });
    expectError(result._unsafeUnwrapErr(), 'validation_failed');
    expect((await stored(h, b.id)).state).toBe('awaiting_challenge');
    expect(h.acquirer.authorizeCalls(b.id)).toBe(0);
  });

  it.each(['authorise', 'refuse'] as const)(
    'after a %s, a second completion is invalid_state and the vault is empty',
    async (decision) => {
      const h = makeEngineHarness();
      const payment = await createDirect(h, CHALLENGE_CARD);
      expect(h.cardVault.size()).toBe(1);
      const answer = await h.challengeAnswer(payment.id, decision);
      const first = (await h.engine.completeChallenge(answer))._unsafeUnwrap();
      expect(first.state).toBe(decision === 'authorise' ? 'succeeded' : 'failed');
      expect(first.next).toBeUndefined();
      expect(h.cardVault.size()).toBe(0);

      for (const again of ['authorise', 'refuse'] as const) {
        const second = await h.engine.completeChallenge(await h.challengeAnswer(payment.id, again));
        expectError(second._unsafeUnwrapErr(), 'invalid_state');
      }
      expect(h.acquirer.authorizeCalls(payment.id)).toBe(decision === 'authorise' ? 1 : 0);
      expect((await stored(h, payment.id)).state).toBe(first.state);
    },
  );

  it('records the challenge outcome in the internal record', async () => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    const before = await stored(h, payment.id);
    expect(before.threeDS).toMatchObject({ flow: 'challenge', transStatus: 'C', liabilityShift: false });
    expect(payment.next?.redirect).toBe(
      `https://acs.sandbox.test/challenge/${payment.id}/${before.threeDS?.transactionId ?? ''}`,
    );
    await h.engine.completeChallenge(await h.challengeAnswer(payment.id, 'authorise'));
    const after = await stored(h, payment.id);
    expect(after.threeDS).toEqual({
      flow: 'challenge',
      transStatus: 'Y',
      eci: '05',
      liabilityShift: true,
      transactionId: before.threeDS?.transactionId,
    });
    expect(after.nextRedirect).toBeNull();
    // What the acquirer got: the card's BIN and last four and the 3DS outcome, once.
    expect(h.acquirer.authorizations()).toEqual([
      expect.objectContaining({
        paymentId: payment.id,
        threeDS: after.threeDS,
        card: expect.objectContaining({ last4: '3220' }),
      }),
    ]);
  });

  it('a challenge cres signed with another secret is refused', async () => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    const answer = await h.challengeAnswer(payment.id, 'authorise');
    const forged = createChallengeResponse({
      secret: `${CHALLENGE_SECRET}-not`,
      paymentId: payment.id,
      transactionId: answer.transactionId,
      decision: 'authorise',
    });
    expectError(
      (await h.engine.completeChallenge({ ...answer, cres: forged }))._unsafeUnwrapErr(),
      'validation_failed',
    );
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
  });
});

describe('events', () => {
  it('delivers outbox events in order, with payment snapshots, and marks them delivered', async () => {
    const h = makeEngineHarness();
    const challenged = await createDirect(h, CHALLENGE_CARD);
    const declined = await createDirect(h, DECLINED_CARD);
    h.clock.advance(5_000);
    await h.engine.completeChallenge(await h.challengeAnswer(challenged.id, 'authorise'));

    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(5);
    const events = h.events.events();
    expect(events.map((e) => [e.paymentId, e.type])).toEqual([
      [challenged.id, 'payment.created'],
      [challenged.id, 'payment.action_required'],
      [declined.id, 'payment.created'],
      [declined.id, 'payment.failed'],
      [challenged.id, 'payment.succeeded'],
    ]);
    const [created, actionRequired, declinedCreated, failed, succeeded] = events;
    expect(created?.payment.state).toBe('processing');
    expect(created?.payment.next).toBeUndefined(); // the direct flow is authenticating at creation
    expect(actionRequired?.payment.state).toBe('processing');
    expect(actionRequired?.payment.next?.redirect).toMatch(/^https:\/\/acs\.sandbox\.test\/challenge\//);
    expect(declinedCreated?.payment.failure_reason).toBeUndefined();
    expect(failed?.payment).toMatchObject({ state: 'failed', failure_reason: 'declined' });
    expect(failed?.payment.next).toBeUndefined();
    expect(succeeded?.payment.state).toBe('succeeded');
    expect(succeeded?.payment.creditcard?.rrn).toMatch(/^\d{12}$/);
    expect(succeeded?.occurredAt).toBe(new Date(DEFAULT_TEST_CLOCK_START + 5_000).toISOString());
    expect(created?.occurredAt).toBe(new Date(DEFAULT_TEST_CLOCK_START).toISOString());
    for (const event of events) {
      expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(event).toMatchObject({ partnerId: 'partner_0001', profileId: PROFILE });
      expect(event.payment.id).toBe(event.paymentId);
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);

    // Delivered events are not delivered again.
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    expect(h.events.events()).toHaveLength(5);
    expect((await h.repository.readOutbox({ now: h.clock.now(), limit: 100 }))._unsafeUnwrap()).toEqual([]);
  });

  it('hosted created and expired events carry the right snapshots', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    h.clock.advance(60 * MINUTE);
    await h.engine.sweep();
    await h.engine.deliverEvents();
    const [created, expired] = h.events.events();
    expect(created?.type).toBe('payment.created');
    expect(created?.payment).toEqual(payment);
    expect(expired?.type).toBe('payment.expired');
    expect(expired?.payment.state).toBe('expired');
    expect(expired?.payment.next).toBeUndefined();
    expect(h.events.events()).toHaveLength(2);
  });

  it('stops at an event the sink refuses and resumes from it, losing nothing and keeping order', async () => {
    let refuse: string | null = null;
    const h = makeEngineHarness({}, 0, {
      events: {
        failOn: (event) =>
          event.id === refuse ? { code: 'unavailable', message: 'sink down', retryable: true } : undefined,
      },
    });
    await createDirect(h, VISA);
    await createDirect(h, DECLINED_CARD);
    const outbox = (await h.repository.readOutbox({ now: h.clock.now(), limit: 100 }))._unsafeUnwrap();
    expect(outbox).toHaveLength(4);
    refuse = outbox[2]?.event.id ?? null;

    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(h.events.events().map((e) => e.id)).toEqual(outbox.slice(0, 2).map((e) => e.event.id));
    // Deferred for a second: nothing more goes out before, the later event is not sent ahead of it.
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    h.clock.advance(1000);
    // Still refused: deferred again, the later event still waits.
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    expect(h.events.events()).toHaveLength(2);

    refuse = null;
    h.clock.advance(1999);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    h.clock.advance(1);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(h.events.events().map((e) => e.id)).toEqual(outbox.map((e) => e.event.id));
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
  });

  it('a failed injected publish is retried by the first delivery after its back-off', async () => {
    const h = makeEngineHarness();
    await createDirect(h, VISA);
    h.events.injectFailure();
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
    h.clock.advance(1000);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(h.events.events().map((e) => e.type)).toEqual(['payment.created', 'payment.succeeded']);
  });

  it('retries a refused publish within one delivery when retries are configured', async () => {
    const h = makeEngineHarness({ retries: 2 });
    await createDirect(h, VISA);
    h.events.injectFailure();
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
  });

  it('when marking fails, the delivery fails and the events are delivered again (at least once)', async () => {
    const h = makeEngineHarness();
    await createDirect(h, VISA);
    h.repository.injectFailure('markDelivered');
    expectError((await h.engine.deliverEvents())._unsafeUnwrapErr(), 'unavailable');
    expect(h.events.events()).toHaveLength(2);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    const ids = h.events.events().map((e) => e.id);
    expect(ids).toHaveLength(4);
    expect(ids.slice(2)).toEqual(ids.slice(0, 2));
  });

  it('fails with unavailable when the outbox cannot be read', async () => {
    const h = makeEngineHarness();
    await createDirect(h, VISA);
    h.repository.injectFailure('readOutbox');
    expectError((await h.engine.deliverEvents())._unsafeUnwrapErr(), 'unavailable');
    expect(h.events.events()).toHaveLength(0);
  });

  it('never puts card data in an event', async () => {
    const h = makeEngineHarness();
    const numbers = [VISA, CHALLENGE_CARD, DECLINED_CARD, '378282246310005'];
    for (const number of numbers) await createDirect(h, number);
    const hosted = await createHosted(h);
    await h.engine.submitCard({
      paymentId: hosted.id,
      token: h.hostedToken(hosted),
      body: cardSubmission('4000000000003238'),
    });
    for (const p of h.repository.snapshot()) {
      if (p.state === 'awaiting_challenge')
        await h.engine.completeChallenge(await h.challengeAnswer(p.id, 'authorise'));
    }
    await h.engine.deliverEvents();
    const dump = JSON.stringify(h.events.events());
    expect(h.events.events().length).toBeGreaterThanOrEqual(12);
    for (const number of [...numbers, '4000000000003238']) expect(dump).not.toContain(number);
    expect(dump).not.toMatch(/"(cvc|number)"/);
    expect(dump).not.toContain('holderName');
  });
});

describe('getPayment and listPayments', () => {
  it('returns payments frozen all the way down, whichever command made them', async () => {
    const h = makeEngineHarness();
    const hosted = await createHosted(h);
    const direct = await createDirect(h, VISA);
    const read = (await h.engine.getPayment({ paymentId: direct.id, profileId: PROFILE }))._unsafeUnwrap();
    const listed = (await h.engine.listPayments({ profileId: PROFILE }))._unsafeUnwrap();
    for (const payment of [hosted, direct, read, ...listed.items]) {
      expect(Object.isFrozen(payment)).toBe(true);
      expect(Object.isFrozen(payment._links.self)).toBe(true);
      expect(Object.isFrozen(payment.billing)).toBe(true);
    }
    expect(Object.isFrozen(direct.creditcard?.card)).toBe(true);
    expect(Object.isFrozen(listed.items)).toBe(true);
  });

  it('finds a payment only through its own profile and partner', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    const get = (query: { paymentId: string; profileId: string; partnerId?: string }) => h.engine.getPayment(query);

    expect((await get({ paymentId: payment.id, profileId: PROFILE }))._unsafeUnwrap()).toEqual(payment);
    expect(
      (await get({ paymentId: payment.id, profileId: PROFILE, partnerId: 'partner_0001' }))._unsafeUnwrap(),
    ).toEqual(payment);
    for (const query of [
      { paymentId: payment.id, profileId: 'profile_0002' },
      { paymentId: payment.id, profileId: PROFILE, partnerId: 'partner_0002' },
      { paymentId: `payment_${'e'.repeat(32)}`, profileId: PROFILE },
      { paymentId: payment.id.toUpperCase(), profileId: PROFILE },
      { paymentId: '', profileId: PROFILE },
    ]) {
      const error = (await get(query))._unsafeUnwrapErr();
      expectError(error, 'not_found');
      expect(error.message).not.toContain('profile_0001');
    }
  });

  it('fails with unavailable when the store cannot load', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    h.repository.injectFailure('load');
    expectError(
      (await h.engine.getPayment({ paymentId: payment.id, profileId: PROFILE }))._unsafeUnwrapErr(),
      'unavailable',
    );
  });

  it('lists newest first with cursor pagination, one profile only', async () => {
    const h = makeEngineHarness();
    const created: Payment[] = [];
    for (let i = 0; i < 5; i++) {
      created.push(await createHosted(h));
      h.clock.advance(1);
    }
    await createHosted(h, 'profile_0002');
    const newestFirst = [...created].reverse().map((p) => p.id);

    const all = (await h.engine.listPayments({ profileId: PROFILE }))._unsafeUnwrap();
    expect(all.items.map((p) => p.id)).toEqual(newestFirst);
    expect(all.next_cursor).toBeUndefined();
    expect(all.items[0]).toEqual(created[4]);

    const page1 = (await h.engine.listPayments({ profileId: PROFILE, limit: 2 }))._unsafeUnwrap();
    expect(page1.items.map((p) => p.id)).toEqual(newestFirst.slice(0, 2));
    expect(page1.next_cursor).toBe(newestFirst[1]);
    const page2 = (
      await h.engine.listPayments({ profileId: PROFILE, limit: 2, after: page1.next_cursor ?? '' })
    )._unsafeUnwrap();
    expect(page2.items.map((p) => p.id)).toEqual(newestFirst.slice(2, 4));
    const page3 = (
      await h.engine.listPayments({ profileId: PROFILE, limit: 2, after: page2.next_cursor ?? '' })
    )._unsafeUnwrap();
    expect(page3.items.map((p) => p.id)).toEqual(newestFirst.slice(4));
    expect(page3.next_cursor).toBeUndefined();

    const exact = (await h.engine.listPayments({ profileId: PROFILE, limit: 5 }))._unsafeUnwrap();
    expect(exact.items).toHaveLength(5);
    expect(exact.next_cursor).toBeUndefined();

    const other = (await h.engine.listPayments({ profileId: 'profile_0002' }))._unsafeUnwrap();
    expect(other.items).toHaveLength(1);
    // A cursor from another profile gives nothing away: refused as an unknown one is.
    const crossed = (
      await h.engine.listPayments({ profileId: 'profile_0002', after: newestFirst[0] ?? '' })
    )._unsafeUnwrapErr();
    const unknown = (
      await h.engine.listPayments({ profileId: 'profile_0002', after: `payment_${'e'.repeat(32)}` })
    )._unsafeUnwrapErr();
    expect(crossed).toEqual(unknown);
    expect(crossed).toMatchObject({ code: 'validation_failed', errors: [{ path: 'after' }] });
    expect((await h.engine.listPayments({ profileId: 'profile_0003' }))._unsafeUnwrap()).toEqual({ items: [] });
  });

  // Found by a reviewer: the partner filter ran after the repository cut the page, so a client of
  // the partner a profile moved to got empty pages whose next_cursor named the old partner's payments.
  describe('of a profile that changed hands', () => {
    const partnerB: Client = { ...compliantClient, id: 'client_partner_b', partnerId: 'partner_0002' };

    /** Payments of partner_0001 and partner_0002 on PROFILE, interleaved; ids of each, oldest first. */
    const interleaved = async (h: EngineHarness) => {
      const mine: string[] = [];
      const theirs: string[] = [];
      for (const owner of ['a', 'a', 'b', 'a', 'b', 'b', 'a', 'a'] as const) {
        const client = owner === 'a' ? compliantClient : partnerB;
        const created = await h.engine.createPayment({ client, profileId: PROFILE, body: hostedRequest() });
        (owner === 'b' ? mine : theirs).push(created._unsafeUnwrap().id);
        h.clock.advance(1);
      }
      return { mine, theirs };
    };

    /** Walks partner_0002's list with `limit`; every page and cursor seen, in order. */
    const walk = async (h: EngineHarness, limit: number) => {
      const pages: PaymentList[] = [];
      let after: string | undefined;
      do {
        const page = (
          await h.engine.listPayments({
            profileId: PROFILE,
            partnerId: 'partner_0002',
            limit,
            ...(after !== undefined && { after }),
          })
        )._unsafeUnwrap();
        pages.push(page);
        after = page.next_cursor;
      } while (after !== undefined && pages.length < 20);
      return pages;
    };

    it.each([1, 2, 3])('gives the new partner full pages of its own payments only, limit %i', async (limit) => {
      const h = makeEngineHarness();
      const { mine, theirs } = await interleaved(h);
      const pages = await walk(h, limit);
      for (const id of theirs) expect(JSON.stringify(pages)).not.toContain(id);
      expect(pages.flatMap((page) => page.items.map((item) => item.id))).toEqual([...mine].reverse());
      expect(pages.map((page) => page.items.length)).toEqual(limit === 1 ? [1, 1, 1] : limit === 2 ? [2, 1] : [3]);
      for (const after of theirs) {
        const page = await h.engine.listPayments({ profileId: PROFILE, partnerId: 'partner_0002', after });
        expect(page._unsafeUnwrapErr()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'after' }] });
      }
    });

    it('names no payment of another partner even when the repository lets one through', async () => {
      // A repository that ignores the partner (as the port's list did before it had one).
      const h = makeEngineHarness({}, 0, {
        wrapRepository: (repository) => ({
          ...repository,
          list: ({ partnerId: _ignored, ...query }) => repository.list(query),
        }),
      });
      const { theirs } = await interleaved(h);
      const pages = await walk(h, 1);
      for (const id of theirs) expect(JSON.stringify(pages)).not.toContain(id);
      // The newest payment is the other partner's: the list ends there rather than name it.
      expect(pages).toEqual([{ items: [] }]);
    });
  });

  it('fails with unavailable when the store cannot load the cursor, and lists nothing', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    h.repository.injectFailure('load');
    const calls = recordPortCalls(h);
    expectError(
      (await h.engine.listPayments({ profileId: PROFILE, after: payment.id }))._unsafeUnwrapErr(),
      'unavailable',
    );
    expect(calls()).not.toContain('repository.list');
  });

  it('defaults to 20 items per page', async () => {
    const h = makeEngineHarness();
    for (let i = 0; i < 21; i++) {
      await createHosted(h);
      h.clock.advance(1);
    }
    const page = (await h.engine.listPayments({ profileId: PROFILE }))._unsafeUnwrap();
    expect(page.items).toHaveLength(20);
    expect(page.next_cursor).toBe(page.items[19]?.id);
    const max = (await h.engine.listPayments({ profileId: PROFILE, limit: 100 }))._unsafeUnwrap();
    expect(max.items).toHaveLength(21);
  });

  it.each([0, 101, 1.5, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses limit %s', async (limit) => {
    const h = makeEngineHarness();
    const calls = recordPortCalls(h);
    const error = (await h.engine.listPayments({ profileId: PROFILE, limit }))._unsafeUnwrapErr();
    if (error.code !== 'validation_failed') throw new Error(`expected validation_failed, got ${error.code}`);
    expect(error.errors.map((issue) => issue.path)).toEqual(['limit']);
    expect(calls()).toEqual([]);
  });

  it.each(['garbage', '', 'payment_123', `payment_${'G'.repeat(32)}`, `${'payment_'}${'a'.repeat(33)}`])(
    'refuses after = %j',
    async (after) => {
      const h = makeEngineHarness();
      const error = (await h.engine.listPayments({ profileId: PROFILE, after }))._unsafeUnwrapErr();
      if (error.code !== 'validation_failed') throw new Error(`expected validation_failed, got ${error.code}`);
      expect(error.errors.map((issue) => issue.path)).toEqual(['after']);
    },
  );
});

describe('background worker', () => {
  it('expires due payments and delivers events until stopped', async () => {
    const h = makeEngineHarness();
    const payment = await createHosted(h);
    const worker = h.engine.startBackgroundWorker({ intervalMs: 10 });
    try {
      // The created event goes out without any clock movement.
      await vi.waitFor(() => expect(h.events.events().map((e) => e.type)).toEqual(['payment.created']), {
        timeout: 2_000,
        interval: 5,
      });
      expect(h.repository.snapshot()[0]?.state).toBe('awaiting_card_data');
      h.clock.advance(60 * MINUTE);
      await vi.waitFor(
        () => expect(h.events.events().map((e) => e.type)).toEqual(['payment.created', 'payment.expired']),
        { timeout: 2_000, interval: 5 },
      );
      expect((await stored(h, payment.id)).state).toBe('expired');
      expect(h.logs.some((log) => log.message === 'background tick' && log.fields['expired'] === 1)).toBe(true);
    } finally {
      await expect(worker.stop()).resolves.toBeUndefined();
    }

    // Stopped: nothing happens any more.
    const later = await createHosted(h);
    h.clock.advance(61 * MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await stored(h, later.id)).state).toBe('awaiting_card_data');
    expect(h.events.events()).toHaveLength(2);
  });

  it('keeps running after a failing tick', async () => {
    const h = makeEngineHarness();
    await createHosted(h);
    h.repository.injectFailure('findDue');
    h.repository.injectFailure('findDue');
    h.clock.advance(60 * MINUTE);
    const worker = h.engine.startBackgroundWorker({ intervalMs: 5 });
    try {
      await vi.waitFor(() => expect(h.repository.snapshot()[0]?.state).toBe('expired'), {
        timeout: 2_000,
        interval: 5,
      });
      await vi.waitFor(() => expect(h.events.events().map((e) => e.type)).toContain('payment.expired'), {
        timeout: 2_000,
        interval: 5,
      });
    } finally {
      await worker.stop();
    }
    expect(h.logs.some((log) => log.message === 'background tick failed')).toBe(true);
  });
});

describe('background worker logs', () => {
  it('logs a failed tick without the text adapters put in their errors (card data included)', async () => {
    const h = makeEngineHarness({}, 0, {
      wrapRepository: (repository) => ({
        ...repository,
        readOutbox: () => {
          throw new Error('outbox row for 4242424242424242, cvc 737');
        },
      }),
    });
    h.repository.injectFailure('findDue', {
      code: 'unavailable',
      message: 'no route to 4242 4242 4242 4242',
      retryable: false,
    });
    const worker = h.engine.startBackgroundWorker({ intervalMs: 5 });
    try {
      await vi.waitFor(
        () => expect(h.logs.filter((log) => log.message === 'background tick failed').length).toBeGreaterThan(1),
        { timeout: 2_000, interval: 5 },
      );
    } finally {
      await worker.stop();
    }
    const failed = h.logs.filter((log) => log.message === 'background tick failed');
    const text = JSON.stringify(failed);
    expect(text).toContain('unavailable');
    expect(text).toContain('Error: outbox row for [digits], cvc [digits]');
    expect(text).not.toMatch(/4242|737/);
  });
});

describe('background worker backlog', () => {
  // One batch per interval would cap delivery at batchSize events a second: a shop taking more
  // payments than that would see its events fall further behind for ever.
  it('drains a backlog larger than one batch within one tick, up to batchesPerTick', async () => {
    const h = makeEngineHarness({ batchSize: 3, batchesPerTick: 3 });
    for (let i = 0; i < 11; i++) await createHosted(h);
    h.clock.advance(60 * MINUTE);
    const worker = h.engine.startBackgroundWorker({ intervalMs: 60_000 });
    try {
      // The first tick: three full batches of each (9 of 11), then it waits for the next tick.
      await vi.waitFor(() => expect(h.repository.snapshot().filter((p) => p.state === 'expired')).toHaveLength(9), {
        timeout: 2_000,
        interval: 5,
      });
      await vi.waitFor(() => expect(h.events.events()).toHaveLength(9), { timeout: 2_000, interval: 5 });
      await new Promise((done) => setTimeout(done, 50));
      expect(h.repository.snapshot().filter((p) => p.state === 'expired')).toHaveLength(9);
      expect(h.events.events()).toHaveLength(9);
    } finally {
      await worker.stop();
    }
    expect(h.logs.some((log) => log.message === 'background tick' && log.fields['expired'] === 9)).toBe(true);
  });
});

describe('background worker shutdown', () => {
  // BackgroundWorker.stop() is documented as "Stops after the current tick", but it interrupts
  // the worker fiber at once: a delivery cut between publish and markDelivered leaves published
  // events in the outbox, and every graceful shutdown (deploy) re-delivers them.
  // Changed on purpose since: stop() no longer waits for the rest of the batch (each publish may
  // take its time-out and retries); the event being published is still marked delivered, and the
  // next one waits in the outbox.
  it('stop() lets the publish under way finish and marks it delivered; the next event waits', async () => {
    const h = makeEngineHarness();
    await createDirect(h, VISA);
    const publish = h.events.publish.bind(h.events);
    let publishing = 0;
    h.events.publish = async (event) => {
      publishing += 1;
      await new Promise((done) => setTimeout(done, 40));
      return publish(event);
    };
    const worker = h.engine.startBackgroundWorker({ intervalMs: 1_000 });
    await vi.waitFor(() => expect(publishing).toBe(1), { timeout: 2_000, interval: 1 });
    await worker.stop();
    await new Promise((done) => setTimeout(done, 100));
    expect(h.events.events().map((event) => event.type)).toEqual(['payment.created']);
    const waiting = (await h.repository.readOutbox({ now: h.clock.now(), limit: 10 }))._unsafeUnwrap();
    expect(waiting.map((entry) => [entry.event.type, entry.attempts])).toEqual([['payment.succeeded', 0]]);
  });
});

describe('logging', () => {
  it('never hands card data to the logger, whatever goes wrong', async () => {
    const h = makeEngineHarness({ timeouts: { acquirerMs: 50 } });
    const numbers: string[] = [];
    const direct = async (number: string) => {
      numbers.push(number);
      return h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: directRequest(number) });
    };
    await direct(VISA);
    await direct(DECLINED_CARD);
    await direct('4000000000003287');
    await direct('4000000000000119');
    h.acquirer.failNextAuthorize('unavailable');
    await direct('5555555555554444');
    h.acquirer.failNextAuthorize('answer_lost');
    await direct('378282246310005');
    h.acquirer.failNextAuthorize('hang');
    await direct('5200828282828210');
    await direct('4242424242424241'); // invalid: validation error
    await h.engine.createPayment({
      client: hostedOnlyClient,
      profileId: PROFILE,
      body: directRequest('4000000000003055'),
    });
    numbers.push('4000000000003055');
    // Challenge whose card vanished from the vault.
    const challenged = (await direct(CHALLENGE_CARD))._unsafeUnwrap();
    await h.cardVault.take(challenged.id);
    await h.engine.completeChallenge(await h.challengeAnswer(challenged.id, 'authorise'));
    // Storage failing around the authorization.
    h.repository.injectFailure('update');
    await direct('4000000000009995');
    h.repository.injectFailure('insert');
    await direct('4000000000000069');
    // Hosted submission with a bad token and one that fails validation.
    const hosted = await createHosted(h);
    await h.engine.submitCard({ paymentId: hosted.id, token: 'nope', body: cardSubmission('4000000000003311') });
    await h.engine.submitCard({
      paymentId: hosted.id,
      token: h.hostedToken(hosted),
      body: { creditcard: creditcard('4000000000003311', '12'), user: browser },
    });
    numbers.push('4000000000003311');
    h.acquirer.failNextInquire();
    for (let i = 0; i < 4; i++) {
      h.clock.advance(3 * MINUTE);
      await h.engine.sweep();
    }
    await h.engine.deliverEvents();

    expect(h.logs.length).toBeGreaterThan(10);
    expect(h.logs.some((log) => log.level === 'error')).toBe(true);
    const dump = JSON.stringify(h.logs);
    for (const number of numbers) {
      expect(dump).not.toContain(number);
      expect(dump).not.toContain(number.slice(0, 12));
    }
    expect(dump).not.toMatch(/"(cvc|number|holderName)"/);
  });
});
