import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  SANDBOX_TEST_CARDS,
  createSandboxAcquirer,
  sandboxFees,
  type SandboxAcquirerOptions,
} from '../../adapters/sandbox/index.js';
import type { CardData, CardScheme } from '../../src/domain/card.js';
import type { Result } from 'neverthrow';
import type { AcquirerError, AuthorizationOutcome, AuthorizationRequest } from '../../src/ports/acquirer.js';

// Local on purpose: src/domain/card-number.ts is written elsewhere.
function schemeOf(number: string): CardScheme {
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (number.startsWith('4')) return 'visa';
  throw new Error('unknown scheme');
}

// Distinctive CVCs so that a leak is visible in a JSON dump.
function card(number: string): CardData {
  const scheme = schemeOf(number);
  return {
    number,
    cvc: scheme === 'amex' ? '9182' : '918',
    expiration: '2030-12-01T00:00:00.000Z',
    holderName: 'Jane Doe',
    scheme,
  };
}

function request(number: string, paymentId = 'payment_1', amount = 10_000): AuthorizationRequest {
  return {
    paymentId,
    profileId: 'profile_1',
    amount,
    currency: 'EUR',
    card: card(number),
    threeDS: null,
    authentication: null,
    captureMethod: 'automatic',
  };
}

function sequentialRrn(): () => string {
  let n = 0;
  return () => (n += 1).toString().padStart(12, '0');
}

/** 15-digit scheme trace ids, counted: no random digits in what the tests read. */
function sequentialTraceIds(): () => string {
  let n = 0;
  return () => String(100_000_000_000_000 + (n += 1));
}

function acquirer(options: SandboxAcquirerOptions = { rrn: sequentialRrn() }) {
  return createSandboxAcquirer({ networkTransactionId: sequentialTraceIds(), ...options });
}

