import fc from 'fast-check';
import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES } from '../../src/domain/country.js';
import { FAILURE_REASONS } from '../../src/domain/failure-reason.js';
import type { PaymentRecord } from '../../src/index.js';
import type { InquiryOutcome } from '../../src/ports/acquirer.js';
import type { ChallengeResult } from '../../src/ports/three-ds-provider.js';
import { compliantClient, makeEngineHarness, type EngineHarness } from '../support/engine-harness.js';
import { CHALLENGE_CARD, createDirect, PROFILE, SECOND, stored, VISA } from '../support/engine-helpers.js';
import {
  APPROVED_ANSWER as APPROVED,
  authenticateAnswers,
  authorizeAnswers,
  CHALLENGE_ANSWER as CHALLENGE,
  everythingKept,
  THREE_DS_TRANSACTION_ID as TX,
  untyped,
} from '../support/port-answers.js';
import { NUM_RUNS } from '../support/property-runs.js';
import { directRequest } from '../support/requests.js';

// Acquirer and 3DS adapters are written by hosts, so the engine checks what they answer
// (src/engine/port-answers.ts, docs/ports.md). A malformed answer counts as a failure of the same
// call: for `authorize` an unknown outcome (reconciled by inquiry, never authorized twice), for
// `inquire` a failed inquiry (asked again on the schedule), for `authenticate` and
// `resolveChallenge` their failure. It is logged at error level, naming the field but never its
// value, and nothing of it is stored, put in an event or sent to the browser as `next.redirect`.

/** The card of every direct payment here: it must never show up in a record, an event or a log. */
const PAN = VISA;

const DECLINED = { kind: 'declined', responseCode: '05', reason: 'declined' } as const;

/** An approval whose `rrn` throws when read (a getter of a hostile or broken adapter). */
const throwingApproval = Object.defineProperty({ ...APPROVED }, 'rrn', {
  enumerable: true,
  get: () => {
    throw new Error(`cannot read ${PAN}`);
  },
});

/** Malformed answers of the acquirer (to `authorize` and to `inquire`), and the field the log must name. */
const MALFORMED_ACQUIRER_ANSWERS: ReadonlyArray<readonly [what: string, answer: unknown, field: string]> = [
  ['a card number as rrn', { ...APPROVED, rrn: PAN }, 'rrn'],
  ['an empty rrn', { ...APPROVED, rrn: '' }, 'rrn'],
  ['an rrn of 13 characters', { ...APPROVED, rrn: '0000000000042' }, 'rrn'],
  ['an rrn with a space', { ...APPROVED, rrn: '00000 00042' }, 'rrn'],
  ['an rrn that is a number', { ...APPROVED, rrn: 42 }, 'rrn'],
  ['a response code of 3 characters', { ...APPROVED, responseCode: '000' }, 'responseCode'],
  ['no response code', { ...APPROVED, responseCode: undefined }, 'responseCode'],
  ['an interchange of NaN', { ...APPROVED, fees: { interchange: Number.NaN, assesment: 2 } }, 'fees.interchange'],
  ['a negative assessment', { ...APPROVED, fees: { interchange: 6, assesment: -1 } }, 'fees.assesment'],
  ['a fractional interchange', { ...APPROVED, fees: { interchange: 1.5, assesment: 2 } }, 'fees.interchange'],
  [
    'an interchange past safe integers',
    { ...APPROVED, fees: { interchange: 2 ** 53, assesment: 2 } },
    'fees.interchange',
  ],
  ['an infinite assessment', { ...APPROVED, fees: { interchange: 6, assesment: Infinity } }, 'fees.assesment'],
  ['fees as strings', { ...APPROVED, fees: { interchange: '6', assesment: '2' } }, 'fees.interchange'],
  ['no fees', { ...APPROVED, fees: null }, 'fees'],
  ['an unknown card type', { ...APPROVED, card: { ...APPROVED.card, type: 'platinum' } }, 'card.type'],
  ['an unknown card region', { ...APPROVED, card: { ...APPROVED.card, region: 'moon' } }, 'card.region'],
  ['a lower-case country', { ...APPROVED, card: { ...APPROVED.card, issuingCountry: 'nl' } }, 'card.issuingCountry'],
  [
    'a country no one was assigned',
    { ...APPROVED, card: { ...APPROVED.card, issuingCountry: 'UK' } },
    'card.issuingCountry',
  ],
  ['an alpha-3 country', { ...APPROVED, card: { ...APPROVED.card, issuingCountry: 'NLD' } }, 'card.issuingCountry'],
  ['no card details', { ...APPROVED, card: undefined }, 'card'],
  ['a decline with an unknown reason', { ...DECLINED, reason: 'stolen_card' }, 'reason'],
  ['a decline with a reason that is an object', { ...DECLINED, reason: { code: 'declined' } }, 'reason'],
  ['a decline with a card number as response code', { ...DECLINED, responseCode: PAN }, 'responseCode'],
  ['an unknown kind', { kind: 'partially_approved', rrn: PAN }, 'kind'],
  ['no kind', { rrn: '000000000042' }, 'kind'],
  ['an unknown outcome without its detail', { kind: 'unknown' }, 'detail'],
  ['ok(undefined)', undefined, 'answer'],
  ['ok(null)', null, 'answer'],
  ['a string', 'approved', 'answer'],
  ['an approval whose rrn throws when read', throwingApproval, 'answer'],
];

