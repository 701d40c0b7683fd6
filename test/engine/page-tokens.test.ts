import { describe, expect, it } from 'vitest';
import { createHmacPageTokens } from '../../adapters/node/index.js';
import { createPaymentEngine, toPublicPayment, type PaymentEngineOptions } from '../../src/index.js';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { createDirect, createHosted, MINUTE, PROFILE, stored, VISA } from '../support/engine-helpers.js';
import { cardSubmission, hostedRequest } from '../support/requests.js';

/*
 * Hosted page links made from a key (the `pageTokens` port): nothing of a link is stored, every
 * engine that holds the key makes and checks the same links, and a link lapses once its payment
 * has been final for `hostedPageLinkGraceMs`.
 */

const KEY = 'page-link-key-of-the-engine-tests-0123456789';
const OTHER_KEY = 'another-page-link-key-of-the-engine-tests-0123';
const GRACE = 30 * MINUTE;
const pageUrl = (id: string, token: string) => `https://pay.example/pay/${id}?token=${token}`;

function harness(options: PaymentEngineOptions = {}, key: string | null = KEY) {
  return makeEngineHarness(
    { hostedPageUrl: ({ id, token }) => pageUrl(id, token), ...options },
    0,
    key === null ? {} : { pageTokens: createHmacPageTokens(key) },
  );
}

/** An engine on `h`'s repository and ports, with its own page tokens (another instance). */
function instanceOn(h: ReturnType<typeof harness>, key: string) {
  return createPaymentEngine({
    repository: h.repository,
    acquirer: h.acquirer,
    threeDS: h.threeDS,
    cardVault: h.cardVault,
    clock: h.clock,
    ids: h.ids,
    pageTokens: createHmacPageTokens(key),
    options: { retries: 0, hostedPageUrl: ({ id, token }) => pageUrl(id, token) },
  });
}

