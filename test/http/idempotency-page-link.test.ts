import { describe, expect, it } from 'vitest';
import { createMemoryCredentialStore } from '../../adapters/memory/index.js';
import { createFetchHandler } from '../../adapters/http/index.js';
import { SEALED_PAGE_LINK, unsealPageLink } from '../../adapters/http/page-link-seal.js';
import { createHmacPageTokens } from '../../adapters/node/index.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { recordingIdempotencyStore } from '../support/recording-idempotency-store.js';
import { cardSubmission, directRequest, hostedRequest } from '../support/requests.js';
import { CONFIG, TOKENS } from './support/api-harness.js';

/*
 * The create answer an `Idempotency-Key` stores (in Postgres, a table a dump holds) keeps no
 * working hosted page link when the engine makes links from its `pageTokens`: a placeholder
 * stands in its place, and a replay puts the link back, byte for byte the first answer.
 */

const PAYMENTS = 'http://api.test/v1/profiles/profile_alpha_main/payments';

function api(withTokens = true) {
  const h = makeEngineHarness(
    { hostedPageUrl: ({ id, token }) => `https://pay.test/pay/${id}?token=${token}` },
    3,
    withTokens ? { pageTokens: createHmacPageTokens('idempotency-page-link-test-secret-0123') } : {},
  );
  const { store: idempotency, completed } = recordingIdempotencyStore();
  const handler = createFetchHandler({
    engine: h.engine,
    credentials: createMemoryCredentialStore(CONFIG),
    clock: h.clock,
    idempotency,
  });
  const create = async (body: unknown, key: string) => {
    const answer = await handler(
      new Request(PAYMENTS, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKENS.alphaCompliant}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify(body),
      }),
    );
    return { status: answer.status, replayed: answer.headers.get('idempotency-replayed'), text: await answer.text() };
  };
  return { h, create, completed };
}

const redirectOf = (text: string) => (JSON.parse(text) as { next?: { redirect?: string } }).next?.redirect;

describe('a stored create answer and the hosted page link', () => {
  it('keeps a placeholder for the link, and the replay answers the first answer byte for byte', async () => {
    const { h, create, completed } = api();
    const first = await create(hostedRequest(), 'order-1');
    expect(first.status).toBe(201);
    const link = redirectOf(first.text) ?? '';
    const token = new URL(link).searchParams.get('token') ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(completed.map((stored) => redirectOf(stored.body))).toEqual([SEALED_PAGE_LINK]);
    expect(completed[0]?.body).not.toContain(token);
    expect(completed[0]?.body).toBe(first.text.replace(link, SEALED_PAGE_LINK));

    expect(await create(hostedRequest(), 'order-1')).toEqual({ ...first, replayed: 'true' });
    const id = String(JSON.parse(first.text).id);
    (await h.engine.submitCard({ paymentId: id, token, body: cardSubmission('4242424242424242') }))._unsafeUnwrap();
    expect(await create(hostedRequest(), 'order-1')).toEqual({ ...first, replayed: 'true' });
  });

  it('stores an issuer challenge page as it is: it is no hosted page link', async () => {
    const { create, completed } = api();
    const first = await create(directRequest('4000000000003220'), 'challenge-1');
    expect(redirectOf(first.text)).toMatch(/^https:\/\/acs\.sandbox\.test\/challenge\//);
    expect(completed.map((stored) => stored.body)).toEqual([first.text]);
    expect(await create(directRequest('4000000000003220'), 'challenge-1')).toEqual({ ...first, replayed: 'true' });
  });

  it('without pageTokens stores the answer as sent (the random token is stored with the payment anyway)', async () => {
    const { create, completed } = api(false);
    const first = await create(hostedRequest(), 'order-1');
    expect(completed.map((stored) => stored.body)).toEqual([first.text]);
    expect(await create(hostedRequest(), 'order-1')).toEqual({ ...first, replayed: 'true' });
  });

  it('puts back only a placeholder in next.redirect, and leaves next out when the engine makes no links', () => {
    const engine = { hostedPageLink: (id: string) => `https://pay.test/pay/${id}?token=t` };
    const answer = (body: unknown) => ({
      status: 201,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const sealed = answer({
      id: 'payment_1',
      description: SEALED_PAGE_LINK,
      next: { redirect: SEALED_PAGE_LINK },
      state: 'processing',
    });
    expect(JSON.parse(unsealPageLink(engine, sealed).body)).toEqual({
      id: 'payment_1',
      description: SEALED_PAGE_LINK,
      next: { redirect: 'https://pay.test/pay/payment_1?token=t' },
      state: 'processing',
    });
    expect(JSON.parse(unsealPageLink({ hostedPageLink: () => null }, sealed).body)).toEqual({
      id: 'payment_1',
      description: SEALED_PAGE_LINK,
      state: 'processing',
    });
    for (const untouched of [
      answer({ id: 'payment_1', description: SEALED_PAGE_LINK }),
      answer({ id: 'payment_1', next: { redirect: 'https://acs.test/x' }, reference: SEALED_PAGE_LINK }),
      { ...sealed, body: `${SEALED_PAGE_LINK} not JSON` },
      answer([SEALED_PAGE_LINK]),
    ]) {
      expect(unsealPageLink(engine, untouched)).toBe(untouched);
    }
  });
});
