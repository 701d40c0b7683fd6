import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  SANDBOX_TEST_CARDS,
  createChallengeResponse,
  createSandboxThreeDSProvider,
  eciFor,
  type SandboxThreeDSOptions,
} from '../../adapters/sandbox/index.js';
import type { CardData, CardScheme } from '../../src/domain/card.js';
import { CARD_SCHEMES } from '../../src/domain/card.js';
import type { BrowserData } from '../../src/domain/contact.js';
import type { Result } from 'neverthrow';
import type {
  AuthenticationRequest,
  AuthenticationResult,
  ChallengeResult,
  ThreeDSError,
} from '../../src/ports/three-ds-provider.js';

const secret = 'test-secret';

// Local on purpose: src/domain/card-number.ts is written elsewhere.
function schemeOf(number: string): CardScheme {
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (number.startsWith('4')) return 'visa';
  throw new Error('unknown scheme');
}

function card(number: string, scheme: CardScheme = schemeOf(number)): CardData {
  return {
    number,
    cvc: scheme === 'amex' ? '7373' : '737',
    expiration: '2030-12-01T00:00:00.000Z',
    holderName: 'Jane Doe',
    scheme,
  };
}

const browser: BrowserData = {
  ip_address: '192.0.2.10',
  user_agent: 'Mozilla/5.0',
  accept: 'text/html',
  accept_encoding: 'gzip',
  accept_language: 'en-GB',
  language: 'en-GB',
  screen_width: 1280,
  screen_height: 800,
  java_enabled: false,
  javascript_enabled: true,
  color_depth: 24,
  timezone_offset: -60,
};

function request(number: string, paymentId = 'payment_1', scheme?: CardScheme): AuthenticationRequest {
  return { paymentId, profileId: 'profile_1', amount: 1_000, currency: 'EUR', card: card(number, scheme), browser };
}

function sequentialIds(): () => string {
  let n = 0;
  return () => `threeds_${(n += 1).toString(16).padStart(32, '0')}`;
}

function provider(overrides: Partial<SandboxThreeDSOptions> = {}) {
  return createSandboxThreeDSProvider({
    challengeUrl: (paymentId, transactionId) => `https://issuer.test/challenge/${paymentId}/${transactionId}`,
    secret,
    transactionId: sequentialIds(),
    ...overrides,
  });
}

async function authenticate(
  threeDS: ReturnType<typeof provider>,
  req: AuthenticationRequest,
): Promise<AuthenticationResult> {
  return (await threeDS.authenticate(req))._unsafeUnwrap();
}

async function startChallenge(threeDS: ReturnType<typeof provider>, paymentId = 'payment_1') {
  const result = await authenticate(threeDS, request('4000000000003220', paymentId));
  if (result.kind !== 'challenge') throw new Error(`expected a challenge, got ${result.kind}`);
  return result.transactionId;
}

function cres(paymentId: string, transactionId: string, decision: 'authorise' | 'refuse' = 'authorise'): string {
  return createChallengeResponse({ secret, paymentId, transactionId, decision });
}

const firstId = `threeds_${'1'.padStart(32, '0')}`;

/** What the simulated DS gives with an authentication (decisions.md section 9): a fresh DS transaction id, version 2.2.0. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const directory = { dsTransactionId: expect.stringMatching(UUID_V4), protocolVersion: '2.2.0' };
/** A CAVV: 20 bytes in base64. */
const CAVV = /^[A-Za-z0-9+/]{27}=$/;