/** The answers `authorize` must not give but `inquire` may. */
const NOT_FOR_AUTHORIZE: ReadonlyArray<readonly [what: string, answer: unknown, field: string]> = [
  ['not_found, which only an inquiry answers', { kind: 'not_found' }, 'kind'],
];

/** The one error line a malformed answer makes: port, field and problem, for this payment. */
function expectMalformedLogged(h: EngineHarness, paymentId: string, port: string, field: string): void {
  const lines = h.logs.filter((log) => log.level === 'error' && log.fields['paymentId'] === paymentId);
  expect(lines.map((line) => ({ port: line.fields['port'], field: line.fields['field'] }))).toEqual([{ port, field }]);
  expect(lines[0]?.fields['problem']).toEqual(expect.any(String));
  expect(lines[0]?.message).toMatch(/malformed/);
  expect(h.logs.some((log) => log.message === 'engine defect')).toBe(false);
}

/** A direct payment whose `authenticate` answers `answer`: created (whatever became of it), as the API shows it. */
async function authenticatedWith(h: EngineHarness, answer: unknown) {
  authenticateAnswers(h, answer);
  const created = await h.engine.createPayment({
    client: compliantClient,
    profileId: PROFILE,
    body: directRequest(PAN),
  });
  expect(created.isOk()).toBe(true);
  return created._unsafeUnwrap();
}

/** A direct payment whose `authorize` answers `answer`; the sandbox acquirer still decides (and records) it. */
async function authorizedWith(h: EngineHarness, answer: unknown) {
  authorizeAnswers(h, answer);
  return h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: directRequest(PAN) });
}

describe('authorize answers something malformed: an unknown outcome, reconciled by inquiry', () => {
  it.each([...MALFORMED_ACQUIRER_ANSWERS, ...NOT_FOR_AUTHORIZE])('%s', async (_, answer, field) => {
    const h = makeEngineHarness();
    const created = await authorizedWith(h, answer);
    expect(created.isOk()).toBe(true);
    const payment = created._unsafeUnwrap();
    expect(payment.state).toBe('processing');
    expect(payment.next).toBeUndefined();
    expect(payment.failure_reason).toBeUndefined();
    expect(payment.creditcard?.rrn).toBeUndefined();
    expect(await stored(h, payment.id)).toMatchObject({
      state: 'authorizing',
      authorizationStatus: 'unknown',
      inquiryAttempts: 1,
      nextInquiryAt: h.clock.now() + 10 * SECOND,
      authorization: null,
      failureReason: null,
    });
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
    expectMalformedLogged(h, payment.id, 'acquirer.authorize', field);

    // The sweeper's inquiry finds what the acquirer decided; nothing is authorized again.
    h.clock.advance(10 * SECOND);
    expect((await h.engine.sweep())._unsafeUnwrap()).toMatchObject({ reconciled: 1, errors: 0 });
    const reconciled = await stored(h, payment.id);
    expect(reconciled.state).toBe('succeeded');
    expect(reconciled.authorization?.rrn).toMatch(/^\d{12}$/);
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
    expect(await everythingKept(h, payment.id)).not.toContain(PAN);
  });

  it('a card number of 12 digits as rrn, which fits the rule of 1 to 12 letters and digits', async () => {
    const pan = '500000000124'; // maestro
    const h = makeEngineHarness();
    h.acquirer.authorize = (request) => ok({ ...APPROVED, rrn: request.card.number });
    const created = await h.engine.createPayment({
      client: compliantClient,
      profileId: PROFILE,
      body: directRequest(pan),
    });
    const payment = created._unsafeUnwrap();
    expect(payment.state).toBe('processing');
    expect(await stored(h, payment.id)).toMatchObject({ state: 'authorizing', authorization: null });
    expectMalformedLogged(h, payment.id, 'acquirer.authorize', 'rrn');
    expect(await everythingKept(h, payment.id)).not.toContain(pan);
  });

  it('a malformed answer is logged without its value: neither the card number nor any other', async () => {
    const h = makeEngineHarness();
    const marker = 'MARKER<script>';
    const payment = (await authorizedWith(h, { ...APPROVED, rrn: PAN, responseCode: marker }))._unsafeUnwrap();
    const logged = JSON.stringify(h.logs);
    expect(logged).not.toContain(PAN);
    expect(logged).not.toContain(marker);
    expect(await everythingKept(h, payment.id)).not.toContain(marker);
  });
});

