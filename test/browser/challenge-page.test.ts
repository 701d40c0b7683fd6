import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserFixture } from './support/browser-fixture.js';
import { HAS_CHROMIUM } from './support/chromium.js';
import { createDirect, createHosted, PCI_TOKEN, readPayment, typeCard } from './support/flow.js';

describe.skipIf(!HAS_CHROMIUM)('the simulated issuer challenge in Chromium', () => {
  const fx = useBrowserFixture();

  /** Pays a hosted payment with a challenge card and waits for the issuer page. */
  async function toIssuerPage(page: Page, order: string) {
    const payment = await createHosted(fx.server, fx.returnUrl(order));
    await page.goto(payment.next.redirect);
    await typeCard(page, '4000000000003220');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL(/\/sandbox\/issuer\/challenge\//);
    return payment;
  }

  it('hosted flow, challenge authorised: the issuer page shows the payment, the browser lands at the redirect URL', async () => {
    const { page, errors } = await fx.open();
    const payment = await toIssuerPage(page, 'authorised');
    expect(page.url()).toMatch(
      new RegExp(
        `/sandbox/issuer/challenge/${payment.id}/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`,
      ),
    );
    const details = await page.locator('dl').innerText();
    expect(details).toContain('Sandbox Webshop');
    expect(details).toContain('€19.99');
    expect(details).toContain('Visa •••• 3220');
    expect(await page.content()).not.toMatch(/4000 ?0000 ?0000 ?3220/);
    const waiting = await readPayment(fx.server, payment.id);
    expect(waiting.state).toBe('processing');
    expect(waiting.next.redirect).toBe(page.url());

    await page.getByRole('button', { name: 'Authorise' }).click();
    await page.waitForURL(fx.atMerchant('authorised'));
    const read = await readPayment(fx.server, payment.id);
    expect(read.state).toBe('succeeded');
    expect(read.next).toBeUndefined();
    const record = (await fx.server.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
    expect(record.threeDS).toMatchObject({ flow: 'challenge', transStatus: 'Y', liabilityShift: true });
    expect(errors).toEqual([]);
  });

  it('hosted flow, challenge refused: the browser lands at the redirect URL; the record says failed', async () => {
    const { page } = await fx.open({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
    const payment = await toIssuerPage(page, 'refused');
    await page.getByRole('button', { name: 'Refuse' }).click();
    await page.waitForURL(fx.atMerchant('refused'));
    expect(await readPayment(fx.server, payment.id)).toMatchObject({
      state: 'failed',
      failure_reason: 'authentication_refused',
    });
    expect(fx.server.acquirer.authorizeCalls(payment.id)).toBe(0);
  });

  it('direct flow challenge: the next.redirect of the create answer is the same issuer page', async () => {
    const { page, errors } = await fx.open();
    const payment = await createDirect(fx.server, '4000000000003220', fx.returnUrl('direct'));
    expect(payment.state).toBe('processing');
    await page.goto(payment.next.redirect);
    await expect(page.locator('dl').innerText()).resolves.toContain('Visa •••• 3220');
    await page.getByRole('button', { name: 'Authorise' }).click();
    await page.waitForURL(fx.atMerchant('direct'));
    expect((await readPayment(fx.server, payment.id, PCI_TOKEN)).state).toBe('succeeded');
    expect(errors).toEqual([]);
  });

  it('going back to the hosted page after the challenge shows the finished payment, not the form', async () => {
    const { page } = await fx.open();
    const payment = await toIssuerPage(page, 'back');
    await page.getByRole('button', { name: 'Authorise' }).click();
    await page.waitForURL(fx.atMerchant('back'));
    await page.goto(payment.next.redirect);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Payment complete');
    await expect(page.getByRole('link', { name: 'Return to Sandbox Webshop' }).getAttribute('href')).resolves.toBe(
      fx.returnUrl('back'),
    );
    expect(await page.locator('#card-form').count()).toBe(0);
  });
});
