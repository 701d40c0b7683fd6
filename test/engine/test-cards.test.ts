import { describe, expect, it } from 'vitest';
import type { FailureReason, Payment } from '../../src/index.js';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import type { EngineHarness } from '../support/engine-harness.js';
import { cardSubmission, directRequest, hostedRequest } from '../support/requests.js';

/** decisions.md section 7, written out independently of the sandbox's own table. */
interface Expectation {
  readonly number: string;
  readonly scheme: string;
  readonly threeDS: 'none' | 'frictionless' | 'challenge' | 'rejected' | 'unavailable';
  readonly state: 'succeeded' | 'failed';
  readonly reason?: FailureReason;
  readonly eci?: string;
  readonly timesOut?: boolean;
}

const CARDS: readonly Expectation[] = [
  { number: '4242424242424242', scheme: 'visa', threeDS: 'none', state: 'succeeded' },
  { number: '5555555555554444', scheme: 'mastercard', threeDS: 'none', state: 'succeeded' },
  { number: '378282246310005', scheme: 'amex', threeDS: 'none', state: 'succeeded' },
  { number: '5200828282828210', scheme: 'mastercard', threeDS: 'none', state: 'succeeded' },
  { number: '4000000000003055', scheme: 'visa', threeDS: 'frictionless', state: 'succeeded', eci: '05' },
  { number: '4000000000003238', scheme: 'visa', threeDS: 'challenge', state: 'succeeded', eci: '05' },
  { number: '4000000000003220', scheme: 'visa', threeDS: 'challenge', state: 'succeeded', eci: '05' },
  { number: '4000008260003178', scheme: 'visa', threeDS: 'challenge', state: 'failed', reason: 'insufficient_funds' },
  {
    number: '4000000000003287',
    scheme: 'visa',
    threeDS: 'rejected',
    state: 'failed',
    reason: 'authentication_rejected',
  },
  { number: '4000000000003311', scheme: 'visa', threeDS: 'unavailable', state: 'succeeded' },
  { number: '4000000000000002', scheme: 'visa', threeDS: 'none', state: 'failed', reason: 'declined' },
  { number: '4000000000009995', scheme: 'visa', threeDS: 'none', state: 'failed', reason: 'insufficient_funds' },
  { number: '4000000000000069', scheme: 'visa', threeDS: 'none', state: 'failed', reason: 'expired_card' },
  { number: '4000000000000119', scheme: 'visa', threeDS: 'none', state: 'succeeded', timesOut: true },
];

/** Drives a payment that is waiting on the cardholder or the acquirer to its end, as the world would. */
async function finish(h: EngineHarness, payment: Payment, card: Expectation): Promise<Payment> {
  let current = payment;
  if (card.threeDS === 'challenge') {
    expect(current.state).toBe('processing');
    expect(current.next?.redirect).toMatch(/^https:\/\/acs\.sandbox\.test\/challenge\//);
    current = (await h.engine.completeChallenge(await h.challengeAnswer(current.id, 'authorise')))._unsafeUnwrap();
  }
  if (card.timesOut === true) {
    expect(current.state).toBe('processing');
    expect(current.next).toBeUndefined();
    expect((await h.engine.sweep())._unsafeUnwrap().reconciled).toBe(0);
    h.clock.advance(15_000);
    const report = (await h.engine.sweep())._unsafeUnwrap();
    expect(report.reconciled).toBe(1);
    current = (await h.engine.getPayment({ paymentId: current.id, profileId: 'profile_0001' }))._unsafeUnwrap();
  }
  return current;
}

async function expectOutcome(h: EngineHarness, payment: Payment, card: Expectation): Promise<void> {
  expect(payment.state).toBe(card.state);
  expect(payment.next).toBeUndefined();
  if (card.reason !== undefined) expect(payment.failure_reason).toBe(card.reason);
  else expect(payment.failure_reason).toBeUndefined();
  expect(payment.creditcard?.card.scheme).toBe(card.scheme);
  expect(payment.creditcard?.card.last4).toBe(card.number.slice(-4));
  expect(card.number.startsWith(payment.creditcard?.card.bin ?? 'x')).toBe(true);
  if (card.state === 'succeeded') {
    expect(payment.creditcard?.rrn).toMatch(/^\d{12}$/);
    expect(Number.isInteger(payment.creditcard?.fees?.interchange)).toBe(true);
    expect(payment.creditcard?.card.issuing_country).toMatch(/^[A-Z]{2}$/);
  }
  const record = (await h.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
  const expectedFlow = {
    none: 'none',
    frictionless: 'frictionless',
    challenge: 'challenge',
    rejected: 'frictionless',
    unavailable: 'frictionless',
  }[card.threeDS];
  expect(record.threeDS?.flow).toBe(expectedFlow);
  if (card.eci !== undefined) expect(record.threeDS?.eci).toBe(card.eci);
  if (card.threeDS === 'unavailable') expect(record.threeDS).toMatchObject({ transStatus: 'U', liabilityShift: false });
  // The acquirer was asked at most once, and never when 3DS rejected the card.
  expect(h.acquirer.authorizeCalls(payment.id)).toBe(card.threeDS === 'rejected' ? 0 : 1);
  // No card number or CVC anywhere the engine keeps things.
  const stored = JSON.stringify([h.repository.snapshot(), h.events.events(), h.logs, payment]);
  expect(stored).not.toContain(card.number);
}

describe('every sandbox test card through the engine', () => {
  describe.each(CARDS.map((card) => [card.number, card] as const))('%s', (_, card) => {
    it('direct flow', async () => {
      const h = makeEngineHarness();
      const created = await h.engine.createPayment({
        client: compliantClient,
        profileId: 'profile_0001',
        body: directRequest(card.number),
      });
      const payment = await finish(h, created._unsafeUnwrap(), card);
      await expectOutcome(h, payment, card);
    });

    it('hosted flow', async () => {
      const h = makeEngineHarness();
      const created = (
        await h.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: hostedRequest() })
      )._unsafeUnwrap();
      expect(created.state).toBe('processing');
      expect(created.next?.redirect).toContain(`/pay/${created.id}`);
      expect(created.creditcard).toBeUndefined();
      const submitted = await h.engine.submitCard({
        paymentId: created.id,
        token: h.hostedToken(created),
        body: cardSubmission(card.number),
      });
      const payment = await finish(h, submitted._unsafeUnwrap(), card);
      await expectOutcome(h, payment, card);
    });
  });
});

describe('challenge refused', () => {
  it.each(['4000000000003220', '4000000000003238'])(
    '%s: fails with authentication_refused and is never authorized',
    async (number) => {
      const h = makeEngineHarness();
      const created = (
        await h.engine.createPayment({
          client: compliantClient,
          profileId: 'profile_0001',
          body: directRequest(number),
        })
      )._unsafeUnwrap();
      const refused = (await h.engine.completeChallenge(await h.challengeAnswer(created.id, 'refuse')))._unsafeUnwrap();
      expect(refused.state).toBe('failed');
      expect(refused.failure_reason).toBe('authentication_refused');
      expect(h.acquirer.authorizeCalls(created.id)).toBe(0);
      // The card waiting for the challenge is gone from the vault.
      expect(h.cardVault.size()).toBe(0);
    },
  );
});