describe('sandbox 3DS provider: authenticate', () => {
  const expectedByNumber: Record<string, unknown> = {
    '4000000000003055': {
      kind: 'authenticated',
      transStatus: 'Y',
      eci: '05',
      transactionId: firstId,
      authenticationValue: expect.stringMatching(CAVV),
      ...directory,
    },
    '4000000000003238': {
      kind: 'challenge',
      reason: 'data_mismatch',
      transactionId: firstId,
      challengeUrl: `https://issuer.test/challenge/payment_1/${firstId}`,
    },
    '4000000000003220': {
      kind: 'challenge',
      reason: 'challenge_required',
      transactionId: firstId,
      challengeUrl: `https://issuer.test/challenge/payment_1/${firstId}`,
    },
    '4000008260003178': {
      kind: 'challenge',
      reason: 'challenge_required',
      transactionId: firstId,
      challengeUrl: `https://issuer.test/challenge/payment_1/${firstId}`,
    },
    '4000000000003287': { kind: 'rejected', transStatus: 'R', transactionId: firstId },
    '4000000000003311': { kind: 'unavailable', transStatus: 'U', transactionId: firstId, ...directory },
  };

  it.each(SANDBOX_TEST_CARDS)('$number ($threeDS)', async (testCard) => {
    const result = await authenticate(provider(), request(testCard.number));
    expect(result).toEqual(expectedByNumber[testCard.number] ?? { kind: 'not_required' });
    expect(testCard.threeDS === 'not_required').toBe(result.kind === 'not_required');
  });

  it('needs no 3DS for a number outside the table', async () => {
    expect(await authenticate(provider(), request('4111111111111111'))).toEqual({ kind: 'not_required' });
    expect(await authenticate(provider(), request('5454545454545454'))).toEqual({ kind: 'not_required' });
  });

  it('uses the ECI of the card scheme', async () => {
    const expected: Record<CardScheme, string> = {
      visa: '05',
      amex: '05',
      jcb: '05',
      diners: '05',
      discover: '05',
      unionpay: '05',
      mastercard: '02',
      maestro: '02',
    };
    for (const scheme of CARD_SCHEMES) {
      expect(eciFor(scheme, 'Y')).toBe(expected[scheme]);
      // The frictionless test number, presented as another scheme: the provider reads the scheme from the card.
      const result = await authenticate(provider(), request('4000000000003055', 'payment_1', scheme));
      expect(result).toMatchObject({ kind: 'authenticated', transStatus: 'Y', eci: expected[scheme] });
    }
    expect(eciFor('visa', 'A')).toBe('06');
    expect(eciFor('mastercard', 'A')).toBe('01');
  });

  it('gives the "no authentication" ECI of the scheme for N, R and U', () => {
    for (const scheme of CARD_SCHEMES) {
      const none = scheme === 'mastercard' || scheme === 'maestro' ? '00' : '07';
      for (const transStatus of ['N', 'R', 'U'] as const) expect(eciFor(scheme, transStatus)).toBe(none);
      expect(eciFor(scheme, 'A')).toBe(scheme === 'mastercard' || scheme === 'maestro' ? '01' : '06');
    }
  });

  // EMV 3DS transaction ids (threeDSServerTransID, acsTransID, dsTransID) are RFC 4122 UUIDs,
  // 36 characters; the sandbox made `threeds_` and 32 hex digits, which no 3DS server sends.
  it('makes random UUIDs (version 4) as transaction ids by default, as EMV 3DS does', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const threeDS = createSandboxThreeDSProvider({ challengeUrl: () => 'https://issuer.test', secret });
    const first = await authenticate(threeDS, request('4000000000003055'));
    const second = await authenticate(threeDS, request('4000000000003055', 'payment_2'));
    const challenged = await authenticate(threeDS, request('4000000000003220', 'payment_3'));
    for (const result of [first, second, challenged]) {
      expect(result).toMatchObject({ transactionId: expect.stringMatching(uuid) });
    }
    expect(first).not.toEqual(second);
    if (challenged.kind !== 'challenge') throw new Error('expected a challenge');
    expect((await threeDS.challenge('payment_3', challenged.transactionId))._unsafeUnwrap()?.status).toBe('pending');
  });

  it('refuses an empty secret', () => {
    expect(() => createSandboxThreeDSProvider({ challengeUrl: () => '', secret: '' })).toThrow(TypeError);
  });

  it('remembers the challenge without the card number or CVC', async () => {
    const threeDS = provider();
    const transactionId = await startChallenge(threeDS);
    const challenge = (await threeDS.challenge('payment_1', transactionId))._unsafeUnwrap();
    expect(challenge).toEqual({
      paymentId: 'payment_1',
      transactionId,
      reason: 'challenge_required',
      amount: 1_000,
      currency: 'EUR',
      scheme: 'visa',
      last4: '3220',
      ...directory,
      status: 'pending',
    });
    const dump = JSON.stringify(challenge);
    expect(dump).not.toContain('4000000000003220');
    expect(dump).not.toContain('737');
    expect((await threeDS.challenge('payment_1', 'threeds_other'))._unsafeUnwrap()).toBeNull();
    expect((await threeDS.challenge('payment_2', transactionId))._unsafeUnwrap()).toBeNull();
  });
});

