import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserFixture } from './support/browser-fixture.js';
import { HAS_CHROMIUM } from './support/chromium.js';
import { createHosted, readPayment, typeCard } from './support/flow.js';

describe.skipIf(!HAS_CHROMIUM)('the hosted payment page in Chromium', () => {
  const fx = useBrowserFixture({ timezoneId: 'Asia/Tokyo' });

  /** Opens a new hosted payment's page; the merchant tells payments apart by `order`. */
  async function hostedPage(page: Page, order: string) {
    const payment = await createHosted(fx.server, fx.returnUrl(order));
    await page.goto(payment.next.redirect);
    return payment;
  }

  it('no-3DS card: shows progress, pays, lands at the redirect URL; the page script sent the browser data', async () => {
    const { page, errors } = await fx.open();
    const payment = await hostedPage(page, 'no-3ds');
    await expect(page.getByText('Sandbox Webshop').first().isVisible()).resolves.toBe(true);
    await expect(page.locator('.amount').textContent()).resolves.toBe('€19.99');
    await typeCard(page, '4242424242424242');
    await expect(page.getByLabel('Card number').inputValue()).resolves.toBe('4242 4242 4242 4242');
    await expect(page.locator('#number-scheme').textContent()).resolves.toBe('Visa');
    await expect(page.getByLabel('Expiry').inputValue()).resolves.toBe('12/30');

    // The page reports what it shows once the submit has started; the post is held meanwhile so
    // that the page has time to show it (Playwright cannot query a frame in mid-navigation).
    const progress = new Promise<Record<string, unknown>>((resolve) => {
      void page.exposeFunction('reportProgress', resolve);
    });
    await page.evaluate(() => {
      const form = document.getElementById('card-form') as HTMLFormElement;
      form.addEventListener('submit', () =>
        setTimeout(() => {
          const report = (window as unknown as { reportProgress(value: unknown): void }).reportProgress;
          report({
            busy: form.getAttribute('aria-busy'),
            status: document.getElementById('pay-status')?.textContent,
            spinner: getComputedStyle(document.querySelector('.spinner') as Element).display !== 'none',
            readOnly: (document.getElementById('number') as HTMLInputElement).readOnly,
          });
        }, 50),
      );
    });
    await page.route(`**/pay/${payment.id}`, async (route) => {
      await progress;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Pay €19.99' }).click();
    expect(await progress).toEqual({
      busy: 'true',
      status: 'Processing your payment. This can take a few seconds; please keep this page open.',
      spinner: true,
      readOnly: true,
    });
    await page.waitForURL(fx.atMerchant('no-3ds'));

    const read = await readPayment(fx.server, payment.id);
    expect(read.state).toBe('succeeded');
    expect(read.creditcard.card).toMatchObject({ scheme: 'visa', last4: '4242' });
    const record = (await fx.server.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
    expect(record.browser).toMatchObject({
      ip_address: '127.0.0.1',
      javascript_enabled: true,
      java_enabled: false,
      language: 'en-GB',
      timezone_offset: -540,
      screen_width: 1280,
      screen_height: 720,
      color_depth: 24,
    });
    expect(record.browser?.user_agent).toContain('Chrome');
    expect(record.browser?.accept).toContain('text/html');
    expect(record.browser?.accept_language).toContain('en-GB');
    expect(errors).toEqual([]);
  });

  it('frictionless card: 3DS runs without the cardholder, the browser lands at the redirect URL', async () => {
    const { page, errors } = await fx.open();
    const payment = await hostedPage(page, 'frictionless');
    await typeCard(page, '4000000000003055');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL(fx.atMerchant('frictionless'));
    expect((await readPayment(fx.server, payment.id)).state).toBe('succeeded');
    const record = (await fx.server.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
    expect(record.threeDS).toMatchObject({ flow: 'frictionless', transStatus: 'Y', eci: '05' });
    expect(errors).toEqual([]);
  });

  it('declined card: the browser still lands at the redirect URL; the record says failed', async () => {
    const { page } = await fx.open();
    const payment = await hostedPage(page, 'declined');
    await typeCard(page, '4000000000000002');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL(fx.atMerchant('declined'));
    expect(await readPayment(fx.server, payment.id)).toMatchObject({ state: 'failed', failure_reason: 'declined' });
  });

  it('invalid number: caught inline with a clear message, nothing is posted', async () => {
    const { page, errors } = await fx.open();
    const payment = await hostedPage(page, 'invalid');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await typeCard(page, '4242424242424241');
    const number = page.getByLabel('Card number');
    await expect(number.getAttribute('aria-invalid')).resolves.toBe('true');
    const message = page.locator('#number-error');
    await expect(message.textContent()).resolves.toBe('This card number is not valid. Check it for typing mistakes.');
    await expect(message.isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: /^Pay/ }).click();
    await expect(number.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await expect(page.locator('#pay-status').textContent()).resolves.toBe('One field needs your attention.');
    expect(posts).toEqual([]);
    expect(page.url()).toBe(payment.next.redirect);
    const read = await readPayment(fx.server, payment.id);
    expect(read.state).toBe('processing');
    expect(read.next.redirect).toBe(payment.next.redirect);

    // Correcting the number clears the message as it is typed.
    await number.fill('');
    await number.pressSequentially('4242424242424242');
    await expect(number.getAttribute('aria-invalid')).resolves.toBe('false');
    await expect(message.isVisible()).resolves.toBe(false);
    expect(errors).toEqual([]);
  });

  it('a click on Pay straight from an invalid field lands: the message does not move the button away', async () => {
    const { page } = await fx.open();
    await hostedPage(page, 'click-from-field');
    await page.getByLabel('Card number').pressSequentially('4242424242424241');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await expect(page.locator('#pay-status').textContent()).resolves.toBe('4 fields need your attention.');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('number');
    await expect(page.locator('#holder_name-error').textContent()).resolves.toBe(
      'Enter the name as it is printed on the card.',
    );
  });

  it('checks the expiry and the CVC length for the detected scheme', async () => {
    const { page } = await fx.open();
    await hostedPage(page, 'checks');
    await page.getByLabel('Card number').pressSequentially('378282246310005');
    await expect(page.locator('#number-scheme').textContent()).resolves.toBe('Amex');
    await expect(page.getByLabel('Card number').inputValue()).resolves.toBe('3782 822463 10005');
    await page.getByLabel('Expiry').pressSequentially('0120');
    await page.getByLabel('Security code').pressSequentially('123');
    await page.getByLabel('Name on card').focus();
    await expect(page.locator('#expiry-error').textContent()).resolves.toBe('This card has expired. Use another card.');
    await expect(page.locator('#cvc-error').textContent()).resolves.toBe(
      'Enter the 4-digit security code from the front of your card.',
    );
  });

  it('works with the keyboard alone, at phone width, without horizontal scrolling', async () => {
    const { page } = await fx.open({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
    const payment = await hostedPage(page, 'phone');
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(375);
    await page.getByLabel('Card number').focus();
    await page.keyboard.type('4242424242424242');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1230');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('pay-button');
    await page.keyboard.press('Enter');
    await page.waitForURL(fx.atMerchant('phone'));
    expect((await readPayment(fx.server, payment.id)).state).toBe('succeeded');
  });

  it('works without JavaScript: a plain form post, with server-side defaults for the browser data', async () => {
    const { page } = await fx.open({ javaScriptEnabled: false });
    const payment = await hostedPage(page, 'no-js');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry').fill('12/30');
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Name on card').fill('Ada Lovelace');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL(fx.atMerchant('no-js'));
    expect((await readPayment(fx.server, payment.id)).state).toBe('succeeded');
    const record = (await fx.server.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
    expect(record.browser).toMatchObject({ javascript_enabled: false, screen_width: 1024, language: 'en-GB' });
  });

  it('without JavaScript, invalid fields come back from the server with the same messages', async () => {
    const { page } = await fx.open({ javaScriptEnabled: false });
    await hostedPage(page, 'no-js-invalid');
    await page.getByLabel('Card number').fill('4242 4242 4242 4241');
    await page.getByLabel('Expiry').fill('12/30');
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Name on card').fill('Ada Lovelace');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForLoadState();
    // The error summary; the page's other alert, the time warning, is empty until the time runs short.
    const summary = page.getByRole('alert').filter({ hasText: 'Please check the card details' });
    await expect(summary.textContent()).resolves.toContain('This card number is not valid');
    await expect(page.getByLabel('Card number').inputValue()).resolves.toBe('');
    await expect(page.getByLabel('Name on card').inputValue()).resolves.toBe('Ada Lovelace');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('number');
  });

  it('a double click posts once', async () => {
    const { page } = await fx.open();
    const payment = await hostedPage(page, 'double');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await typeCard(page, '4242424242424242');
    await page.getByRole('button', { name: /^Pay/ }).dblclick();
    await page.waitForURL(fx.atMerchant('double'));
    expect(posts).toHaveLength(1);
    expect(fx.server.acquirer.authorizeCalls(payment.id)).toBe(1);
  });

  it('cannot be framed', async () => {
    const { page, errors } = await fx.open();
    const payment = await createHosted(fx.server, `${fx.merchant.returnUrl}?order=frame`);
    await page.goto(`${fx.merchant.returnUrl}?order=frame-host`);
    await page.setContent(`<iframe src="${payment.next.redirect}"></iframe>`, { waitUntil: 'load' });
    expect(errors.join('\n')).toContain('frame-ancestors');
    const frame = page.frames().find((f) => f !== page.mainFrame());
    const framed = frame === undefined ? '' : await frame.content().catch(() => '');
    expect(framed).not.toContain('card-form');
  });
});
