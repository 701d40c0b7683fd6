import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import {
  checkAuthenticationResult,
  checkAuthorizationOutcome,
  checkInquiryOutcome,
} from '../../src/engine/port-answers.js';
import type { AuthorizationOutcome } from '../../src/ports/acquirer.js';
import { makeEngineHarness, type EngineHarness } from '../support/engine-harness.js';
import { createDirect, stored, VISA } from '../support/engine-helpers.js';
import {
  APPROVED_ANSWER as APPROVED,
  authenticateAnswers,
  authorizeAnswers,
  CHALLENGE_ANSWER as CHALLENGE,
  everythingKept,
  untyped,
} from '../support/port-answers.js';

// Attacks on the check of port answers (src/engine/port-answers.ts, docs/ports.md "What the engine
// checks of an answer"), as a hostile or sloppy adapter would make them: answers that pass the
// field rules but still carry the card number of the request in another form, objects that
// answer differently each time they are read, and odd numbers and URLs. What must hold: nothing
// of the card number reaches the record, an event, a log line or `next.redirect`.

/** The card of every payment here. */
const PAN = VISA;

/** The ASCII digits of a text, nothing else: a card number in it shows whatever separated its groups. */
const digitsOf = (text: string): string => text.normalize('NFKC').replace(/[^0-9]/g, '');

/** A direct payment of `PAN` whose `authenticate` answers `answer`. */
async function authenticatedWith(h: EngineHarness, answer: unknown) {
  authenticateAnswers(h, answer);
  return createDirect(h, PAN);
}

/** A direct payment of `PAN` whose `authorize` answers `answer` (the sandbox still records the call). */
async function authorizedWith(h: EngineHarness, answer: unknown) {
  authorizeAnswers(h, answer);
  return createDirect(h, PAN);
}

const GROUPED = '4242 4242 4242 4242';
const percentEncoded = (text: string): string =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
const FULL_WIDTH = [...PAN].map((d) => String.fromCharCode(0xff10 + Number(d))).join('');

/** Challenge URLs that pass the URL rule but hold the card number of the request in another form. */
const CARD_NUMBER_IN_CHALLENGE_URL: ReadonlyArray<readonly [what: string, url: string]> = [
  ['as it is, in the path', `https://acs.example/c/${PAN}`],
  ['with dashes, in the path', `https://acs.example/c/${GROUPED.replaceAll(' ', '-')}`],
  ['with dots, in the fragment', `https://acs.example/c#${GROUPED.replaceAll(' ', '.')}`],
  ['with plus signs (a form space), in the query', `https://acs.example/c?pan=${GROUPED.replaceAll(' ', '+')}`],
  ['with percent-encoded spaces, in the query', `https://acs.example/c?pan=${GROUPED.replaceAll(' ', '%20')}`],
  ['every digit percent-encoded', `https://acs.example/c?pan=${percentEncoded(PAN)}`],
  ['split over four query parameters', `https://acs.example/c?a=4242&b=4242&c=4242&d=4242`],
  ['split over path segments with letters between', `https://acs.example/c/4242a/4242b/4242c/4242`],
  ['in full-width digits', `https://acs.example/c/${FULL_WIDTH}`],
  ['with dashes, in the host name', `https://${GROUPED.replaceAll(' ', '-')}.acs.example/c`],
];

describe('authenticate: a challenge URL holding the card number in any form is refused', () => {
  it.each(CARD_NUMBER_IN_CHALLENGE_URL)('%s', async (_, challengeUrl) => {
    const h = makeEngineHarness();
    const payment = await authenticatedWith(h, { ...CHALLENGE, challengeUrl });
    // The failure of the call: nothing sent to the browser, nothing authorized.
    expect(payment).toMatchObject({ state: 'failed', failure_reason: 'processing_error' });
    expect(payment.next).toBeUndefined();
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    const errors = h.logs.filter((log) => log.level === 'error');
    expect(errors.map((log) => log.fields['field'])).toEqual(['challengeUrl']);
    const kept = await everythingKept(h, payment.id);
    expect(kept).not.toContain(challengeUrl);
    expect(digitsOf(kept)).not.toContain(PAN);
  });

  it('a challenge URL with digits that are not the card number is taken as it is', async () => {
    const h = makeEngineHarness();
    const challengeUrl = `https://acs.example/c/4242-4242?session=1234567890123456&n=${'9'.repeat(30)}`;
    const payment = await authenticatedWith(h, { ...CHALLENGE, challengeUrl });
    expect(payment).toMatchObject({ state: 'processing', next: { redirect: challengeUrl } });
    expect(h.logs.filter((log) => log.level === 'error')).toEqual([]);
  });
});