describe('sandbox acquirer: authorize', () => {
  it.each(SANDBOX_TEST_CARDS)('$number', async (testCard) => {
    const sandbox = acquirer();
    const outcome = (await sandbox.authorize(request(testCard.number)))._unsafeUnwrap();
    const behaviour = testCard.authorization;
    switch (behaviour.kind) {
      case 'approved':
        expect(outcome).toEqual({
          kind: 'approved',
          rrn: '000000000001',
          responseCode: '00',
          fees: sandboxFees(10_000, { type: testCard.cardType, region: testCard.region }),
          card: { type: testCard.cardType, region: testCard.region, issuingCountry: testCard.issuingCountry },
          networkTransactionId: '100000000000001',
        });
        break;
      case 'declined':
        expect(outcome).toEqual({
          kind: 'declined',
          responseCode: behaviour.responseCode,
          reason: { '05': 'declined', '51': 'insufficient_funds', '54': 'expired_card' }[behaviour.responseCode],
        });
        break;
      case 'timeout_then_approved':
        expect(outcome).toEqual({ kind: 'unknown', detail: expect.stringContaining('time-out') });
        break;
    }
  });

  it('declines the listed cards with their codes and reasons', async () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ['4000000000000002', '05', 'declined'],
      ['4000000000009995', '51', 'insufficient_funds'],
      ['4000000000000069', '54', 'expired_card'],
      ['4000008260003178', '51', 'insufficient_funds'],
    ];
    for (const [number, responseCode, reason] of cases) {
      const outcome = (await acquirer().authorize(request(number)))._unsafeUnwrap();
      expect(outcome).toEqual({ kind: 'declined', responseCode, reason });
    }
  });

  it('approves the commercial card with inter-regional commercial fees, higher than a consumer card', async () => {
    const sandbox = acquirer();
    const commercial = (await sandbox.authorize(request('5200828282828210', 'payment_c')))._unsafeUnwrap();
    const consumer = (await sandbox.authorize(request('5555555555554444', 'payment_d')))._unsafeUnwrap();
    if (commercial.kind !== 'approved' || consumer.kind !== 'approved') throw new Error('expected approvals');
    expect(commercial.card).toEqual({ type: 'commercial', region: 'inter', issuingCountry: 'US' });
    expect(commercial.fees).toEqual({ interchange: 200, assesment: 20 });
    expect(consumer.card).toEqual({ type: 'consumer', region: 'intra', issuingCountry: 'DE' });
    expect(consumer.fees).toEqual({ interchange: 30, assesment: 15 });
    expect(commercial.fees.interchange).toBeGreaterThan(consumer.fees.interchange);
  });

  it('approves any other number as a domestic consumer card', async () => {
    const outcome = (await acquirer().authorize(request('4111111111111111')))._unsafeUnwrap();
    expect(outcome).toMatchObject({
      kind: 'approved',
      responseCode: '00',
      card: { type: 'consumer', region: 'domestic', issuingCountry: 'NL' },
    });
  });

  it('makes 12-digit RRNs by default, and fees as non-negative integers', async () => {
    const sandbox = createSandboxAcquirer();
    const rrns = new Set<string>();
    for (let i = 0; i < 50; i += 1) {
      const outcome = (
        await sandbox.authorize(request('4242424242424242', `payment_${i}`, 1 + i * 997))
      )._unsafeUnwrap();
      if (outcome.kind !== 'approved') throw new Error('expected approved');
      expect(outcome.rrn).toMatch(/^\d{12}$/);
      rrns.add(outcome.rrn);
      for (const fee of [outcome.fees.interchange, outcome.fees.assesment]) {
        expect(Number.isInteger(fee)).toBe(true);
        expect(fee).toBeGreaterThanOrEqual(0);
      }
    }
    expect(rrns.size).toBe(50);
  });

  it('authorizes a payment once: a second call answers the recorded outcome and is counted', async () => {
    const rrn = vi.fn(sequentialRrn());
    const sandbox = acquirer({ rrn });
    const first = (await sandbox.authorize(request('4242424242424242')))._unsafeUnwrap();
    const second = (await sandbox.authorize(request('4242424242424242')))._unsafeUnwrap();
    expect(second).toEqual(first);
    expect(rrn).toHaveBeenCalledTimes(1);
    expect(sandbox.authorizeCalls('payment_1')).toBe(2);
    expect(sandbox.authorizeCalls('payment_2')).toBe(0);
    expect(sandbox.authorizations()).toHaveLength(1);
  });

  it('creates one authorization when two calls for a payment race', async () => {
    const sandbox = acquirer({ rrn: sequentialRrn(), latencyMs: 5 });
    const [a, b] = await Promise.all([
      sandbox.authorize(request('4242424242424242')),
      sandbox.authorize(request('4242424242424242')),
    ]);
    expect(a._unsafeUnwrap()).toEqual(b._unsafeUnwrap());
    expect(sandbox.authorizations()).toHaveLength(1);
    expect(sandbox.authorizeCalls('payment_1')).toBe(2);
  });

  it('never keeps the card number or the CVC', async () => {
    const sandbox = acquirer();
    for (const [i, testCard] of SANDBOX_TEST_CARDS.entries()) {
      await sandbox.authorize(request(testCard.number, `payment_${i}`));
    }
    const log = sandbox.authorizations();
    expect(log).toHaveLength(SANDBOX_TEST_CARDS.length);
    const dump = JSON.stringify(log);
    for (const testCard of SANDBOX_TEST_CARDS) {
      expect(dump).not.toContain(testCard.number);
    }
    expect(dump).not.toContain('918');
    expect(dump).not.toMatch(/cvc/i);
    expect(dump).not.toMatch(/"number"/);
    expect(log[0]).toEqual({
      paymentId: 'payment_0',
      profileId: 'profile_1',
      amount: 10_000,
      currency: 'EUR',
      captureMethod: 'automatic',
      card: { scheme: 'visa', bin: '42424242', last4: '4242' },
      threeDS: null,
      authentication: null,
      outcome: expect.objectContaining({ kind: 'approved' }),
    });
    // 15 digits: 5 of the BIN kept, so 6 stay hidden (binOf).
    expect(log[2]?.card).toEqual({ scheme: 'amex', bin: '37828', last4: '0005' });
  });

  it('receives the 3DS authentication data (decisions.md section 9) and keeps all but the authentication value', async () => {
    const sandbox = acquirer();
    const authenticationValue = 'AAABBEg0VhI0VniQEjRWAAAAAAA=';
    const dsTransactionId = '2f1e0d9c-8b7a-4695-a4b3-c2d1e0f9a8b7';
    await sandbox.authorize({
      ...request('4242424242424242'),
      authentication: { authenticationValue, dsTransactionId, protocolVersion: '2.2.0' },
    });
    const [kept] = sandbox.authorizations();
    expect(kept?.authentication).toEqual({
      authenticationValueReceived: true,
      dsTransactionId,
      protocolVersion: '2.2.0',
    });
    expect(JSON.stringify(sandbox.authorizations())).not.toContain(authenticationValue);
  });
});