describe('inquire answers something malformed: a failed inquiry, asked again on the schedule', () => {
  it.each(MALFORMED_ACQUIRER_ANSWERS)('%s', async (_, answer, field) => {
    // Retries within a sweep are for failures the adapter marks retryable, not for a malformed answer.
    const h = makeEngineHarness({ retries: 2 });
    h.acquirer.failNextAuthorize('answer_lost');
    const payment = await createDirect(h, PAN);
    const inquire = h.acquirer.inquire.bind(h.acquirer);
    let malformed = true;
    let inquiries = 0;
    h.acquirer.inquire = (request) => {
      inquiries += 1;
      return malformed ? ok(untyped<InquiryOutcome>(answer)) : inquire(request);
    };

    h.clock.advance(10 * SECOND);
    expect((await h.engine.sweep())._unsafeUnwrap()).toEqual({
      expired: 0,
      reconciled: 0,
      stillUnknown: 1,
      conflicts: 0,
      errors: 0,
    });
    expect(inquiries).toBe(1);
    expect(await stored(h, payment.id)).toMatchObject({
      state: 'authorizing',
      authorizationStatus: 'unknown',
      inquiryAttempts: 2,
      nextInquiryAt: h.clock.now() + 30 * SECOND,
      authorization: null,
      failureReason: null,
    });
    expectMalformedLogged(h, payment.id, 'acquirer.inquire', field);

    malformed = false;
    h.clock.advance(30 * SECOND);
    expect((await h.engine.sweep())._unsafeUnwrap()).toMatchObject({ reconciled: 1, errors: 0 });
    expect((await stored(h, payment.id)).state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
    expect(await everythingKept(h, payment.id)).not.toContain(PAN);
  });
});

const AUTHENTICATED = { kind: 'authenticated', transStatus: 'Y', eci: '05', transactionId: TX } as const;

/**
 * Malformed answers of `authenticate`, the field the log must name, and a text of the answer that
 * must be kept nowhere (null when it is too common a text to look for).
 */
const MALFORMED_AUTHENTICATIONS: ReadonlyArray<
  readonly [what: string, answer: unknown, field: string, value: string | null]
> = [
  ['a javascript: challenge URL', { ...CHALLENGE, challengeUrl: 'javascript:alert(1)' }, 'challengeUrl', 'javascript:'],
  ['an http challenge URL', { ...CHALLENGE, challengeUrl: 'http://evil.example/acs' }, 'challengeUrl', 'evil.example'],
  [
    'a challenge URL with a card number, over http',
    { ...CHALLENGE, challengeUrl: `http://acs.example/c?pan=${PAN}` },
    'challengeUrl',
    PAN,
  ],
  [
    'a challenge URL with the card number, over https',
    { ...CHALLENGE, challengeUrl: `https://acs.example/c?pan=${PAN}` },
    'challengeUrl',
    PAN,
  ],
  [
    'a challenge URL with the card number in groups',
    { ...CHALLENGE, challengeUrl: 'https://acs.example/c?pan=4242-4242-4242-4242' },
    'challengeUrl',
    '4242-4242',
  ],
  [
    'a challenge URL with the card number percent-encoded',
    { ...CHALLENGE, challengeUrl: 'https://acs.example/c?pan=%34%3242%204242%204242%204242' },
    'challengeUrl',
    '4242%204242',
  ],
  [
    'a challenge URL with credentials',
    { ...CHALLENGE, challengeUrl: 'https://bank.example@evil.example/acs' },
    'challengeUrl',
    'evil.example',
  ],
  ['a relative challenge URL', { ...CHALLENGE, challengeUrl: '/evil/acs' }, 'challengeUrl', '/evil/acs'],
  [
    'a scheme-relative challenge URL',
    { ...CHALLENGE, challengeUrl: '//evil.example/acs' },
    'challengeUrl',
    'evil.example',
  ],
  ['https without slashes', { ...CHALLENGE, challengeUrl: 'https:evil.example/acs' }, 'challengeUrl', 'evil.example'],
  [
    'a challenge URL of 2049 characters',
    { ...CHALLENGE, challengeUrl: `https://acs.example/${'x'.repeat(2049 - 20)}` },
    'challengeUrl',
    'x'.repeat(2000),
  ],
  [
    'a challenge URL with a line break',
    { ...CHALLENGE, challengeUrl: 'https://acs.example/\nevil' },
    'challengeUrl',
    'evil',
  ],
  ['a challenge URL that is no string', { ...CHALLENGE, challengeUrl: { href: 'evil' } }, 'challengeUrl', 'evil'],
  ['an unknown challenge reason', { ...CHALLENGE, reason: 'because_evil' }, 'reason', 'because_evil'],
  ['a transaction id that is no UUID', { ...CHALLENGE, transactionId: 'tx_evil' }, 'transactionId', 'tx_evil'],
  ['a card number as transaction id', { ...AUTHENTICATED, transactionId: PAN }, 'transactionId', PAN],
  [
    'a UUID as transaction id that holds the card number across two groups',
    { ...AUTHENTICATED, transactionId: '6f1c2a3b-4d5e-4f60-4242-424242424242' },
    'transactionId',
    '4242-424242424242',
  ],
  ['no transaction id', { kind: 'rejected', transStatus: 'R' }, 'transactionId', null],
  ['an authentication with transStatus C', { ...AUTHENTICATED, transStatus: 'C' }, 'transStatus', TX],
  ['an ECI of one digit', { ...AUTHENTICATED, eci: '5' }, 'eci', TX],
  ['an ECI of letters', { ...AUTHENTICATED, eci: 'e5' }, 'eci', 'e5'],
  ['an ECI that is a number', { ...AUTHENTICATED, eci: 5 }, 'eci', TX],
  ['a rejection with transStatus Y', { kind: 'rejected', transStatus: 'Y', transactionId: TX }, 'transStatus', TX],
  [
    'an unavailable with transStatus N',
    { kind: 'unavailable', transStatus: 'N', transactionId: TX },
    'transStatus',
    TX,
  ],
  ['an unknown kind', { kind: 'decoupled', transactionId: TX }, 'kind', 'decoupled'],
  ['ok(undefined)', undefined, 'answer', null],
  ['a string', 'not_required', 'answer', null],
];

describe('authenticate answers something malformed: as its failure (failed, processing_error)', () => {
  it.each(MALFORMED_AUTHENTICATIONS)('%s', async (_, answer, field, value) => {
    const h = makeEngineHarness();
    const payment = await authenticatedWith(h, answer);

    // What a failure of the call gives.
    const failing = makeEngineHarness({}, 0, {
      threeDS: { failWith: () => ({ code: 'unavailable', message: 'down', retryable: true }) },
    });
    const failed = await createDirect(failing, PAN);
    expect({ state: payment.state, reason: payment.failure_reason, next: payment.next }).toEqual({
      state: failed.state,
      reason: failed.failure_reason,
      next: failed.next,
    });
    expect(payment).toMatchObject({ state: 'failed', failure_reason: 'processing_error' });

    const record: PaymentRecord = await stored(h, payment.id);
    expect(record).toMatchObject({ threeDS: null, nextRedirect: null, authorization: null });
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    expect(h.cardVault.size()).toBe(0);
    expectMalformedLogged(h, payment.id, 'threeDS.authenticate', field);
    const kept = await everythingKept(h, payment.id);
    expect(kept).not.toContain(PAN);
    if (value !== null) expect(kept).not.toContain(value);
    expect(h.events.events().map((event) => event.type)).toEqual(['payment.created', 'payment.failed']);
  });

  it.each([
    ['the sandbox issuer page on 127.0.0.1', 'http://127.0.0.1:3000/sandbox/issuer/challenge/p/t'],
    ['localhost', 'http://localhost:3000/acs'],
    ['https', 'https://acs.example/challenge?tx=1'],
  ])('a challenge URL on %s is sent to the browser as it is', async (_, challengeUrl) => {
    const h = makeEngineHarness();
    h.threeDS.authenticate = () => ok({ ...CHALLENGE, challengeUrl, transactionId: TX.toUpperCase() });
    const payment = await createDirect(h, PAN);
    expect(payment).toMatchObject({ state: 'processing', next: { redirect: challengeUrl } });
    expect(h.logs.filter((log) => log.level === 'error')).toEqual([]);
  });
});

/** Malformed answers of `resolveChallenge`, and the field the log must name. */
const MALFORMED_CHALLENGE_RESULTS: ReadonlyArray<readonly [what: string, answer: unknown, field: string]> = [
  ['an acceptance with transStatus N', { kind: 'accepted', transStatus: 'N', eci: '05' }, 'transStatus'],
  ['an acceptance with transStatus C', { kind: 'accepted', transStatus: 'C', eci: '05' }, 'transStatus'],
  ['an acceptance with an ECI of letters', { kind: 'accepted', transStatus: 'Y', eci: 'e5' }, 'eci'],
  ['an acceptance with a card number as ECI', { kind: 'accepted', transStatus: 'Y', eci: PAN }, 'eci'],
  ['an acceptance without ECI', { kind: 'accepted', transStatus: 'Y' }, 'eci'],
  ['a refusal with transStatus Y', { kind: 'refused', transStatus: 'Y' }, 'transStatus'],
  ['an unknown kind', { kind: 'approved', transStatus: 'Y', eci: '05' }, 'kind'],
  ['ok(null)', null, 'answer'],
];

describe('resolveChallenge answers something malformed: as its failure (unavailable; the challenge stays open)', () => {
  it.each(MALFORMED_CHALLENGE_RESULTS)('%s', async (_, answer, field) => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    const before = await stored(h, payment.id);
    expect(before.state).toBe('awaiting_challenge');
    const resolve = h.threeDS.resolveChallenge.bind(h.threeDS);
    h.threeDS.resolveChallenge = () => ok(untyped<ChallengeResult>(answer));
    const completion = await h.engine.completeChallenge(await h.challengeAnswer(payment.id, 'authorise'));
    expect(completion.isErr() && completion.error).toMatchObject({ code: 'unavailable', retryable: true });
    expect(await stored(h, payment.id)).toEqual(before);
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    expect(h.cardVault.size()).toBe(1);
    expectMalformedLogged(h, payment.id, 'threeDS.resolveChallenge', field);

    // The cardholder (or the browser's re-post) tries again once the provider answers properly.
    h.threeDS.resolveChallenge = resolve;
    const retried = await h.engine.completeChallenge(await h.challengeAnswer(payment.id, 'authorise'));
    expect(retried._unsafeUnwrap().state).toBe('succeeded');
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
    expect(await everythingKept(h, payment.id)).not.toContain(PAN);
  });
});

