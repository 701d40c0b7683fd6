import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxServer } from '../../adapters/sandbox-server/index.js';
import { collectingLogger } from './support/collecting-logger.js';
import { cardFields, createHostedPayment, formTarget, openPage, postForm } from './support/page-session.js';

const REDIRECT = 'http://127.0.0.1:9/return?order=1';
/** What Chromium sends with a link followed from another site. */
const CROSS_SITE_NAVIGATION = {
  'sec-fetch-site': 'cross-site',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
  'sec-fetch-user': '?1',
};
let server: SandboxServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<SandboxServer> {
  server = await startSandboxServer({ port: 0, logger: collectingLogger().logger });
  return server;
}

describe('the CSRF cookie across sites', () => {
  it('is SameSite=Lax, and a cross-site navigation that carries it keeps the nonce', async () => {
    const s = await start();
    const first = await createHostedPayment(s.url, REDIRECT);
    const second = await createHostedPayment(s.url, REDIRECT);

    const tabA = await openPage(first.pageUrl, undefined, CROSS_SITE_NAVIGATION);
    expect(String(tabA.headers['set-cookie'])).toMatch(/^paystate_csrf=[A-Za-z0-9_-]+; HttpOnly; SameSite=Lax$/);
    const tabB = await openPage(second.pageUrl, tabA.cookie, CROSS_SITE_NAVIGATION);
    expect(tabB.status).toBe(200);
    expect(tabB.headers['set-cookie']).toBeUndefined();
    expect(tabB.cookie).toBe(tabA.cookie);

    // Tab A's form, posted from its own page after tab B opened, still counts.
    const answer = await postForm(
      formTarget(first.pageUrl),
      { token: tabA.token ?? '', csrf: tabA.csrf ?? '', ...cardFields('4242424242424242') },
      tabB.cookie,
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' },
    );
    expect(answer.status).toBe(303);
    expect(answer.headers['location']).toBe(REDIRECT);
  });

  it('a malformed cookie gets a new nonce, which then serves every page', async () => {
    const s = await start();
    const { pageUrl } = await createHostedPayment(s.url, REDIRECT);
    const page = await openPage(pageUrl, 'paystate_csrf=short', CROSS_SITE_NAVIGATION);
    expect(page.cookie).toMatch(/^paystate_csrf=[A-Za-z0-9_-]{22,64}$/);
    const again = await openPage(pageUrl, page.cookie, CROSS_SITE_NAVIGATION);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.csrf).toBe(page.csrf);
  });

  it('still refuses a cross-site POST, and a POST without the cookie, with the valid proof', async () => {
    const s = await start();
    const { pageUrl } = await createHostedPayment(s.url, REDIRECT);
    const page = await openPage(pageUrl, undefined, CROSS_SITE_NAVIGATION);
    const fields = { token: page.token ?? '', csrf: page.csrf ?? '', ...cardFields('4242424242424242') };

    const crossSite = await postForm(formTarget(pageUrl), fields, page.cookie, {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
    });
    // What a browser sends for a cross-site form post: no Lax cookie.
    const noCookie = await postForm(formTarget(pageUrl), fields, undefined);
    for (const answer of [crossSite, noCookie]) {
      expect(answer.status).toBe(403);
      expect(answer.text).toContain('Please try again');
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    // The refusals took nothing: the page's own post still pays.
    const own = await postForm(formTarget(pageUrl), fields, page.cookie, { 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(303);
  });
});