describe('sandbox 3DS provider: resolveChallenge', () => {
  it('accepts an authorised challenge with transStatus Y and the scheme ECI', async () => {
    const threeDS = provider();
    const transactionId = await startChallenge(threeDS);
    const result = await threeDS.resolveChallenge({
      paymentId: 'payment_1',
      transactionId,
      cres: cres('payment_1', transactionId),
    });
    const started = (await threeDS.challenge('payment_1', transactionId))._unsafeUnwrap();
    expect(result._unsafeUnwrap()).toEqual({
      kind: 'accepted',
      transStatus: 'Y',
      eci: '05',
      authenticationValue: expect.stringMatching(CAVV),
      dsTransactionId: started?.dsTransactionId,
      protocolVersion: '2.2.0',
    });
    expect(started?.status).toBe('authorised');
  });

  it('accepts a challenge after a frictionless data mismatch, with the mastercard ECI for a mastercard', async () => {
    const threeDS = provider();
    const started = await authenticate(threeDS, request('4000000000003238', 'payment_1', 'mastercard'));
    if (started.kind !== 'challenge') throw new Error('expected a challenge');
    const { transactionId } = started;
    const result = await threeDS.resolveChallenge({
      paymentId: 'payment_1',
      transactionId,
      cres: cres('payment_1', transactionId),
    });
    expect(result._unsafeUnwrap()).toMatchObject({ kind: 'accepted', transStatus: 'Y', eci: '02', ...directory });
  });

  it('reads a refused challenge as transStatus N', async () => {
    const threeDS = provider();
    const transactionId = await startChallenge(threeDS);
    const result = await threeDS.resolveChallenge({
      paymentId: 'payment_1',
      transactionId,
      cres: cres('payment_1', transactionId, 'refuse'),
    });
    expect(result._unsafeUnwrap()).toEqual({ kind: 'refused', transStatus: 'N' });
    expect((await threeDS.challenge('payment_1', transactionId))._unsafeUnwrap()?.status).toBe('refused');
  });

  async function expectInvalid(
    threeDS: ReturnType<typeof provider>,
    req: { paymentId: string; transactionId: string; cres: string },
  ): Promise<void> {
    const result = await threeDS.resolveChallenge(req);
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'invalid_challenge', retryable: false });
  }

  it('refuses a result made for another payment', async () => {
    const threeDS = provider();
    const first = await startChallenge(threeDS, 'payment_1');
    const second = await startChallenge(threeDS, 'payment_2');
    await expectInvalid(threeDS, { paymentId: 'payment_1', transactionId: first, cres: cres('payment_2', first) });
    // A valid result of payment_2, presented for payment_1 with payment_2's transaction.
    await expectInvalid(threeDS, { paymentId: 'payment_1', transactionId: second, cres: cres('payment_1', second) });
    // Both challenges are still pending and resolvable with their own results.
    expect((await threeDS.challenge('payment_1', first))._unsafeUnwrap()?.status).toBe('pending');
    const ok = await threeDS.resolveChallenge({
      paymentId: 'payment_2',
      transactionId: second,
      cres: cres('payment_2', second),
    });
    expect(ok.isOk()).toBe(true);
  });

  it('refuses a result made for another transaction', async () => {
    const threeDS = provider();
    const transactionId = await startChallenge(threeDS);
    await expectInvalid(threeDS, { paymentId: 'payment_1', transactionId, cres: cres('payment_1', 'threeds_other') });
    await expectInvalid(threeDS, {
      paymentId: 'payment_1',
      transactionId: 'threeds_other',
      cres: cres('payment_1', 'threeds_other'),
    });
  });

  it('refuses a tampered signature', async () => {
    const threeDS = provider();
    const transactionId = await startChallenge(threeDS);
    const valid = cres('payment_1', transactionId);
    const last = valid.at(-1) === 'A' ? 'B' : 'A';
    await expectInvalid(threeDS, { paymentId: 'payment_1', transactionId, cres: `${valid.slice(0, -1)}${last}` });
    const foreign = createChallengeResponse({
      secret: 'other',
      paymentId: 'payment_1',
      transactionId,
      decision: 'authorise',
    });
    await expectInvalid(threeDS, { paymentId: 'payment_1', transactionId, cres: foreign });
    await expectInvalid(threeDS, { paymentId: 'payment_1', transactionId, cres: 'garbage' });
  });

  it('answers a re-posted result the same way, and refuses the other decision once resolved', async () => {
    const threeDS = provider();
    const transactionId = await startChallenge(threeDS);
    const refused = cres('payment_1', transactionId, 'refuse');
    const first = await threeDS.resolveChallenge({ paymentId: 'payment_1', transactionId, cres: refused });
    const again = await threeDS.resolveChallenge({ paymentId: 'payment_1', transactionId, cres: refused });
    expect(first._unsafeUnwrap()).toEqual({ kind: 'refused', transStatus: 'N' });
    expect(again._unsafeUnwrap()).toEqual(first._unsafeUnwrap());
    await expectInvalid(threeDS, { paymentId: 'payment_1', transactionId, cres: cres('payment_1', transactionId) });
    expect((await threeDS.challenge('payment_1', transactionId))._unsafeUnwrap()?.status).toBe('refused');
  });

  it('refuses a transaction this provider never started', async () => {
    const threeDS = provider();
    await expectInvalid(threeDS, { paymentId: 'payment_1', transactionId: firstId, cres: cres('payment_1', firstId) });
    // Frictionless transactions are not challenges.
    const frictionless = await authenticate(threeDS, request('4000000000003055'));
    if (frictionless.kind !== 'authenticated') throw new Error('expected authenticated');
    const { transactionId } = frictionless;
    await expectInvalid(threeDS, { paymentId: 'payment_1', transactionId, cres: cres('payment_1', transactionId) });
    // Another provider instance (same secret) did not start it either.
    const elsewhere = provider();
    const started = await startChallenge(elsewhere);
    await expectInvalid(provider(), {
      paymentId: 'payment_1',
      transactionId: started,
      cres: cres('payment_1', started),
    });
  });

  it('keeps every transaction of a payment on its own, like a real 3DS server', async () => {
    const threeDS = provider();
    const earlier = await startChallenge(threeDS);
    const later = await startChallenge(threeDS);
    expect(later).not.toBe(earlier);
    for (const transactionId of [earlier, later]) {
      const result = await threeDS.resolveChallenge({
        paymentId: 'payment_1',
        transactionId,
        cres: cres('payment_1', transactionId),
      });
      expect(result.isOk()).toBe(true);
      // Each is resolved once: the other decision is refused afterwards.
      await expectInvalid(threeDS, {
        paymentId: 'payment_1',
        transactionId,
        cres: cres('payment_1', transactionId, 'refuse'),
      });
    }
  });
});