// Properties: whatever an adapter answers, what the engine keeps follows the rules.

const RRN = /^[A-Za-z0-9]{1,12}$/;
const RESPONSE_CODE = /^[A-Za-z0-9]{2}$/;
const isMinorUnits = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A URL the cardholder's browser may be sent to: absolute https, or http on a loopback host; at most 2048 characters. */
function isSafeRedirect(value: string): boolean {
  if (value.length > 2048 || !/^https?:\/\//i.test(value)) return false;
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return false;
  return (
    url.protocol === 'https:' ||
    (url.protocol === 'http:' && /^(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname))
  );
}

/** A field value: mostly well-formed, often not. */
const either = <T>(good: fc.Arbitrary<T>, ...bad: fc.Arbitrary<unknown>[]) =>
  fc.oneof({ arbitrary: good, weight: 3 }, ...bad.map((arbitrary) => ({ arbitrary, weight: 1 })));

const junk = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.double(), fc.constant(null), fc.constant(PAN));

const acquirerAnswer: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({
    kind: either(fc.constant('approved'), fc.string({ maxLength: 10 })),
    rrn: either(fc.stringMatching(/^[A-Za-z0-9]{1,12}$/), junk, fc.stringMatching(/^[A-Za-z0-9]{13,20}$/)),
    responseCode: either(fc.stringMatching(/^[A-Za-z0-9]{2}$/), junk),
    fees: either(
      fc.record({ interchange: either(fc.nat(), junk), assesment: either(fc.nat(), junk) }),
      junk,
      fc.record({ interchange: fc.integer({ min: -100, max: -1 }), assesment: fc.nat() }),
    ),
    card: either(
      fc.record({
        type: either(fc.constantFrom('consumer', 'commercial'), junk),
        region: either(fc.constantFrom('domestic', 'intra', 'inter'), junk),
        issuingCountry: either(fc.constantFrom(...COUNTRY_CODES), junk, fc.stringMatching(/^[A-Za-z]{2}$/)),
      }),
      junk,
    ),
  }),
  fc.record({
    kind: fc.constant('declined'),
    responseCode: either(fc.stringMatching(/^[A-Za-z0-9]{2}$/), junk),
    reason: either(fc.constantFrom(...FAILURE_REASONS), junk),
  }),
  fc.record({ kind: fc.constant('unknown'), detail: either(fc.string(), junk) }),
  fc.anything(),
);

