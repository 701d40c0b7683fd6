import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../support/cli-process.js';
import { axeViolations } from './support/axe.js';
import { HAS_CHROMIUM, launchChromium } from './support/chromium.js';
import { typeCard, watchForErrors } from './support/flow.js';

const run = promisify(execFile);

/**
 * Found by a new user: the demo's payments returned to https://example.com/return, an error page
 * offline. They return to the sandbox's own page now, which shows how the payment ended. The demo
 * flow as a newcomer follows it: `paystate demo`, its printed curl command, the hosted page (and the
 * issuer's), in Chromium.
 */
describe.skipIf(!HAS_CHROMIUM)('the demo flow ends on the sandbox return page', () => {
  let browser: Browser | undefined;
  let demo: CliProcess | undefined;
  let page: Page | undefined;

  beforeAll(async () => {
    demo = startCli(['demo', '--port', '0']);
    [browser] = await Promise.all([launchChromium(), demo.waitFor('Press Ctrl+C to stop.')]);
  });
  afterAll(async () => {
    demo?.child.kill('SIGTERM');
    await Promise.all([browser?.close(), demo?.exited]);
  });
  afterEach(async () => {
    await page?.context().close();
  });

  const base = () => /listening on (http:\/\/\S+)/.exec(demo?.stdout() ?? '')?.[1] ?? '';

  /** Runs the hosted payment's curl command the demo printed, and opens its hosted page. */
  async function openHostedPayment(): Promise<{ id: string; errors: string[] }> {
    const command = /^curl -sS -X POST[\s\S]*?-d '[^']*'$/m.exec(demo?.stdout() ?? '')?.[0] ?? '';
    expect(command).toContain(`"redirect_url":"${base()}/sandbox/return"`);
    const payment = JSON.parse((await run('bash', ['-c', command])).stdout) as {
      id: string;
      next: { redirect: string };
    };
    const context = await (browser as Browser).newContext({ locale: 'en-GB' });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors = watchForErrors(page);
    await page.goto(payment.next.redirect);
    return { id: payment.id, errors };
  }

  /** The payment as the API reads it, with the token the demo printed. */
  async function apiState(id: string): Promise<unknown> {
    const answer = await fetch(`${base()}/v1/profiles/profile_webshop/payments/${id}`, {
      headers: { authorization: 'Bearer sandbox_hosted_only_token' },
    });
    return ((await answer.json()) as { state: unknown }).state;
  }

  const atReturnPage = (url: URL) => url.pathname === '/sandbox/return';

  it('a test card: the hosted page returns to the page, which shows the payment succeeded, and passes axe', async () => {
    const { id, errors } = await openHostedPayment();
    const shown = page as Page;
    await typeCard(shown, '4242424242424242');
    await shown.getByRole('button', { name: /^Pay/ }).click();
    await shown.waitForURL(atReturnPage);
    expect(new URL(shown.url()).searchParams.get('payment_id')).toBe(id);
    await expect(shown.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Payment succeeded');
    await expect(shown.locator('#payment-state').textContent()).resolves.toBe(await apiState(id));
    await expect(shown.locator('.amount').textContent()).resolves.toBe('€19.99');
    expect(await axeViolations(shown)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a challenge the issuer declines: the issuer page returns to it, which shows the failure and its reason', async () => {
    const { id, errors } = await openHostedPayment();
    const shown = page as Page;
    await typeCard(shown, '4000008260003178');
    await shown.getByRole('button', { name: /^Pay/ }).click();
    await shown.getByRole('button', { name: 'Authorise' }).click();
    await shown.waitForURL(atReturnPage);
    await expect(shown.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Payment failed');
    await expect(shown.locator('#payment-state').textContent()).resolves.toBe(await apiState(id));
    await expect(shown.locator('.facts').textContent()).resolves.toContain('insufficient_funds');
    expect(await axeViolations(shown)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('the hosted page’s Cancel link: a page that names no payment, which passes axe too', async () => {
    const { errors } = await openHostedPayment();
    const shown = page as Page;
    await shown.getByRole('link', { name: /^Cancel and return/ }).click();
    await shown.waitForURL(atReturnPage);
    await expect(shown.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Back from the payment page');
    expect(await axeViolations(shown)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
