/**
 * `npm run screenshots`: screenshots of the hosted payment page and of the sandbox issuer's
 * challenge page, at desktop (1280x800) and phone (375x812) width, into docs/screenshots/.
 * Needs Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startSandboxServer, type SandboxServer } from '../adapters/sandbox-server/index.js';
import { CHROMIUM_PATH, HAS_CHROMIUM, launchChromium } from '../test/browser/support/chromium.js';

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots');
const VIEWPORTS = {
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  phone: { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
} as const;

const contact = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  address: { thoroughfare: 'Damrak 1', locality: 'Amsterdam', postal_code: '1012 LG', country: 'NL' },
};

async function hostedPayment(server: SandboxServer): Promise<string> {
  const response = await fetch(`${server.url}/v1/profiles/profile_webshop/payments`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer sandbox_hosted_only_token',
      'content-type': 'application/json',
      accept: 'application/json',
    },
    body: JSON.stringify({
      description: 'Order #1042 · Linen shirt, size M',
      method: 'creditcard',
      currency: 'EUR',
      amount: 4990,
      billing: contact,
      shipping: contact,
      session: { redirect_url: 'https://shop.example.com/checkout/return' },
    }),
  });
  const payment = (await response.json()) as { next: { redirect: string } };
  return payment.next.redirect;
}

async function fillCard(page: Page, number: string): Promise<void> {
  await page.locator('#number').pressSequentially(number);
  await page.locator('#expiry').pressSequentially('1230');
  await page.locator('#cvc').fill('123');
  await page.locator('#holder_name').fill('Ada Lovelace');
}

async function shoot(browser: Browser, server: SandboxServer, name: keyof typeof VIEWPORTS): Promise<void> {
  const context = await browser.newContext(VIEWPORTS[name]);
  try {
    const page = await context.newPage();
    await page.goto(await hostedPayment(server));
    await fillCard(page, '4242424242424242');
    await page.locator('#holder_name').blur();
    await page.screenshot({ path: join(OUT, `hosted-page-${name}.png`), fullPage: true });

    await page.goto(await hostedPayment(server));
    await fillCard(page, '4000000000003220');
    await Promise.all([page.waitForURL(/\/sandbox\/issuer\/challenge\//), page.locator('#pay-button').click()]);
    await page.screenshot({ path: join(OUT, `challenge-page-${name}.png`), fullPage: true });
  } finally {
    await context.close();
  }
}

if (!HAS_CHROMIUM) {
  console.error(`No Chromium at ${CHROMIUM_PATH}: install it (apt-get install chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}
mkdirSync(OUT, { recursive: true });
const server = await startSandboxServer({ port: 0 });
const browser = await launchChromium();
try {
  for (const name of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) await shoot(browser, server, name);
  console.log(`Screenshots written to ${OUT}`);
} finally {
  await browser.close();
  await server.close();
}
