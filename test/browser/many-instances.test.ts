import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../http/support/client.js';
import { startTestDatabase, type TestDatabase } from '../postgres/support/embedded-postgres.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../postgres/support/round-robin-proxy.js';
import {
  sandboxFiles,
  startInstance,
  stopInstance,
  type SandboxInstance,
} from '../postgres/support/sandbox-instances.js';
import { hostedRequest } from '../support/requests.js';
import { HAS_CHROMIUM, launchChromium } from './support/chromium.js';
import { HOSTED_TOKEN, readPayment, typeCard } from './support/flow.js';
import { startMerchantServer, type MerchantServer } from './support/merchant-server.js';

/*
 * Two `paystate demo` processes on one Postgres behind a load balancer without sticky sessions:
 * the cardholder's browser (real Chromium) pays with a challenge card, its requests landing on
 * either instance, and one instance may die while the cardholder is on the issuer's page.
 */
describe.skipIf(!HAS_CHROMIUM)('two sandbox instances behind a round-robin load balancer, in Chromium', () => {
  let database: TestDatabase;
  let proxy: RoundRobinProxy;
  let merchant: MerchantServer;
  let browser: Browser;
  const instances: SandboxInstance[] = [];

  beforeAll(async () => {
    [database, proxy, merchant, browser] = await Promise.all([
      startTestDatabase(),
      startRoundRobinProxy(),
      startMerchantServer(),
      launchChromium(),
    ]);
    const files = sandboxFiles(database.connectionString, { sweep_interval_ms: 200 });
    for (const name of ['A', 'B']) instances.push(await startInstance(name, files, proxy.url));
    proxy.backends = instances.map((instance) => instance.url);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => stopInstance(instance, 'SIGKILL')));
    await Promise.all([browser?.close(), proxy?.close(), merchant?.close()]);
    await database?.close();
  });

  /** A hosted payment created through the load balancer, paid with the challenge card up to the issuer's page. */
  async function toIssuerPage(order: string) {
    const created = await post(
      `${proxy.url}/v1/profiles/profile_webshop/payments`,
      HOSTED_TOKEN,
      hostedRequest({ session: { redirect_url: `${merchant.returnUrl}?order=${order}` } }),
    );
    expect(created.status).toBe(201);
    const payment = created.json as { id: string; next: { redirect: string } };
    expect(payment.next.redirect.startsWith(`${proxy.url}/pay/`)).toBe(true);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(payment.next.redirect);
    await typeCard(page, '4000000000003220');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL(/\/sandbox\/issuer\/challenge\//);
    expect(page.url().startsWith(proxy.url)).toBe(true);
    return { payment, page, context };
  }

  it('pays with a challenge while its requests land on both instances', async () => {
    proxy.served.clear();
    const { payment, page, context } = await toIssuerPage('both');
    await page.reload();
    await page.getByRole('button', { name: 'Authorise' }).click();
    await page.waitForURL((url) => url.search === '?order=both');
    await context.close();
    for (const instance of instances) expect(proxy.served.get(instance.url) ?? 0).toBeGreaterThan(0);
    const server = { url: proxy.url } as Parameters<typeof readPayment>[0];
    expect((await readPayment(server, payment.id)).state).toBe('succeeded');
  });

  it('pays when the instance that started the challenge dies while the cardholder is on the issuer page', async () => {
    const { payment, page, context } = await toIssuerPage('killed');
    // The instance that took the card and started the challenge.
    const starter = proxy.posts.findLast((post) => post.path.startsWith(`/pay/${payment.id}`))?.backend;
    const doomed = instances.find((instance) => instance.url === starter);
    if (doomed === undefined) throw new Error('no instance took the card');
    await stopInstance(doomed, 'SIGKILL');
    proxy.backends = proxy.backends.filter((backend) => backend !== doomed.url);
    await page.reload();
    await page.getByRole('button', { name: 'Authorise' }).click();
    await page.waitForURL((url) => url.search === '?order=killed');
    await context.close();
    const server = { url: proxy.url } as Parameters<typeof readPayment>[0];
    expect((await readPayment(server, payment.id)).state).toBe('succeeded');
  });
});
