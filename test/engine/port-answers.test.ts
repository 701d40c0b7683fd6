import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SANDBOX_TEST_CARDS,
  createChallengeResponse,
  createSandboxAcquirer,
  createSandboxThreeDSProvider,
} from '../../adapters/sandbox/index.js';
import type { CardData } from '../../src/domain/card.js';
import type { AuthorizationRequest } from '../../src/ports/acquirer.js';
import { detectScheme } from '../../src/domain/card-number.js';
import {
  checkAuthenticationResult,
  checkAuthorizationOutcome,
  checkChallengeResult,
  checkInquiryOutcome,
} from '../../src/engine/port-answers.js';
import { APPROVED_ANSWER as APPROVED, THREE_DS_TRANSACTION_ID as TX } from '../support/port-answers.js';
import { NUM_RUNS } from '../support/property-runs.js';
import { browser } from '../support/requests.js';

// The checks behind malformed-port-answers.test.ts, on their own: what they take, the value they
// give back (built from what they read, nothing more), and that every answer of the sandbox
// simulators, for every test card, passes them.

describe('checkAuthorizationOutcome', () => {
  it('gives a well-formed answer back as a fresh value, without what it does not know', () => {
    const answer = {
      ...APPROVED,
      pan: '4242424242424242',
      fees: { ...APPROVED.fees, extra: 1 },
      card: { ...APPROVED.card, bin: '42424242' },
    };
    const checked = checkAuthorizationOutcome(answer)._unsafeUnwrap();
    expect(checked).toEqual(APPROVED);
    expect(checked).not.toBe(answer);
    const declined = { kind: 'declined', responseCode: '51', reason: 'insufficient_funds', note: 'x' } as const;
    expect(checkAuthorizationOutcome(declined)._unsafeUnwrap()).toEqual({
      kind: 'declined',
      responseCode: '51',
      reason: 'insufficient_funds',
    });
    expect(checkAuthorizationOutcome({ kind: 'unknown', detail: 'issuer time-out' })._unsafeUnwrap()).toEqual({
      kind: 'unknown',
      detail: 'issuer time-out',
    });
  });

  it.each([
    ['Z', 'rrn of 1 letter'],
    ['ABCDEF123456', 'rrn of 12 letters and digits'],
  ])('takes %s (%s)', (rrn) => {
    expect(checkAuthorizationOutcome({ ...APPROVED, rrn }).isOk()).toBe(true);
  });

  it('takes fees of 0 and of the largest safe integer, and response codes of letters', () => {
    expect(checkAuthorizationOutcome({ ...APPROVED, fees: { interchange: 0, assesment: 2 ** 53 - 1 } }).isOk()).toBe(
      true,
    );
    expect(checkAuthorizationOutcome({ ...APPROVED, responseCode: 'A1' }).isOk()).toBe(true);
  });

  it('reads each field once: a getter cannot pass the check with one value and be kept with another', () => {
    let reads = 0;
    const answer = Object.defineProperty({ ...APPROVED }, 'rrn', {
      enumerable: true,
      get: () => (reads++ === 0 ? '000000000042' : '4242424242424242'),
    });
    expect(checkAuthorizationOutcome(answer)._unsafeUnwrap()).toEqual(APPROVED);
    expect(reads).toBe(1);
  });

  it('names the field and the problem, never the value', () => {
    const problem = checkAuthorizationOutcome({ ...APPROVED, rrn: '4242424242424242' })._unsafeUnwrapErr();
    expect(problem).toEqual({ field: 'rrn', problem: expect.any(String) });
    expect(JSON.stringify(problem)).not.toMatch(/4242/);
  });

  it('refuses the card number of the request in rrn, even one of 12 digits that fits the rule', () => {
    const pan = '500000000124';
    expect(checkAuthorizationOutcome({ ...APPROVED, rrn: pan }).isOk()).toBe(true);
    expect(checkAuthorizationOutcome({ ...APPROVED, rrn: pan }, pan)._unsafeUnwrapErr()).toEqual({
      field: 'rrn',
      problem: 'holds the card number',
    });
  });

  it('does not take not_found, which only an inquiry answers; checkInquiryOutcome does', () => {
    expect(checkAuthorizationOutcome({ kind: 'not_found' })._unsafeUnwrapErr().field).toBe('kind');
    expect(checkInquiryOutcome({ kind: 'not_found' })._unsafeUnwrap()).toEqual({ kind: 'not_found' });
    expect(checkInquiryOutcome({ ...APPROVED, rrn: '' })._unsafeUnwrapErr().field).toBe('rrn');
  });
});