describe('sandbox 3DS provider: fault injection', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers with the error the failWith hook returns, and records nothing', async () => {
    let failing = true;
    const threeDS = provider({
      failWith: (call) =>
        failing
          ? { code: 'unavailable', message: `${call.operation} for ${call.paymentId}`, retryable: true }
          : undefined,
    });
    const failed = await threeDS.authenticate(request('4000000000003220'));
    expect(failed._unsafeUnwrapErr()).toEqual({
      code: 'unavailable',
      message: 'authenticate for payment_1',
      retryable: true,
    });
    failing = false;
    const transactionId = await startChallenge(threeDS);
    expect(transactionId).toBe(firstId);
    failing = true;
    const valid = cres('payment_1', transactionId);
    const resolveFailed = await threeDS.resolveChallenge({ paymentId: 'payment_1', transactionId, cres: valid });
    expect(resolveFailed._unsafeUnwrapErr().code).toBe('unavailable');
    failing = false;
    expect((await threeDS.resolveChallenge({ paymentId: 'payment_1', transactionId, cres: valid })).isOk()).toBe(true);
  });

  it('answers at once, as a plain Result, when no latency is simulated', async () => {
    const threeDS = provider();
    const answer = threeDS.authenticate(request('4242424242424242'));
    expect(typeof (answer as { then?: unknown }).then).toBe('undefined');
    expect((answer as Result<AuthenticationResult, ThreeDSError>)._unsafeUnwrap()).toEqual({ kind: 'not_required' });
    const transactionId = await startChallenge(threeDS);
    const resolved = threeDS.resolveChallenge({
      paymentId: 'payment_1',
      transactionId,
      cres: cres('payment_1', transactionId),
    });
    expect(typeof (resolved as { then?: unknown }).then).toBe('undefined');
    expect((resolved as Result<ChallengeResult, ThreeDSError>)._unsafeUnwrap().kind).toBe('accepted');
  });

  it('waits latencyMs before answering', async () => {
    vi.useFakeTimers();
    const threeDS = provider({ latencyMs: 500 });
    let settled = false;
    const pending = Promise.resolve(threeDS.authenticate(request('4242424242424242'))).then((result) => {
      settled = true;
      return result;
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending)._unsafeUnwrap()).toEqual({ kind: 'not_required' });
  });
});