describe('hosted page links made from the pageTokens key', () => {
  it('stores nothing of the link: the answer and the reads make it, the events leave it out', async () => {
    const h = harness();
    const payment = await createHosted(h);
    const token = createHmacPageTokens(KEY).tokenFor(payment.id);
    expect(payment.next?.redirect).toBe(pageUrl(payment.id, token));
    const record = await stored(h, payment.id);
    expect(record).toMatchObject({ hostedToken: null, nextRedirect: null, state: 'awaiting_card_data' });
    expect(JSON.stringify(h.repository.snapshot())).not.toContain(token);
    expect(h.engine.hostedPageLink(payment.id)).toBe(payment.next?.redirect);

    const read = (await h.engine.getPayment({ paymentId: payment.id, profileId: PROFILE }))._unsafeUnwrap();
    expect(read.next?.redirect).toBe(pageUrl(payment.id, token));
    const listed = (await h.engine.listPayments({ profileId: PROFILE }))._unsafeUnwrap();
    expect(listed.items[0]?.next?.redirect).toBe(pageUrl(payment.id, token));

    (await h.engine.deliverEvents())._unsafeUnwrap();
    const [created] = h.events.events();
    expect(created?.type).toBe('payment.created');
    expect(created?.payment.state).toBe('processing');
    expect(created?.payment.next).toBeUndefined();
    expect(JSON.stringify(h.events.events())).not.toContain(token);

    const paid = await h.engine.submitCard({ paymentId: payment.id, token, body: cardSubmission(VISA) });
    expect(paid._unsafeUnwrap().state).toBe('succeeded');
    expect(JSON.stringify(h.repository.snapshot())).not.toContain(token);
  });

  it('a link made by one engine works on another that holds the key, and on none that does not', async () => {
    const h = harness();
    const payment = await createHosted(h);
    const token = new URL(payment.next?.redirect ?? '').searchParams.get('token') ?? '';
    const stranger = instanceOn(h, OTHER_KEY);
    expect((await stranger.getHostedPageRecord({ paymentId: payment.id, token }))._unsafeUnwrapErr().code).toBe(
      'not_found',
    );
    expect(
      (await stranger.submitCard({ paymentId: payment.id, token, body: cardSubmission(VISA) }))._unsafeUnwrapErr().code,
    ).toBe('not_found');
    const sibling = instanceOn(h, KEY);
    expect((await sibling.getPayment({ paymentId: payment.id, profileId: PROFILE }))._unsafeUnwrap().next).toEqual(
      payment.next,
    );
    const paid = await sibling.submitCard({ paymentId: payment.id, token, body: cardSubmission(VISA) });
    expect(paid._unsafeUnwrap().state).toBe('succeeded');
  });

  it('refuses forged tokens: another key, another payment, a direct payment, a near miss', async () => {
    const h = harness();
    const [first, second] = [await createHosted(h), await createHosted(h)];
    const direct = await createDirect(h, VISA);
    const ours = createHmacPageTokens(KEY);
    const token = ours.tokenFor(first.id);
    const forged = [
      createHmacPageTokens(OTHER_KEY).tokenFor(first.id),
      ours.tokenFor(second.id),
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      token.slice(0, -1),
      `${token}A`,
      '',
    ];
    for (const candidate of forged) {
      const opened = await h.engine.getHostedPageRecord({ paymentId: first.id, token: candidate });
      expect(opened._unsafeUnwrapErr().code, candidate).toBe('not_found');
      const submitted = await h.engine.submitCard({
        paymentId: first.id,
        token: candidate,
        body: cardSubmission(VISA),
      });
      expect(submitted._unsafeUnwrapErr().code, candidate).toBe('not_found');
    }
    // tokenFor answers for any id: a direct payment has no page all the same.
    const directToken = ours.tokenFor(direct.id);
    expect((await h.engine.getHostedPageRecord({ paymentId: direct.id, token: directToken })).isErr()).toBe(true);
    expect((await h.engine.getHostedPageRecord({ paymentId: first.id, token }))._unsafeUnwrap().id).toBe(first.id);
    expect(h.acquirer.authorizeCalls(first.id)).toBe(0);
  });

  it('keeps opening pages whose token was stored before the engine had pageTokens', async () => {
    const h = harness({}, null);
    const before = await createHosted(h);
    const storedToken = (await stored(h, before.id)).hostedToken ?? '';
    expect(storedToken).not.toBe('');
    const upgraded = instanceOn(h, KEY);
    const read = (await upgraded.getPayment({ paymentId: before.id, profileId: PROFILE }))._unsafeUnwrap();
    expect(read.next).toEqual(before.next);
    const made = createHmacPageTokens(KEY).tokenFor(before.id);
    expect((await upgraded.getHostedPageRecord({ paymentId: before.id, token: made })).isErr()).toBe(true);
    const paid = await upgraded.submitCard({ paymentId: before.id, token: storedToken, body: cardSubmission(VISA) });
    expect(paid._unsafeUnwrap().state).toBe('succeeded');
  });
});

