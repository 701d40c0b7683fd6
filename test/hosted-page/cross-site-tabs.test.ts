import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserFixture } from '../browser/support/browser-fixture.js';
import { HAS_CHROMIUM } from '../browser/support/chromium.js';
import { createHosted, readPayment, typeCard } from '../browser/support/flow.js';
import { formTarget } from './support/page-session.js';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The merchant's checkout on `http://localhost:{port}`, another site than the sandbox's
 * `http://127.0.0.1:{port}`: `/link?to=URL` is a page with a link to the payment page,
 * `/redirect?to=URL` answers 303 to it, and `/post?to=URL&…` is a page whose button posts the
 * other query fields to URL.
 */
async function startCheckout(): Promise<{ base: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const to = url.searchParams.get('to') ?? '';
    if (url.pathname === '/redirect') {
      res.writeHead(303, { location: to, 'content-length': 0 });
      res.end();
      return;
    }
    let body = '<!doctype html><html lang="en"><title>Checkout</title>';
    if (url.pathname === '/link') {
      body += `<a id="pay" href="${escapeHtml(to)}">Pay now</a>`;
    } else {
      const inputs = [...url.searchParams]
        .filter(([name]) => name !== 'to')
        .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
        .join('');
      body += `<form method="post" action="${escapeHtml(to)}">${inputs}<button id="send">Send</button></form>`;
    }
    body += '</html>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(!HAS_CHROMIUM)('the hosted page opened from another site, in Chromium', () => {
  const fx = useBrowserFixture();
  let checkout: Awaited<ReturnType<typeof startCheckout>> | undefined;

  beforeAll(async () => {
    checkout = await startCheckout();
  });
  afterAll(async () => {
    await checkout?.close();
  });

  const checkoutBase = () => {
    if (checkout === undefined) throw new Error('the checkout server is not started');
    return checkout.base;
  };

  /** Follows the merchant's link to the payment page: a cross-site top-level navigation. */
  async function followLink(page: Page, paymentUrl: string) {
    await page.goto(`${checkoutBase()}/link?to=${encodeURIComponent(paymentUrl)}`);
    const arrival = page.waitForRequest((request) => request.url() === paymentUrl);
    await page.locator('#pay').click();
    const request = await arrival;
    await page.waitForURL(paymentUrl);
    return request;
  }

  const csrfCookie = async (page: Page) =>
    (await page.context().cookies()).find((cookie) => cookie.name === 'paystate_csrf');

  it('opening a second payment page from the merchant keeps the first tab payable', async () => {
    const { page: tabA, errors } = await fx.open();
    const p1 = await createHosted(fx.server, fx.returnUrl('tab-a'));
    const p2 = await createHosted(fx.server, fx.returnUrl('tab-b'));
    expect(new URL(p1.next.redirect).hostname).toBe('127.0.0.1');

    const first = await followLink(tabA, p1.next.redirect);
    const nonce = await csrfCookie(tabA);
    await typeCard(tabA, '4242424242424242');

    // Tab B: the same browser opens another payment, once by a link and once by a redirect.
    const tabB = await tabA.context().newPage();
    const second = await followLink(tabB, p2.next.redirect);
    await tabB.goto(`${checkoutBase()}/redirect?to=${encodeURIComponent(p2.next.redirect)}`);
    await tabB.waitForURL(p2.next.redirect);
    const nonceAfter = await csrfCookie(tabA);

    // Tab A's submit still counts (with a Strict cookie it got 403 "Please try again").
    await tabA.bringToFront();
    const submitted = tabA.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url() === formTarget(p1.next.redirect),
    );
    await tabA.getByRole('button', { name: /^Pay/ }).click();
    expect((await submitted).status()).toBe(303);
    await tabA.waitForURL(fx.atMerchant('tab-a'));
    expect((await readPayment(fx.server, p1.id)).state).toBe('succeeded');

    // Both arrivals were cross-site; the second carried the cookie, so the nonce was kept.
    expect(await first.headerValue('sec-fetch-site')).toBe('cross-site');
    expect(await second.headerValue('sec-fetch-site')).toBe('cross-site');
    expect(nonce).toMatchObject({ sameSite: 'Lax', httpOnly: true });
    expect(await second.headerValue('cookie')).toContain(`paystate_csrf=${nonce?.value}`);
    expect(nonceAfter?.value).toBe(nonce?.value);

    // Tab B's form is still good too.
    await tabB.bringToFront();
    await typeCard(tabB, '4242424242424242');
    await tabB.getByRole('button', { name: /^Pay/ }).click();
    await tabB.waitForURL(fx.atMerchant('tab-b'));
    expect((await readPayment(fx.server, p2.id)).state).toBe('succeeded');
    expect(errors).toEqual([]);
  });

  it('a cross-site POST gets no CSRF cookie and is refused, even with a valid proof', async () => {
    const { page } = await fx.open();
    const payment = await createHosted(fx.server, fx.returnUrl('cross-post'));
    await followLink(page, payment.next.redirect);
    expect(await csrfCookie(page)).toBeDefined();
    const token = await page.locator('input[name="token"]').inputValue();
    const csrf = await page.locator('input[name="csrf"]').inputValue();

    const target = formTarget(payment.next.redirect);
    const query = new URLSearchParams({
      to: target,
      token,
      csrf,
      number: '4242 4242 4242 4242',
      expiry: '12/30',
      cvc: '123',
      holder_name: 'Ada Lovelace',
    });
    await page.goto(`${checkoutBase()}/post?${query.toString()}`);
    const posted = page.waitForRequest((request) => request.url() === target && request.method() === 'POST');
    const answered = page.waitForResponse((response) => response.url() === target);
    await page.locator('#send').click();
    const request = await posted;
    expect(await request.headerValue('sec-fetch-site')).toBe('cross-site');
    expect((await request.headerValue('cookie')) ?? '').not.toContain('paystate_csrf=');
    expect((await answered).status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'Please try again' }).isVisible()).resolves.toBe(true);
    expect((await readPayment(fx.server, payment.id)).state).toBe('processing');
  });
});