/** Whether a stored record keeps only what the rules allow of the acquirer's answer. */
function expectAuthorizationKeptWell(record: PaymentRecord): void {
  if (record.failureReason !== null) expect(FAILURE_REASONS).toContain(record.failureReason);
  const kept = record.authorization;
  if (kept === null) return;
  expect(kept.rrn).toMatch(RRN);
  expect(kept.responseCode).toMatch(RESPONSE_CODE);
  expect(isMinorUnits(kept.fees.interchange) && isMinorUnits(kept.fees.assesment)).toBe(true);
  expect(['consumer', 'commercial']).toContain(kept.card.type);
  expect(['domestic', 'intra', 'inter']).toContain(kept.card.region);
  expect(COUNTRY_CODES).toContain(kept.card.issuingCountry);
}

const authenticationAnswer: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({
    kind: either(fc.constantFrom('challenge', 'authenticated', 'rejected', 'unavailable', 'not_required'), junk),
    reason: either(fc.constantFrom('challenge_required', 'data_mismatch'), junk),
    transStatus: fc.constantFrom('Y', 'A', 'C', 'D', 'N', 'R', 'U', 'I', '', 'y'),
    eci: either(fc.stringMatching(/^\d{2}$/), junk),
    transactionId: either(fc.uuid(), junk, fc.constant('tx_1')),
    challengeUrl: either(
      fc.webUrl({ validSchemes: ['https'] }),
      fc.webUrl({ validSchemes: ['http'] }),
      fc.constantFrom('javascript:alert(1)', 'http://127.0.0.1:3000/acs', 'http://localhost/acs', '/acs', 'data:,x'),
      junk,
    ),
  }),
  fc.anything(),
);