describe('a hosted page link lapses after its payment is final (hostedPageLinkGraceMs)', () => {
  it('opens the page of a final payment for the grace, then answers not_found, as submitCard does', async () => {
    for (const key of [KEY, null]) {
      const h = harness({}, key);
      const payment = await createHosted(h);
      const token = new URL(payment.next?.redirect ?? '').searchParams.get('token') ?? '';
      const open = () => h.engine.getHostedPageRecord({ paymentId: payment.id, token });
      const submit = () => h.engine.submitCard({ paymentId: payment.id, token, body: cardSubmission(VISA) });
      // Not final: no grace counts, however long the page waits for card data.
      h.clock.advance(59 * MINUTE);
      expect((await open())._unsafeUnwrap().state).toBe('awaiting_card_data');
      expect((await submit())._unsafeUnwrap().state).toBe('succeeded');

      h.clock.advance(GRACE);
      expect((await open())._unsafeUnwrap().state).toBe('succeeded');
      expect((await submit())._unsafeUnwrapErr().code).toBe('invalid_state');
      h.clock.advance(1);
      expect((await open())._unsafeUnwrapErr().code).toBe('not_found');
      expect((await submit())._unsafeUnwrapErr().code).toBe('not_found');
      // The merchant's API still shows the payment.
      expect((await h.engine.getPayment({ paymentId: payment.id, profileId: PROFILE })).isOk()).toBe(true);
    }
  });

  it('counts from when the payment became final: an expired one too', async () => {
    const h = harness({ hostedPageLinkGraceMs: 5 * MINUTE });
    const payment = await createHosted(h);
    const token = createHmacPageTokens(KEY).tokenFor(payment.id);
    h.clock.advance(60 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(1);
    h.clock.advance(5 * MINUTE);
    expect((await h.engine.getHostedPageRecord({ paymentId: payment.id, token }))._unsafeUnwrap().state).toBe(
      'expired',
    );
    h.clock.advance(1);
    expect((await h.engine.getHostedPageRecord({ paymentId: payment.id, token })).isErr()).toBe(true);
  });

  it('takes 0 and Infinity, and refuses anything else', async () => {
    const never = harness({ hostedPageLinkGraceMs: Number.POSITIVE_INFINITY });
    const payment = await createHosted(never);
    const token = createHmacPageTokens(KEY).tokenFor(payment.id);
    (await never.engine.submitCard({ paymentId: payment.id, token, body: cardSubmission(VISA) }))._unsafeUnwrap();
    never.clock.advance(365 * 24 * 60 * MINUTE);
    expect((await never.engine.getHostedPageRecord({ paymentId: payment.id, token })).isOk()).toBe(true);

    const at = harness({ hostedPageLinkGraceMs: 0 });
    const other = await createHosted(at);
    const otherToken = createHmacPageTokens(KEY).tokenFor(other.id);
    (
      await at.engine.submitCard({ paymentId: other.id, token: otherToken, body: cardSubmission(VISA) })
    )._unsafeUnwrap();
    expect((await at.engine.getHostedPageRecord({ paymentId: other.id, token: otherToken })).isOk()).toBe(true);
    at.clock.advance(1);
    expect((await at.engine.getHostedPageRecord({ paymentId: other.id, token: otherToken })).isErr()).toBe(true);

    for (const bad of [-1, 1.5, Number.NaN, Number.NEGATIVE_INFINITY, '60000']) {
      expect(() => harness({ hostedPageLinkGraceMs: bad as number }), String(bad)).toThrow(RangeError);
    }
  });
});

describe('the pageTokens port', () => {
  it('is refused at construction when it has no tokenFor', () => {
    const h = harness();
    const ports = {
      repository: h.repository,
      acquirer: h.acquirer,
      threeDS: h.threeDS,
      cardVault: h.cardVault,
      clock: h.clock,
      ids: h.ids,
    };
    for (const pageTokens of [null, {}, { tokenFor: 'x' }]) {
      expect(() => createPaymentEngine({ ...ports, pageTokens: pageTokens as never })).toThrow(TypeError);
    }
    expect(createPaymentEngine(ports).hostedPageLink('payment_1')).toBeNull();
  });

  it('toPublicPayment makes the link of a payment awaiting card data only, and only when given the maker', async () => {
    const h = harness();
    const payment = await createHosted(h);
    const record = await stored(h, payment.id);
    const hostedPageLink = (id: string) => `link-of-${id}`;
    expect(toPublicPayment(record).next).toBeUndefined();
    expect(toPublicPayment(record, { hostedPageLink }).next).toEqual({ redirect: `link-of-${payment.id}` });
    const direct = await stored(h, (await createDirect(h, VISA)).id);
    expect(toPublicPayment(direct, { hostedPageLink }).next).toBeUndefined();
    expect(toPublicPayment({ ...record, state: 'authorizing' }, { hostedPageLink }).next).toBeUndefined();
    // An engine given a command from plain JavaScript without a token string finds no page.
    const hosted = await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() });
    const id = hosted._unsafeUnwrap().id;
    expect((await h.engine.getHostedPageRecord({ paymentId: id, token: undefined as never })).isErr()).toBe(true);
  });
});
