import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TEST_CARDS } from '../../adapters/sandbox/index.js';
import { paymentListResourceSchema } from '../../adapters/http/openapi/http-schemas.js';
import { paymentSchema } from '../../src/index.js';
import { cardSubmission, directRequest, hostedRequest } from '../support/requests.js';
import { makeApi, serve, SERVER_KINDS, TOKENS, type ApiHarness, type RunningServer } from './support/api-harness.js';
import { call, get, post, type Answer } from './support/client.js';

const MAIN = 'profile_alpha_main';

function expectPayment(answer: Answer, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text));
  expect(paymentSchema.safeParse(answer.json).success).toBe(true);
}

describe.each(SERVER_KINDS)('both flows end to end, served by %s', (kind) => {
  let api: ApiHarness;
  let server: RunningServer;
  let origin: string;

  beforeAll(async () => {
    api = makeApi();
    server = await serve(kind, api);
    origin = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  /** Reads a payment back through both paths and checks they agree with `expected`. */
  async function readBack(token: string, created: { id: string; _links: { self: { href: string } } }) {
    const viaSelf = await get(`${origin}${created._links.self.href}`, token);
    const viaProfile = await get(`${server.base}/v1/profiles/${MAIN}/payments/${created.id}`, token);
    expectPayment(viaSelf, 200);
    expectPayment(viaProfile, 200);
    expect(viaSelf.text).toBe(viaProfile.text);
    return viaSelf.json;
  }

  it('hosted flow: 201 with Location, next.redirect to the hosted page, readable through both paths and the links', async () => {
    const created = await post(`${server.base}/v1/profiles/${MAIN}/payments`, TOKENS.alphaHosted, hostedRequest());
    expectPayment(created, 201);
    const payment = created.json;
    expect(payment.state).toBe('processing');
    expect(payment.next.redirect).toMatch(new RegExp(`^https://pay\\.sandbox\\.test/pay/${payment.id}\\?token=`));
    expect(payment._links).toEqual({
      self: {
        href: `${server.basePath}/v1/partners/partner_alpha/profiles/${MAIN}/payments/${payment.id}`,
        type: 'application/json',
      },
      profile: { href: `${server.basePath}/v1/partners/partner_alpha/profiles/${MAIN}`, type: 'application/json' },
    });
    expect(created.headers['location']).toBe(payment._links.self.href);
    expect(await readBack(TOKENS.alphaHosted, payment)).toEqual(payment);

    const profile = await get(`${origin}${payment._links.profile.href}`, TOKENS.alphaHosted);
    expect(profile.status).toBe(200);
    expect(profile.json).toEqual({
      id: MAIN,
      partner_id: 'partner_alpha',
      name: 'Alpha Shop',
      _links: { self: { href: payment._links.profile.href, type: 'application/json' } },
    });

    // The cardholder pays on the hosted page (the page itself is another issue): the API shows the outcome.
    const token = new URL(payment.next.redirect).searchParams.get('token') ?? '';
    const paid = await api.engine.submitCard({
      paymentId: payment.id,
      token,
      body: cardSubmission('4242424242424242'),
    });
    expect(paid.isOk()).toBe(true);
    const after = await readBack(TOKENS.alphaHosted, payment);
    expect(after.state).toBe('succeeded');
    expect(after.next).toBeUndefined();
    expect(after.creditcard.card.last4).toBe('4242');
  });

  it.each(SANDBOX_TEST_CARDS.map((card) => [card.number, card] as const))(
    'direct flow with test card %s',
    async (number, card) => {
      const created = await post(
        `${server.base}/v1/profiles/${MAIN}/payments`,
        TOKENS.alphaCompliant,
        directRequest(number),
      );
      expectPayment(created, 201);
      expect(created.text).not.toContain(number);
      let payment = created.json;
      const challenged = card.threeDS === 'challenge' || card.threeDS === 'frictionless_mismatch';
      if (challenged) {
        // Ends in processing with the issuer's page to visit.
        expect(payment.state).toBe('processing');
        expect(payment.next.redirect).toMatch(/^https:\/\/acs\.sandbox\.test\/challenge\//);
        const completed = await api.engine.completeChallenge(await api.challengeAnswer(payment.id, 'authorise'));
        expect(completed.isOk()).toBe(true);
        payment = await readBack(TOKENS.alphaCompliant, payment);
      }
      if (card.authorization.kind === 'timeout_then_approved') {
        expect(payment.state).toBe('processing');
        expect(payment.next).toBeUndefined();
        api.clock.advance(15_000);
        expect((await api.engine.sweep())._unsafeUnwrap().reconciled).toBeGreaterThanOrEqual(1);
        payment = await readBack(TOKENS.alphaCompliant, payment);
      }
      expect(payment.state).toBe(card.expected.state);
      if (card.expected.state === 'failed') expect(payment.failure_reason).toBe(card.expected.failureReason);
      expect(payment.next).toBeUndefined();
      expect(payment.creditcard.card.last4).toBe(number.slice(-4));
      const read = await readBack(TOKENS.alphaCompliant, payment);
      expect(read).toEqual(payment);
      expect(JSON.stringify(read)).not.toContain(number);
    },
  );

  it('a refused challenge fails the payment', async () => {
    const created = await post(
      `${server.base}/v1/profiles/${MAIN}/payments`,
      TOKENS.alphaCompliant,
      directRequest('4000000000003220'),
    );
    await api.engine.completeChallenge(await api.challengeAnswer(created.json.id, 'refuse'));
    const payment = await readBack(TOKENS.alphaCompliant, created.json);
    expect(payment).toMatchObject({ state: 'failed', failure_reason: 'authentication_refused' });
  });

  it('HEAD answers the headers of GET without a body', async () => {
    const created = await post(`${server.base}/v1/profiles/${MAIN}/payments`, TOKENS.alphaHosted, hostedRequest());
    const getAnswer = await get(`${origin}${created.json._links.self.href}`, TOKENS.alphaHosted);
    const head = await call(`${origin}${created.json._links.self.href}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${TOKENS.alphaHosted}` },
    });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(getAnswer.headers['content-length']);
  });
});

describe.each(SERVER_KINDS)('cursor pagination, served by %s', (kind) => {
  it('newest first, limit 1..100 (default 20), next_cursor until the last page', async () => {
    const api = makeApi();
    const server = await serve(kind, api);
    try {
      const collection = `${server.base}/v1/profiles/profile_alpha_second/payments`;
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) {
        const created = await post(collection, TOKENS.alphaSecondOnly, hostedRequest({ amount: i + 1 }));
        ids.push(created.json.id);
        api.clock.advance(1000);
      }
      const newestFirst = [...ids].reverse();

      const first = await get(collection, TOKENS.alphaSecondOnly);
      expect(first.status).toBe(200);
      expect(paymentListResourceSchema.strict().safeParse(first.json).success).toBe(true);
      expect(first.json.items.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(0, 20));
      const path = `${server.basePath}/v1/profiles/profile_alpha_second/payments`;
      expect(first.json._links).toEqual({
        self: { href: path, type: 'application/json' },
        next: { href: `${path}?after=${first.json.next_cursor}`, type: 'application/json' },
      });
      const second = await get(`${collection}?after=${first.json.next_cursor}`, TOKENS.alphaSecondOnly);
      expect(second.json.items.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(20));
      expect(second.json.next_cursor).toBeUndefined();
      expect(second.json._links).toEqual({
        self: { href: `${path}?after=${first.json.next_cursor}`, type: 'application/json' },
      });

      // Following _links.next from the first page walks the whole list, resolved against the
      // server's origin (the links are paths under the API root, mount prefix included).
      const followed: string[] = [];
      let link: string | undefined = `${path}?limit=6`;
      while (link !== undefined) {
        const page = await get(new URL(link, server.base).href, TOKENS.alphaSecondOnly);
        expect(page.status).toBe(200);
        followed.push(...page.json.items.map((p: { id: string }) => p.id));
        link = page.json._links.next?.href;
      }
      expect(followed).toEqual(newestFirst);

      const walked: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await get(
          `${collection}?limit=7${cursor === undefined ? '' : `&after=${cursor}`}`,
          TOKENS.alphaSecondOnly,
        );
        expect(page.json.items.length).toBeLessThanOrEqual(7);
        walked.push(...page.json.items.map((p: { id: string }) => p.id));
        cursor = page.json.next_cursor;
      } while (cursor !== undefined);
      expect(walked).toEqual(newestFirst);

      const all = await get(`${collection}?limit=100`, TOKENS.alphaSecondOnly);
      expect(all.json.items).toHaveLength(25);
      for (const item of all.json.items) {
        expect(item._links.self.href).toBe(
          `${server.basePath}/v1/partners/partner_alpha/profiles/profile_alpha_second/payments/${item.id}`,
        );
      }
      const other = await get(`${server.base}/v1/profiles/profile_alpha_main/payments`, TOKENS.alphaCompliant);
      expect(other.json).toEqual({
        items: [],
        _links: {
          self: { href: `${server.basePath}/v1/profiles/profile_alpha_main/payments`, type: 'application/json' },
        },
      });
    } finally {
      await server.close();
    }
  });
});