describe('checkAuthenticationResult and checkChallengeResult', () => {
  it('give well-formed answers back as fresh values', () => {
    const answers = [
      { kind: 'not_required' },
      { kind: 'authenticated', transStatus: 'A', eci: '06', transactionId: TX },
      { kind: 'challenge', reason: 'data_mismatch', transactionId: TX, challengeUrl: 'https://acs.example/c' },
      { kind: 'rejected', transStatus: 'N', transactionId: TX },
      { kind: 'unavailable', transStatus: 'U', transactionId: TX },
    ] as const;
    for (const answer of answers) {
      expect(checkAuthenticationResult({ ...answer, cardNumber: '4242424242424242' })._unsafeUnwrap()).toEqual(answer);
    }
    expect(checkChallengeResult({ kind: 'accepted', transStatus: 'Y', eci: '02', x: 1 })._unsafeUnwrap()).toEqual({
      kind: 'accepted',
      transStatus: 'Y',
      eci: '02',
    });
    expect(checkChallengeResult({ kind: 'refused', transStatus: 'N' })._unsafeUnwrap()).toEqual({
      kind: 'refused',
      transStatus: 'N',
    });
  });

  it.each([
    ['javascript:alert(1)', 'is not https (http only for localhost and loopback addresses)'],
    ['http://evil.example/', 'is not https (http only for localhost and loopback addresses)'],
    ['https://a@evil.example/', 'holds a user name or password'],
    ['/acs', 'is not an absolute URL'],
    [`https://acs.example/${'a'.repeat(2030)}`, 'is longer than 2048 characters'],
  ])('refuses the challenge URL %s: %s', (challengeUrl, why) => {
    const answer = { kind: 'challenge', reason: 'challenge_required', transactionId: TX, challengeUrl };
    expect(checkAuthenticationResult(answer)._unsafeUnwrapErr()).toEqual({ field: 'challengeUrl', problem: why });
  });

  it('refuses the card number of the request in the challenge URL', () => {
    const pan = '4000000000003220';
    const challengeUrl = `https://acs.example/c?pan=${pan}`;
    const answer = { kind: 'challenge', reason: 'challenge_required', transactionId: TX, challengeUrl };
    expect(checkAuthenticationResult(answer).isOk()).toBe(true);
    expect(checkAuthenticationResult(answer, pan)._unsafeUnwrapErr()).toEqual({
      field: 'challengeUrl',
      problem: 'holds the card number',
    });
  });

  it('takes a challenge URL of exactly 2048 characters, and http on loopback', () => {
    for (const challengeUrl of [
      `https://acs.example/${'a'.repeat(2048 - 20)}`,
      'http://127.0.0.1:3000/sandbox/issuer/challenge/p/t',
      'http://[::1]/acs',
      'http://localhost/acs',
    ]) {
      const answer = { kind: 'challenge', reason: 'challenge_required', transactionId: TX, challengeUrl };
      expect(checkAuthenticationResult(answer).isOk(), challengeUrl).toBe(true);
    }
  });
});

describe('the sandbox simulators answer what the checks take, for every test card', () => {
  const cardOf = (number: string): CardData => {
    const scheme = detectScheme(number);
    if (scheme === null) throw new Error(`no scheme for ${number}`);
    return {
      number,
      cvc: scheme === 'amex' ? '1234' : '123',
      expiration: '2030-12-01T00:00:00.000Z',
      holderName: 'Ada Lovelace',
      scheme,
    };
  };

  it.each(SANDBOX_TEST_CARDS.map((card) => [card.number]))('%s', async (number) => {
    const acquirer = createSandboxAcquirer();
    const paymentId = `payment_${number}`;
    const card = cardOf(number);
    const request: AuthorizationRequest = {
      paymentId,
      profileId: 'profile_1',
      amount: 999_999_999_999,
      currency: 'EUR',
      card,
      threeDS: null,
      authentication: null,
      captureMethod: 'automatic',
    };
    const authorized = (await acquirer.authorize(request))._unsafeUnwrap();
    expect(checkAuthorizationOutcome(authorized)._unsafeUnwrap()).toEqual(authorized);
    const inquired = (await acquirer.inquire({ paymentId }))._unsafeUnwrap();
    expect(checkInquiryOutcome(inquired)._unsafeUnwrap()).toEqual(inquired);

    // The sandbox's own transaction ids (its default) and its issuer page on http://127.0.0.1.
    const secret = 'sandbox-secret';
    const threeDS = createSandboxThreeDSProvider({
      secret,
      challengeUrl: (id, tx) => `http://127.0.0.1:3000/sandbox/issuer/challenge/${id}/${tx}`,
    });
    const authentication = (await threeDS.authenticate({ ...request, browser }))._unsafeUnwrap();
    expect(checkAuthenticationResult(authentication)._unsafeUnwrap()).toEqual(authentication);
    if (authentication.kind !== 'challenge') return;
    for (const decision of ['authorise', 'refuse'] as const) {
      const fresh = createSandboxThreeDSProvider({ secret, challengeUrl: () => 'https://acs.example/' });
      const started = (await fresh.authenticate({ ...request, browser }))._unsafeUnwrap();
      if (started.kind !== 'challenge') throw new Error('expected a challenge');
      const { transactionId } = started;
      const cres = createChallengeResponse({ secret, paymentId, transactionId, decision });
      const result = (await fresh.resolveChallenge({ paymentId, transactionId, cres }))._unsafeUnwrap();
      expect(checkChallengeResult(result)._unsafeUnwrap()).toEqual(result);
    }
  });
});

describe('any answer at all', () => {
  it('never makes a check throw', () => {
    const checks = [checkAuthorizationOutcome, checkInquiryOutcome, checkAuthenticationResult, checkChallengeResult];
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true }), (answer) => {
        for (const check of checks) {
          const checked = check(answer);
          if (checked.isErr())
            expect(checked.error).toEqual({ field: expect.any(String), problem: expect.any(String) });
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