describe('sandbox acquirer: inquire', () => {
  it('answers not_found for a payment it never authorized', async () => {
    expect((await acquirer().inquire({ paymentId: 'payment_unknown' }))._unsafeUnwrap()).toEqual({ kind: 'not_found' });
  });

  it('answers the recorded outcome', async () => {
    const sandbox = acquirer();
    const approved = (await sandbox.authorize(request('4242424242424242', 'payment_a')))._unsafeUnwrap();
    const declined = (await sandbox.authorize(request('4000000000009995', 'payment_b')))._unsafeUnwrap();
    expect((await sandbox.inquire({ paymentId: 'payment_a' }))._unsafeUnwrap()).toEqual(approved);
    expect((await sandbox.inquire({ paymentId: 'payment_b' }))._unsafeUnwrap()).toEqual(declined);
  });

  it('times out the first answer for 4000000000000119, then says approved with the same rrn', async () => {
    const sandbox = acquirer();
    const first = (await sandbox.authorize(request('4000000000000119')))._unsafeUnwrap();
    expect(first).toEqual({ kind: 'unknown', detail: expect.stringMatching(/time-out/) });
    const inquired = (await sandbox.inquire({ paymentId: 'payment_1' }))._unsafeUnwrap();
    expect(inquired).toMatchObject({ kind: 'approved', rrn: '000000000001', responseCode: '00' });
    const again = (await sandbox.inquire({ paymentId: 'payment_1' }))._unsafeUnwrap();
    expect(again).toEqual(inquired);
    expect(sandbox.authorizations()[0]?.outcome).toEqual(inquired);
    expect(sandbox.authorizeCalls('payment_1')).toBe(1);
  });
});

describe('sandbox acquirer: fault injection', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('unavailable: the request never arrives, nothing is recorded', async () => {
    const sandbox = acquirer();
    sandbox.failNextAuthorize('unavailable');
    const failed = await sandbox.authorize(request('4242424242424242'));
    expect(failed._unsafeUnwrapErr()).toMatchObject({ code: 'unavailable', retryable: true });
    expect((await sandbox.inquire({ paymentId: 'payment_1' }))._unsafeUnwrap()).toEqual({ kind: 'not_found' });
    expect(sandbox.authorizeCalls('payment_1')).toBe(1);
    expect(sandbox.authorizations()).toEqual([]);
    // The fault is used up.
    expect((await sandbox.authorize(request('4242424242424242', 'payment_2'))).isOk()).toBe(true);
  });

  it('answer_lost: the authorization is made, the answer fails, an inquiry finds it', async () => {
    const sandbox = acquirer();
    sandbox.failNextAuthorize('answer_lost');
    expect((await sandbox.authorize(request('4242424242424242')))._unsafeUnwrapErr().code).toBe('unavailable');
    expect((await sandbox.inquire({ paymentId: 'payment_1' }))._unsafeUnwrap()).toMatchObject({
      kind: 'approved',
      rrn: '000000000001',
    });
  });

  it('hang: the call never settles, but the authorization is made', async () => {
    vi.useFakeTimers();
    const sandbox = acquirer();
    sandbox.failNextAuthorize('hang');
    let settled = false;
    void Promise.resolve(sandbox.authorize(request('4000000000009995'))).then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(settled).toBe(false);
    expect((await sandbox.inquire({ paymentId: 'payment_1' }))._unsafeUnwrap()).toMatchObject({
      kind: 'declined',
      responseCode: '51',
    });
  });

  it('queues faults, one per call', async () => {
    const sandbox = acquirer();
    sandbox.failNextAuthorize('unavailable');
    sandbox.failNextAuthorize('answer_lost');
    expect((await sandbox.authorize(request('4242424242424242', 'payment_a'))).isErr()).toBe(true);
    expect((await sandbox.authorize(request('4242424242424242', 'payment_b'))).isErr()).toBe(true);
    expect((await sandbox.authorize(request('4242424242424242', 'payment_c'))).isOk()).toBe(true);
    expect(sandbox.authorizations().map((entry) => entry.paymentId)).toEqual(['payment_b', 'payment_c']);
  });

  it('failNextInquire makes one inquiry fail', async () => {
    const sandbox = acquirer();
    await sandbox.authorize(request('4242424242424242'));
    sandbox.failNextInquire();
    expect((await sandbox.inquire({ paymentId: 'payment_1' }))._unsafeUnwrapErr()).toMatchObject({
      code: 'unavailable',
      retryable: true,
    });
    const outcome: AuthorizationOutcome | { kind: 'not_found' } = (
      await sandbox.inquire({ paymentId: 'payment_1' })
    )._unsafeUnwrap();
    expect(outcome.kind).toBe('approved');
  });

  it('answers at once, as a plain Result, when no latency is simulated', () => {
    const sandbox = acquirer({ rrn: sequentialRrn() });
    const answer = sandbox.authorize(request('4242424242424242'));
    expect(typeof (answer as { then?: unknown }).then).toBe('undefined');
    expect((answer as Result<AuthorizationOutcome, AcquirerError>)._unsafeUnwrap().kind).toBe('approved');
    const inquiry = sandbox.inquire({ paymentId: 'payment_1' });
    expect(typeof (inquiry as { then?: unknown }).then).toBe('undefined');
  });

  it('waits latencyMs before answering', async () => {
    vi.useFakeTimers();
    const sandbox = acquirer({ rrn: sequentialRrn(), latencyMs: 200 });
    let settled = false;
    const pending = Promise.resolve(sandbox.authorize(request('4242424242424242'))).then((result) => {
      settled = true;
      return result;
    });
    await vi.advanceTimersByTimeAsync(199);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).isOk()).toBe(true);
  });
});
