import { describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../adapters/sandbox-server/index.js';
import { createReturnLinks, RETURN_PATH } from '../../adapters/http/sandbox-pages/return-links.js';
import { directRequest } from '../support/requests.js';

const BASE = 'http://127.0.0.1:4010';
const RETURN_URL = `${BASE}${RETURN_PATH}`;

/** A sandbox app (not listening) with one direct payment of card `number`, returning to its return page. */
async function withPayment(number = '4242424242424242') {
  const app = createSandboxApp({ baseUrl: () => BASE });
  const created = await app.handler(
    new Request(`${BASE}/v1/profiles/profile_webshop/payments`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox_pci_compliant_token', 'content-type': 'application/json' },
      body: JSON.stringify(directRequest(number, { session: { redirect_url: RETURN_URL } })),
    }),
  );
  expect(created.status).toBe(201);
  const payment = (await created.json()) as { id: string; state: string };
  const links = createReturnLinks(app.secrets.csrf, app.baseUrl);
  const page = async (query: string, init: RequestInit = {}) => {
    const answer = await app.handler(new Request(`${RETURN_URL}${query}`, init));
    return { status: answer.status, headers: answer.headers, text: await answer.text() };
  };
  return { app, payment, links, page };
}

describe('the sandbox return page', () => {
  it('shows the payment the proof names, as the API reads it: state, amount, profile; nothing of the cardholder', async () => {
    const { payment, links, page } = await withPayment();
    const shown = await page(`?payment_id=${payment.id}&proof=${links.proof(payment.id)}`);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<h1 id="page-title">Payment succeeded</h1>');
    expect(shown.text).toContain('<dd id="payment-state">succeeded</dd>');
    expect(shown.text).toContain(payment.id);
    expect(shown.text).toContain('€19.99');
    expect(shown.text).toContain('Sandbox Webshop');
    for (const personal of ['Ada', 'Lovelace', 'ada@example.com', 'Damrak', '4242', 'holder']) {
      expect(shown.text, personal).not.toContain(personal);
    }
    // The hosted page's headers: its own style sheet only, no referrer (the URL holds the proof), never cached.
    expect(shown.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
    expect(shown.headers.get('cache-control')).toBe('no-store');
    expect(shown.headers.get('x-frame-options')).toBe('DENY');
  });

  it('a failed payment says why, as the API does (failure_reason)', async () => {
    const { payment, links, page } = await withPayment('4000000000000002');
    const shown = await page(`?payment_id=${payment.id}&proof=${links.proof(payment.id)}`);
    expect(shown.text).toContain('<dd id="payment-state">failed</dd>');
    expect(shown.text).toMatch(/<dt>Failure reason<\/dt>\s*<dd>declined<\/dd>/);
  });

  it('shows nothing of a payment without its proof: a payment id is no secret', async () => {
    const { payment, links, page } = await withPayment();
    const other = await withPayment();
    for (const query of [
      `?payment_id=${payment.id}`,
      `?payment_id=${payment.id}&proof=`,
      `?payment_id=${payment.id}&proof=${links.proof('payment_0123456789abcdef0123456789abcdef')}`,
      `?payment_id=${payment.id}&proof=${other.links.proof(payment.id)}`,
      `?proof=${links.proof(payment.id)}`,
    ]) {
      const refused = await page(query);
      expect({ query, status: refused.status }).toEqual({ query, status: 404 });
      expect(refused.text).not.toContain('€19.99');
      expect(refused.text).not.toContain('succeeded');
      expect(refused.text).not.toContain('Sandbox Webshop');
    }
    // The "Cancel" link of the hosted page comes back without a payment.
    const cancelled = await page('');
    expect(cancelled.status).toBe(200);
    expect(cancelled.text).toContain('No payment is named here');
    expect((await page('', { method: 'POST' })).status).toBe(405);
  });
});

describe('return links', () => {
  const links = createReturnLinks('x'.repeat(32), () => BASE);
  const seeOther = (location: string) =>
    new Response(null, { status: 303, headers: { location, 'request-id': 'req_1' } });

  it('name the payment, with its proof, in a redirect of its hosted or issuer page to this sandbox’s return page', () => {
    const id = 'payment_0123456789abcdef0123456789abcdef';
    for (const page of [`/pay/${id}`, `/sandbox/issuer/challenge/${id}/tx-1`]) {
      const stamped = links.stamp(new Request(`${BASE}${page}`, { method: 'POST' }), seeOther(`${RETURN_URL}?order=7`));
      const location = new URL(stamped.headers.get('location') ?? '');
      expect(stamped.status).toBe(303);
      expect(stamped.headers.get('request-id')).toBe('req_1');
      expect([...location.searchParams]).toEqual([
        ['order', '7'],
        ['payment_id', id],
        ['proof', links.proof(id)],
      ]);
      expect(links.verify(id, location.searchParams.get('proof') ?? '')).toBe(true);
    }
  });

  it('leave any other answer alone: another site, another path, another page, no redirect', () => {
    const pay = new Request(`${BASE}/pay/payment_0123456789abcdef0123456789abcdef`, { method: 'POST' });
    for (const [request, answer] of [
      [pay, seeOther('https://shop.example/sandbox/return')],
      [pay, seeOther(`${BASE}/sandbox/returned`)],
      [pay, seeOther(`${BASE}/sandbox/issuer/challenge/p/t`)],
      [new Request(`${BASE}/v1/profiles/p/payments`), seeOther(RETURN_URL)],
      [pay, new Response('page', { status: 200, headers: { location: RETURN_URL } })],
    ] as const) {
      expect(links.stamp(request, answer)).toBe(answer);
    }
  });
});