describe('properties over any answer', () => {
  it('authorize: never an engine defect, authorized once, and only well-formed values are kept', async () => {
    await fc.assert(
      fc.asyncProperty(acquirerAnswer, async (answer) => {
        const h = makeEngineHarness();
        const created = await authorizedWith(h, answer);
        expect(created.isOk()).toBe(true);
        const payment = created._unsafeUnwrap();
        const record = await stored(h, payment.id);
        expect(['authorizing', 'succeeded', 'failed']).toContain(record.state);
        if (record.state === 'authorizing') expect(record.authorizationStatus).toBe('unknown');
        expectAuthorizationKeptWell(record);
        expect(h.acquirer.authorizeCalls(payment.id)).toBe(1);
        expect(await everythingKept(h, payment.id)).not.toContain(PAN);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('authenticate: never an engine defect, and only a safe URL is sent to the browser', async () => {
    await fc.assert(
      fc.asyncProperty(authenticationAnswer, async (answer) => {
        const h = makeEngineHarness();
        const payment = await authenticatedWith(h, answer);
        const record = await stored(h, payment.id);
        if (payment.next?.redirect !== undefined) expect(isSafeRedirect(payment.next.redirect)).toBe(true);
        if (record.nextRedirect !== null) expect(isSafeRedirect(record.nextRedirect)).toBe(true);
        const threeDS = record.threeDS;
        if (threeDS?.transactionId != null) expect(threeDS.transactionId).toMatch(UUID);
        if (threeDS?.eci != null) expect(threeDS.eci).toMatch(/^\d{2}$/);
        expect(await everythingKept(h, payment.id)).not.toContain(PAN);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
