import { describe, expect, it, vi } from 'vitest';
import { createSandboxApp } from '../../adapters/sandbox-server/index.js';
import { directRequest } from '../support/requests.js';
import { collectingLogger } from './support/collecting-logger.js';

// On a loopback address, as the sandbox runs: over http the engine takes a challenge URL (the
// issuer page's) only for localhost and loopback addresses.
const BASE = 'http://127.0.0.1:3000';
const PCI_TOKEN = 'sandbox_pci_compliant_token';

/** The sandbox (hosted page and issuer page) as a fetch handler, with a logger that keeps every call. */
function sandbox() {
  const { logger, lines } = collectingLogger();
  return { app: createSandboxApp({ baseUrl: () => BASE, logger }), lines };
}

/** A direct-flow payment with a challenge card: its `next.redirect` is the issuer's challenge page. */
async function challengeUrl(app: ReturnType<typeof sandbox>['app']): Promise<string> {
  const created = await app.handler(
    new Request(`${BASE}/v1/profiles/profile_webshop/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PCI_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(directRequest('4000000000003220')),
    }),
  );
  expect(created.status).toBe(201);
  const payment = (await created.json()) as { state: string; next: { redirect: string } };
  expect(payment.next.redirect).toContain('/sandbox/issuer/challenge/');
  return payment.next.redirect;
}

/** What every answer of a card page carries, whatever its status (found by a reviewing helper). */
function expectPageHeaders(answer: Response) {
  expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(answer.headers.get('x-frame-options')).toBe('DENY');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
}

describe('error answers of the card pages carry the page security headers (found by a reviewing helper)', () => {
  it.each(['PUT', 'DELETE', 'OPTIONS', 'PATCH'])('405 of the hosted page for %s', async (method) => {
    const { app } = sandbox();
    const answer = await app.handler(new Request(`${BASE}/pay/payment_0123456789abcdef0123456789abcdef`, { method }));
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST');
    expectPageHeaders(answer);
  });

  it.each(['PUT', 'DELETE', 'OPTIONS', 'PATCH'])('405 of the issuer page for %s', async (method) => {
    const { app } = sandbox();
    const url = await challengeUrl(app);
    const answer = await app.handler(new Request(url, { method }));
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST');
    expectPageHeaders(answer);
  });

  it('the issuer page answers a store that throws with its own HTML page, not the API problem document', async () => {
    const { app, lines } = sandbox();
    const url = await challengeUrl(app);
    vi.spyOn(app.credentials, 'findProfile').mockRejectedValue(new Error('connection reset by 4242424242424242'));
    for (const method of ['GET', 'HEAD']) {
      const answer = await app.handler(new Request(url, { method }));
      expect(answer.status).toBe(503);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expectPageHeaders(answer);
      if (method === 'GET') expect(await answer.text()).toContain('Something went wrong');
    }
    expect(lines.join('\n')).toContain('sandbox issuer: unexpected error');
    expect(lines.join('\n')).not.toContain('4242424242424242');
  });
});