describe('authenticate: a transaction id of UUID form that spells out the card number is refused', () => {
  it.each([
    ['in the first groups', '42424242-4242-4242-4000-000000000000'],
    ['across the last groups', '00000000-0000-4242-4242-424242420000'],
    ['upper case, with hex letters around it', 'ABCDEF42-4242-4242-4242-4242ABCDEF00'],
  ])('%s', async (_, transactionId) => {
    const h = makeEngineHarness();
    const payment = await authenticatedWith(h, { kind: 'authenticated', transStatus: 'Y', eci: '05', transactionId });
    expect(payment).toMatchObject({ state: 'failed', failure_reason: 'processing_error' });
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    expect(h.logs.filter((log) => log.level === 'error').map((log) => log.fields['field'])).toEqual(['transactionId']);
    const kept = await everythingKept(h, payment.id);
    expect(kept.toLowerCase()).not.toContain(transactionId.toLowerCase());
    expect(digitsOf(kept)).not.toContain(PAN);
  });
});

describe('authenticate: challenge URLs that only look like loopback addresses are not http-safe', () => {
  it.each([
    'http://127.0.0.1.evil.example/acs',
    'http://localhost.evil.example/acs',
    'http://localhost./acs',
    'http://[::ffff:127.0.0.1]/acs',
    'http://[::ffff:7f00:1]/acs',
    'http://0.0.0.0/acs',
    'http://127.0.0.1%2eevil.example/acs',
    'http://xn--lcalhost-9za.example/acs',
    'javascript://127.0.0.1/%0Aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://acs.example/\uD800',
    'https://acs.example@127.0.0.1/acs',
  ])('%s is refused and kept nowhere', async (challengeUrl) => {
    const h = makeEngineHarness();
    const payment = await authenticatedWith(h, { ...CHALLENGE, challengeUrl });
    expect(payment).toMatchObject({ state: 'failed', failure_reason: 'processing_error' });
    expect(payment.next).toBeUndefined();
    expect(h.logs.filter((log) => log.level === 'error').map((log) => log.fields['field'])).toEqual(['challengeUrl']);
    expect(await everythingKept(h, payment.id)).not.toContain(challengeUrl);
  });
});

describe('authorize: values that pass the rules', () => {
  it('an unknown outcome whose detail holds the card number: the detail is kept nowhere', async () => {
    const h = makeEngineHarness();
    const detail = `gateway said: card ${GROUPED} timed out; pan=${PAN}; ${'x'.repeat(1_000_000)}`;
    const payment = await authorizedWith(h, { kind: 'unknown', detail });
    expect(payment.state).toBe('processing');
    expect(await stored(h, payment.id)).toMatchObject({ authorizationStatus: 'unknown' });
    // Not malformed (a string), so not logged as such; and the text itself is neither logged nor stored.
    expect(h.logs.filter((log) => log.level === 'error')).toEqual([]);
    const kept = await everythingKept(h, payment.id);
    expect(kept).not.toContain('gateway said');
    expect(digitsOf(kept)).not.toContain(PAN);
  });

  it('fees of -0 are stored as 0, the same in every store', async () => {
    const h = makeEngineHarness();
    const payment = await authorizedWith(h, { ...APPROVED, fees: { interchange: -0, assesment: -0 } });
    expect(payment.state).toBe('succeeded');
    const fees = (await stored(h, payment.id)).authorization?.fees;
    expect(Object.is(fees?.interchange, 0)).toBe(true);
    expect(Object.is(fees?.assesment, 0)).toBe(true);
  });

  it.each([
    ['1e21', 1e21],
    ['-1e-7', -1e-7],
    ['Number.MAX_VALUE', Number.MAX_VALUE],
    ['-Infinity', -Infinity],
    ['a BigInt', 6n],
    ['a Number object', Object(6) as unknown],
  ])('an interchange of %s is malformed', async (_, interchange) => {
    const h = makeEngineHarness();
    const payment = await authorizedWith(h, { ...APPROVED, fees: { interchange, assesment: 2 } });
    expect(payment.state).toBe('processing');
    expect(h.logs.filter((log) => log.level === 'error').map((log) => log.fields['field'])).toEqual([
      'fees.interchange',
    ]);
  });

  it('an approval with extra fields (pan, raw) keeps none of them', async () => {
    const h = makeEngineHarness();
    const answer = { ...APPROVED, pan: PAN, raw: { track2: `${PAN}=3012` }, card: { ...APPROVED.card, number: PAN } };
    const payment = await authorizedWith(h, answer);
    expect(payment.state).toBe('succeeded');
    expect(digitsOf(await everythingKept(h, payment.id))).not.toContain(PAN);
  });

  it('a promise of ok(a number), ok(a function) or ok(a symbol) is malformed as a whole', async () => {
    for (const answer of [42, () => APPROVED, Symbol('approved')]) {
      const h = makeEngineHarness();
      h.acquirer.authorize = () => Promise.resolve(ok(untyped<AuthorizationOutcome>(answer)));
      const payment = await createDirect(h, PAN);
      expect(payment.state).toBe('processing');
      expect(h.logs.filter((log) => log.level === 'error').map((log) => log.fields['field'])).toEqual(['answer']);
    }
  });
});

/** A proxy over `target` that counts each property read, and answers `kind` from `kinds` in turn. */
function countingProxy(target: Record<string, unknown>, kinds?: readonly unknown[]) {
  const reads = new Map<PropertyKey, number>();
  let kindReads = 0;
  const proxy = new Proxy(target, {
    get(object, property, receiver) {
      reads.set(property, (reads.get(property) ?? 0) + 1);
      if (property === 'kind' && kinds !== undefined) return kinds[Math.min(kindReads++, kinds.length - 1)];
      return Reflect.get(object, property, receiver) as unknown;
    },
  });
  return { proxy, reads };
}

describe('answers that are proxies or odd objects', () => {
  it('inquire: every field of an approval is read once, so a getter cannot answer two things', () => {
    const { proxy, reads } = countingProxy({ ...APPROVED }, ['approved', 'not_found']);
    expect(checkInquiryOutcome(proxy)._unsafeUnwrap()).toMatchObject({ kind: 'approved', rrn: APPROVED.rrn });
    expect([...reads.values()].every((count) => count === 1)).toBe(true);
  });

  it('authorize and authenticate: every field is read once', () => {
    const approval = countingProxy({ ...APPROVED });
    expect(checkAuthorizationOutcome(approval.proxy, PAN).isOk()).toBe(true);
    expect([...approval.reads.values()].every((count) => count === 1)).toBe(true);
    const challenge = countingProxy({ ...CHALLENGE });
    expect(checkAuthenticationResult(challenge.proxy, PAN).isOk()).toBe(true);
    expect([...challenge.reads.values()].every((count) => count === 1)).toBe(true);
  });

  it('the value gone on with is a plain copy, whatever the answer was made of', () => {
    const odd = Object.freeze(Object.assign(Object.create(null) as object, APPROVED));
    const inherited = Object.create({ ...APPROVED, fees: { interchange: 6, assesment: 2 } }) as object;
    for (const answer of [odd, inherited]) {
      const outcome = checkAuthorizationOutcome(answer, PAN)._unsafeUnwrap();
      expect(Object.getPrototypeOf(outcome)).toBe(Object.prototype);
      expect(outcome).toEqual(APPROVED);
    }
    // `__proto__` as an own key (JSON.parse makes one) is a key like any other, and gives no field.
    const parsed: unknown = JSON.parse(`{"kind":"approved","__proto__":{"rrn":"000000000042"}}`);
    expect(checkAuthorizationOutcome(parsed, PAN)._unsafeUnwrapErr().field).toBe('rrn');
  });

  it('a revoked proxy, or one whose every trap throws, is malformed as a whole, not a defect', () => {
    const { proxy, revoke } = Proxy.revocable({ ...APPROVED }, {});
    revoke();
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error(`no ${PAN}`);
        },
      },
    );
    for (const answer of [proxy, hostile]) {
      expect(checkAuthorizationOutcome(answer, PAN)._unsafeUnwrapErr()).toEqual({
        field: 'answer',
        problem: 'threw when read',
      });
      expect(checkAuthenticationResult(answer, PAN)._unsafeUnwrapErr().field).toBe('answer');
    }
  });

  it('huge strings are refused at once, without being copied into the problem', () => {
    const huge = '4'.repeat(5_000_000);
    const problems = [
      checkAuthorizationOutcome({ ...APPROVED, rrn: huge }, PAN),
      checkAuthorizationOutcome({ kind: 'declined', responseCode: huge, reason: 'declined' }, PAN),
      checkAuthenticationResult({ ...CHALLENGE, transactionId: huge }, PAN),
      checkAuthenticationResult({ ...CHALLENGE, challengeUrl: `https://acs.example/${huge}` }, PAN),
    ].map((checked) => checked._unsafeUnwrapErr());
    expect(JSON.stringify(problems).length).toBeLessThan(1_000);
  });
});
