import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_ASSETS } from '../../adapters/http/hosted-page/assets.js';
import { createTestClock } from '../../adapters/memory/index.js';
import {
  startSandboxServer,
  type SandboxServer,
  type SandboxServerOptions,
} from '../../adapters/sandbox-server/index.js';
import { call, get } from '../http/support/client.js';
import { collectingLogger } from './support/collecting-logger.js';
import {
  cardFields,
  createHostedPayment,
  formTarget,
  HOSTED_TOKEN,
  openPage,
  payOnPage,
  postForm,
} from './support/page-session.js';

const REDIRECT = 'http://127.0.0.1:9/return?order=1';
let server: SandboxServer | undefined;
let lines: string[] = [];

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  const collected = collectingLogger();
  lines = collected.lines;
  server = await startSandboxServer({ port: 0, logger: collected.logger, ...options });
  return server;
}

async function stateOf(s: SandboxServer, payment: { _links: { self: { href: string } } }) {
  return (await get(`${s.url}${payment._links.self.href}`, HOSTED_TOKEN)).json;
}

describe('GET /pay/{id}?token=…', () => {
  it('shows merchant, amount and description with a labelled, autocompleting card form', async () => {
    const s = await start();
    const { pageUrl } = await createHostedPayment(s.url, REDIRECT, {
      amount: 123456,
      description: 'Two <b>shirts</b>',
    });
    const page = await openPage(pageUrl);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('Sandbox Webshop');
    expect(page.text).toContain('€1,234.56');
    expect(page.text).toContain('Two &#60;b&#62;shirts&#60;/b&#62;');
    for (const [name, autocomplete] of [
      ['number', 'cc-number'],
      ['expiry', 'cc-exp'],
      ['cvc', 'cc-csc'],
      ['holder_name', 'cc-name'],
    ]) {
      expect(page.text).toContain(`<label for="${name}">`);
      expect(page.text).toMatch(
        new RegExp(`<input\\s+id="${name}"\\s+name="${name}"[^>]*autocomplete="${autocomplete}"`),
      );
    }
    expect(page.text.match(/inputmode="numeric"/g)).toHaveLength(3);
    expect(page.text).toContain(`href="${REDIRECT}"`);
  });

  it('formats amounts with the ISO 4217 exponent of the currency', async () => {
    const s = await start();
    const yen = await openPage((await createHostedPayment(s.url, REDIRECT, { currency: 'JPY', amount: 1999 })).pageUrl);
    expect(yen.text).toContain('¥1,999');
    const dinar = await openPage(
      (await createHostedPayment(s.url, REDIRECT, { currency: 'KWD', amount: 1500 })).pageUrl,
    );
    expect(dinar.text).toContain('KWD');
    expect(dinar.text).toContain('1.500');
  });

  it('sends strict security headers and a SameSite=Lax, HttpOnly CSRF cookie', async () => {
    const s = await start();
    const page = await openPage((await createHostedPayment(s.url)).pageUrl);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/^paystate_csrf=[A-Za-z0-9_-]+; HttpOnly; SameSite=Lax$/);
    // No inline script or style: everything the page runs or styles with is a same-origin file.
    expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)/);
    expect(page.text).not.toMatch(/<style|\sstyle=|\son[a-z]+=/);
  });

  it('serves its style sheet and script as immutable same-origin files', async () => {
    const s = await start();
    const page = await openPage((await createHostedPayment(s.url)).pageUrl);
    for (const asset of Object.values(PAGE_ASSETS)) {
      expect(page.text).toContain(`"assets/${asset.name}"`);
      const answer = await call(`${s.url}/pay/assets/${asset.name}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe(asset.contentType);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.text).toBe(asset.body);
    }
    expect((await call(`${s.url}/pay/assets/page-000000000000.js`)).status).toBe(404);
  });

  it('answers an unknown payment, a wrong token and a missing token with the same 404 page', async () => {
    const s = await start();
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const wrong = await openPage(`${formTarget(pageUrl)}?token=${'A'.repeat(32)}`);
    const missing = await openPage(formTarget(pageUrl));
    const unknown = await openPage(`${s.url}/pay/payment_00000000000000000000000000000000?token=${'A'.repeat(32)}`);
    for (const answer of [wrong, missing, unknown]) {
      expect(answer.status).toBe(404);
      expect(answer.text).toContain('Payment page not found');
      expect(answer.text).not.toContain(payment.id);
      expect(answer.text).not.toContain('Sandbox Webshop');
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    expect(wrong.text).toBe(unknown.text);
    expect(missing.text).toBe(unknown.text);
    expect((await openPage(`${s.url}/pay/a/b`)).status).toBe(404);
  });

  // Regression: the 404 page of `/pay` linked `assets/…`, which resolves to `/assets/…`.
  it('links the 404 page’s style sheet so that it resolves from every path under the base path', async () => {
    const s = await start();
    for (const path of ['/pay', '/pay/', '/pay/a/b', '/pay/payment_1']) {
      const page = await openPage(`${s.url}${path}`);
      expect(page.status, path).toBe(404);
      const href = /<link rel="stylesheet" href="([^"]+)"/.exec(page.text)?.[1] ?? '';
      const resolved = new URL(href, `${s.url}${path}`);
      expect(resolved.pathname, path).toBe(`/pay/assets/${PAGE_ASSETS.css.name}`);
      expect((await call(resolved.href)).status, path).toBe(200);
    }
  });

  it('refuses other methods with 405 and an Allow header', async () => {
    const s = await start();
    const { pageUrl } = await createHostedPayment(s.url);
    const answer = await call(formTarget(pageUrl), { method: 'PUT', body: 'x' });
    expect(answer.status).toBe(405);
    expect(answer.headers['allow']).toBe('GET, HEAD, POST');
  });
});

describe('POST /pay/{id}', () => {
  it('pays a no-3DS card, sends the browser to session.redirect_url and stores the browser data', async () => {
    const s = await start();
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const { answer } = await payOnPage(pageUrl, cardFields('4242424242424242'));
    expect(answer.status).toBe(303);
    expect(answer.headers['location']).toBe(REDIRECT);
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect((await stateOf(s, payment)).state).toBe('succeeded');
    const record = (await s.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
    expect(record.browser).toEqual({
      ip_address: '127.0.0.1',
      user_agent: 'PageTest/1.0',
      accept: 'text/html,application/xhtml+xml',
      accept_encoding: 'gzip, deflate',
      accept_language: 'nl-NL,nl;q=0.9,en;q=0.8',
      language: 'nl-NL',
      screen_width: 1024,
      screen_height: 768,
      java_enabled: false,
      javascript_enabled: false,
      color_depth: 24,
      timezone_offset: 0,
    });
    expect(record.card).toMatchObject({ last4: '4242', expiration: '2030-12-01T00:00:00.000Z' });
  });

  it('takes the browser data the page script filled in, and the IP from the socket only', async () => {
    const s = await start();
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const page = await openPage(pageUrl);
    const answer = await postForm(
      formTarget(pageUrl),
      {
        token: page.token ?? '',
        csrf: page.csrf ?? '',
        ...cardFields('4242424242424242'),
        javascript_enabled: 'true',
        java_enabled: 'false',
        screen_width: '390',
        screen_height: '844',
        color_depth: '30',
        timezone_offset: '-120',
        language: 'de-CH',
      },
      page.cookie,
      { 'x-paystate-client-ip': '198.51.100.66' },
    );
    expect(answer.status).toBe(303);
    const record = (await s.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
    expect(record.browser).toMatchObject({
      ip_address: '127.0.0.1',
      javascript_enabled: true,
      screen_width: 390,
      screen_height: 844,
      color_depth: 30,
      timezone_offset: -120,
      language: 'de-CH',
    });
  });

  it('pays when the browser language is a tag the engine refuses (en-GB-oed, de-DE-x): the default is sent', async () => {
    const s = await start();
    for (const [extra, headers] of [
      [{}, { 'accept-language': 'en-GB-oed,en;q=0.9' }],
      [{ javascript_enabled: 'true', language: 'de-DE-x' }, { 'accept-language': 'en-1' }],
    ] as const) {
      const { payment, pageUrl } = await createHostedPayment(s.url);
      const page = await openPage(pageUrl);
      const answer = await postForm(
        formTarget(pageUrl),
        { token: page.token ?? '', csrf: page.csrf ?? '', ...cardFields('4242424242424242'), ...extra },
        page.cookie,
        headers,
      );
      expect(answer.status).toBe(303);
      expect((await stateOf(s, payment)).state).toBe('succeeded');
      expect((await s.engine.getPaymentRecord(payment.id))._unsafeUnwrap().browser?.language).toBe('en');
    }
  });

  it('sends a challenge card to the issuer page', async () => {
    const s = await start();
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const { answer } = await payOnPage(pageUrl, cardFields('4000000000003220'));
    expect(answer.status).toBe(303);
    expect(answer.headers['location']).toMatch(
      new RegExp(
        `^${s.url}/sandbox/issuer/challenge/${payment.id}/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`,
      ),
    );
    const read = await stateOf(s, payment);
    expect(read.state).toBe('processing');
    expect(read.next.redirect).toBe(answer.headers['location']);
  });

  it('sends a declined card back to the merchant too: the record tells the outcome', async () => {
    const s = await start();
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const { answer } = await payOnPage(pageUrl, cardFields('4000000000000002'));
    expect(answer.status).toBe(303);
    expect(answer.headers['location']).toBe(REDIRECT);
    expect(await stateOf(s, payment)).toMatchObject({ state: 'failed', failure_reason: 'declined' });
  });

  it('re-renders the form with messages for invalid fields, without echoing the card number or CVC', async () => {
    const s = await start();
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const { answer } = await payOnPage(pageUrl, cardFields('4242424242424241', { expiry: '01/20', cvc: '12' }));
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('This card number is not valid. Check it for typing mistakes.');
    expect(answer.text).toContain('This card has expired. Use another card.');
    expect(answer.text).toContain('Enter the 3-digit security code from the back of your card.');
    expect(answer.text).toContain('role="alert"');
    expect(answer.text).toMatch(/<input\s+id="number"[^>]*value=""[^>]*aria-invalid="true"[^>]*autofocus/);
    expect(answer.text).toContain('value="01/20"');
    expect(answer.text).not.toMatch(/4242 ?4242 ?4242 ?4241/);
    expect(answer.text).not.toContain('value="12"');
    expect((await stateOf(s, payment)).next.redirect).toBe(pageUrl);
  });

  // Regression: the form was decoded leniently, so bytes of another charset became U+FFFD and were
  // stored in the name, where the JSON API refuses text that is not UTF-8.
  it('refuses a form whose name is not UTF-8 (percent-encoded or raw), like any wrong field, without echo', async () => {
    const s = await start();
    for (const name of [
      Buffer.from('holder_name=Zo%EB+L%FFovelace'),
      Buffer.from([...Buffer.from('holder_name=Zo'), 0xeb]),
    ]) {
      const { payment, pageUrl } = await createHostedPayment(s.url);
      const page = await openPage(pageUrl);
      const fields = new URLSearchParams({
        token: page.token ?? '',
        csrf: page.csrf ?? '',
        ...cardFields('5555555555554444'),
      });
      fields.delete('holder_name');
      const answer = await call(formTarget(pageUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'text/html',
          'user-agent': 'PageTest/1.0',
          cookie: page.cookie ?? '',
        },
        body: Buffer.concat([Buffer.from(`${fields.toString()}&`), name]),
      });
      expect(answer.status).toBe(422);
      expect(answer.text).toContain('role="alert"');
      expect(answer.text).toContain('The name on the card contains characters that cannot be used.');
      expect(answer.text).toMatch(/<input\s+id="holder_name"[^>]*value=""[^>]*aria-invalid="true"/);
      expect(answer.text).toContain('value="12/30"');
      expect(answer.text).not.toContain('\uFFFD');
      expect(answer.text).not.toMatch(/5555 ?5555 ?5555 ?4444/);
      expect(s.acquirer.authorizeCalls(payment.id)).toBe(0);
      const record = (await s.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
      expect(record.state).toBe('awaiting_card_data');
      expect(record.card).toBeNull();
    }
    expect(lines.filter((line) => line.includes('"outcome":"invalid_form"'))).toHaveLength(2);
  });

  it('refuses a card number typed as the name, and does not show it again', async () => {
    const s = await start();
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const { answer } = await payOnPage(pageUrl, cardFields('5555555555554444', { holder_name: '5555 5555 5555 4444' }));
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('Enter the name on the card here, not the card number.');
    expect(answer.text).toMatch(/<input\s+id="holder_name"[^>]*value=""/);
    expect(answer.text).not.toMatch(/5555 ?5555 ?5555 ?4444/);
    expect((await stateOf(s, payment)).next.redirect).toBe(pageUrl);
  });

  it('does not show again a card number that cutting an over-long name would leave', async () => {
    const s = await start();
    const { pageUrl } = await createHostedPayment(s.url);
    const name = `${'x'.repeat(29)}4242424242424242999999`;
    const { answer } = await payOnPage(pageUrl, cardFields('5555555555554444', { holder_name: name }));
    expect(answer.status).toBe(422);
    expect(answer.text).toMatch(/<input\s+id="holder_name"[^>]*value=""/);
    expect(answer.text).not.toContain('4242424242424242');
  });

  it('refuses a post without the CSRF cookie, with a wrong proof, or from another site', async () => {
    const s = await start();
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const page = await openPage(pageUrl);
    const fields = { token: page.token ?? '', csrf: page.csrf ?? '', ...cardFields('4242424242424242') };
    const noCookie = await postForm(formTarget(pageUrl), fields, undefined);
    const otherBrowser = await postForm(formTarget(pageUrl), fields, 'paystate_csrf=AAAAAAAAAAAAAAAAAAAAAAAA');
    const wrongProof = await postForm(formTarget(pageUrl), { ...fields, csrf: 'x'.repeat(43) }, page.cookie);
    const crossSite = await postForm(formTarget(pageUrl), fields, page.cookie, { 'sec-fetch-site': 'cross-site' });
    for (const answer of [noCookie, otherBrowser, wrongProof, crossSite]) {
      expect(answer.status).toBe(403);
      expect(answer.text).toContain('Reload the payment page');
    }
    expect(s.acquirer.authorizeCalls(payment.id)).toBe(0);
    expect((await stateOf(s, payment)).next.redirect).toBe(pageUrl);
  });

  it('answers a post with a wrong token like an unknown payment', async () => {
    const s = await start();
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const page = await openPage(pageUrl);
    const answer = await postForm(
      formTarget(pageUrl),
      { token: 'B'.repeat(32), csrf: page.csrf ?? '', ...cardFields('4242424242424242') },
      page.cookie,
    );
    expect(answer.status).toBe(404);
    expect(s.acquirer.authorizeCalls(payment.id)).toBe(0);
  });

  it('refuses other media types and oversized forms', async () => {
    const s = await start();
    const { pageUrl } = await createHostedPayment(s.url);
    const json = await call(formTarget(pageUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: { number: '4242424242424242' },
    });
    expect(json.status).toBe(415);
    const big = await postForm(formTarget(pageUrl), { holder_name: 'x'.repeat(20_000) }, undefined);
    expect(big.status).toBe(413);
  });

  it('never charges twice: a second submit after success shows the finished page', async () => {
    const s = await start();
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const page = await openPage(pageUrl);
    const fields = { token: page.token ?? '', csrf: page.csrf ?? '', ...cardFields('4242424242424242') };
    expect((await postForm(formTarget(pageUrl), fields, page.cookie)).status).toBe(303);
    const again = await postForm(formTarget(pageUrl), fields, page.cookie);
    expect(again.status).toBe(200);
    expect(again.text).toContain('Payment complete');
    expect(again.text).toContain(`href="${REDIRECT}"`);
    expect(s.acquirer.authorizeCalls(payment.id)).toBe(1);
  });

  it('never charges twice when two submits race (a double click without JavaScript)', async () => {
    const s = await start({ acquirerLatencyMs: 150 });
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const page = await openPage(pageUrl);
    const fields = { token: page.token ?? '', csrf: page.csrf ?? '', ...cardFields('4242424242424242') };
    const answers = await Promise.all([
      postForm(formTarget(pageUrl), fields, page.cookie),
      postForm(formTarget(pageUrl), fields, page.cookie),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 303]);
    expect(answers.find((answer) => answer.status === 200)?.text).toContain('Payment complete');
    expect(s.acquirer.authorizeCalls(payment.id)).toBe(1);
    expect((await stateOf(s, payment)).state).toBe('succeeded');
  });
});

describe('pages of payments that no longer take card data', () => {
  it('shows the finished page, with the way back, after success and after a decline', async () => {
    const s = await start();
    const paid = await createHostedPayment(s.url);
    await payOnPage(paid.pageUrl, cardFields('4242424242424242'));
    const done = await openPage(paid.pageUrl);
    expect(done.status).toBe(200);
    expect(done.text).toContain('Payment complete');
    expect(done.text).toContain(`href="${REDIRECT}"`);
    expect(done.text).not.toContain('name="number"');

    const declined = await createHostedPayment(s.url);
    await payOnPage(declined.pageUrl, cardFields('4000000000000002'));
    const failed = await openPage(declined.pageUrl);
    expect(failed.text).toContain('Payment not completed');
    expect(failed.text).toContain('Your card was declined. You have not been charged.');
  });

  it('shows the expired page once the page time is up, before and after the sweeper ran', async () => {
    const clock = createTestClock();
    const s = await start({ clock, sweepIntervalMs: 20 });
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const page = await openPage(pageUrl);
    clock.advance(61 * 60_000);
    const late = await postForm(
      formTarget(pageUrl),
      { token: page.token ?? '', csrf: page.csrf ?? '', ...cardFields('4242424242424242') },
      page.cookie,
    );
    expect(late.status).toBe(200);
    expect(late.text).toContain('This payment has expired');
    expect(late.text).toContain(`href="${REDIRECT}"`);
    for (let waited = 0; (await stateOf(s, payment)).state !== 'expired' && waited < 3000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await stateOf(s, payment)).state).toBe('expired');
    const expired = await openPage(pageUrl);
    expect(expired.text).toContain('This payment has expired');
    expect(s.acquirer.authorizeCalls(payment.id)).toBe(0);
  });

  it('sends a reload of a challenged payment on to the issuer page', async () => {
    const s = await start();
    const { pageUrl } = await createHostedPayment(s.url);
    const { answer } = await payOnPage(pageUrl, cardFields('4000000000003220'));
    const again = await openPage(pageUrl);
    expect(again.text).toContain('Confirm the payment with your bank');
    expect(again.text).toContain(`href="${String(answer.headers['location'])}"`);
  });
});

describe('a session.redirect_url that is not ASCII', () => {
  const SENT = 'https://例え.jp/返回?q=ü#€';
  const SERIALIZED = 'https://xn--r8jz45g.jp/%E8%BF%94%E5%9B%9E?q=%C3%BC#%E2%82%AC';

  it('is kept as sent, and the browser is sent to its serialized form after the card page', async () => {
    const s = await start();
    const { payment, pageUrl } = await createHostedPayment(s.url, SENT);
    expect(payment.session.redirect_url).toBe(SENT);
    const { answer } = await payOnPage(pageUrl, cardFields('4242424242424242'));
    expect(answer.status).toBe(303);
    expect(answer.headers['location']).toBe(SERIALIZED);
    expect((await stateOf(s, payment)).state).toBe('succeeded');
  });

  it('and after the issuer page', async () => {
    const s = await start();
    const { pageUrl, payment } = await createHostedPayment(s.url, SENT);
    const { answer } = await payOnPage(pageUrl, cardFields('4000000000003220'));
    const issuerUrl = String(answer.headers['location']);
    const page = await openPage(issuerUrl);
    const decided = await postForm(issuerUrl, { csrf: page.csrf ?? '', decision: 'authorise' }, page.cookie);
    expect(decided.status).toBe(303);
    expect(decided.headers['location']).toBe(SERIALIZED);
    expect((await stateOf(s, payment)).state).toBe('succeeded');
  });
});

describe('the simulated issuer page', () => {
  async function challenged(s: SandboxServer, number = '4000000000003220') {
    const { payment, pageUrl } = await createHostedPayment(s.url);
    const { answer } = await payOnPage(pageUrl, cardFields(number));
    return { payment, pageUrl, issuerUrl: String(answer.headers['location']) };
  }

  it('shows merchant, amount and masked card with Authorise and Refuse, under strict headers', async () => {
    const s = await start();
    const { issuerUrl } = await challenged(s);
    const page = await openPage(issuerUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Sandbox Webshop');
    expect(page.text).toContain('€19.99');
    expect(page.text).toContain('Visa •••• 3220');
    expect(page.text).not.toMatch(/4000 ?0000 ?0000 ?3220/);
    expect(page.text).toContain('value="authorise">Authorise</button>');
    expect(page.text).toContain('value="refuse">Refuse</button>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
  });

  it('authorise: the engine verifies the signed result, the browser goes to session.redirect_url', async () => {
    const s = await start();
    const { payment, issuerUrl } = await challenged(s);
    const page = await openPage(issuerUrl);
    const answer = await postForm(issuerUrl, { csrf: page.csrf ?? '', decision: 'authorise' }, page.cookie);
    expect(answer.status).toBe(303);
    expect(answer.headers['location']).toBe(REDIRECT);
    expect((await stateOf(s, payment)).state).toBe('succeeded');
    const after = await openPage(issuerUrl);
    expect(after.text).toContain('This request has ended');
    // Posting again changes nothing and still leads back.
    const again = await postForm(issuerUrl, { csrf: page.csrf ?? '', decision: 'refuse' }, page.cookie);
    expect(again.headers['location']).toBe(REDIRECT);
    expect((await stateOf(s, payment)).state).toBe('succeeded');
  });

  it('refuse: the payment fails with authentication_refused and the browser goes back all the same', async () => {
    const s = await start();
    const { payment, issuerUrl } = await challenged(s);
    const page = await openPage(issuerUrl);
    const answer = await postForm(issuerUrl, { csrf: page.csrf ?? '', decision: 'refuse' }, page.cookie);
    expect(answer.headers['location']).toBe(REDIRECT);
    expect(await stateOf(s, payment)).toMatchObject({ state: 'failed', failure_reason: 'authentication_refused' });
    expect(s.acquirer.authorizeCalls(payment.id)).toBe(0);
  });

  // Regression: the sandbox 3DS server records the answer before the engine stores it. When that
  // write failed, the page sent the cardholder to the merchant and then showed "This request has
  // ended" while the payment still awaited the challenge, until it expired.
  it('an answer that could not be stored: the page asks to try again with that answer, and one authorization follows', async () => {
    const s = await start();
    const { payment, issuerUrl } = await challenged(s);
    const page = await openPage(issuerUrl);
    s.repository.injectFailure('update', { code: 'unavailable', message: 'storage hiccup', retryable: false });
    const failed = await postForm(issuerUrl, { csrf: page.csrf ?? '', decision: 'authorise' }, page.cookie);
    expect(failed.status).toBe(503);
    expect(failed.headers['location']).toBeUndefined();
    expect(failed.text).toContain('Please try again');
    expect(failed.text).toContain('value="authorise">Authorise</button>');
    expect(failed.text).not.toContain('value="refuse"');
    expect((await stateOf(s, payment)).next.redirect).toBe(issuerUrl);

    const reopened = await openPage(issuerUrl, page.cookie);
    expect(reopened.status).toBe(200);
    expect(reopened.text).toContain('your answer has not reached the shop yet');
    expect(reopened.text).toContain('value="authorise">Authorise</button>');
    expect(reopened.text).not.toContain('value="refuse"');
    // The other answer, from a page opened before: the 3DS server would not take it; offered the recorded one again.
    const other = await postForm(issuerUrl, { csrf: reopened.csrf ?? '', decision: 'refuse' }, reopened.cookie);
    expect(other.status).toBe(200);
    expect(other.text).toContain('value="authorise">Authorise</button>');
    expect((await stateOf(s, payment)).state).toBe('processing');

    const again = await postForm(issuerUrl, { csrf: reopened.csrf ?? '', decision: 'authorise' }, reopened.cookie);
    expect(again.status).toBe(303);
    expect(again.headers['location']).toBe(REDIRECT);
    expect((await stateOf(s, payment)).state).toBe('succeeded');
    const late = await postForm(issuerUrl, { csrf: reopened.csrf ?? '', decision: 'authorise' }, reopened.cookie);
    expect(late.headers['location']).toBe(REDIRECT);
    expect(s.acquirer.authorizeCalls(payment.id)).toBe(1);
    expect((await openPage(issuerUrl)).text).toContain('This request has ended');
  });

  it('refuses a post without the CSRF cookie and leaves the challenge open', async () => {
    const s = await start();
    const { payment, issuerUrl } = await challenged(s);
    const page = await openPage(issuerUrl);
    const answer = await postForm(issuerUrl, { csrf: page.csrf ?? '', decision: 'authorise' }, undefined);
    expect(answer.status).toBe(403);
    expect((await stateOf(s, payment)).next.redirect).toBe(issuerUrl);
  });

  it('answers 404 for a transaction that does not belong to the payment', async () => {
    const s = await start();
    const { payment, issuerUrl } = await challenged(s);
    const other = await challenged(s);
    const otherTransaction = other.issuerUrl.split('/').pop() ?? '';
    const crossed = `${s.url}/sandbox/issuer/challenge/${payment.id}/${otherTransaction}`;
    expect((await openPage(crossed)).status).toBe(404);
    const page = await openPage(issuerUrl);
    expect((await postForm(crossed, { csrf: page.csrf ?? '', decision: 'authorise' }, page.cookie)).status).toBe(404);
    expect((await stateOf(s, payment)).state).toBe('processing');
  });

  it('serves direct-flow challenges too', async () => {
    const s = await start();
    const { post } = await import('../http/support/client.js');
    const { directRequest } = await import('../support/requests.js');
    const direct = await post(
      `${s.url}/v1/profiles/profile_webshop/payments`,
      'sandbox_pci_compliant_token',
      directRequest('4000000000003220', { session: { redirect_url: REDIRECT } }),
    );
    const issuerUrl = direct.json.next.redirect as string;
    const page = await openPage(issuerUrl);
    expect(page.text).toContain('Visa •••• 3220');
    const answer = await postForm(issuerUrl, { csrf: page.csrf ?? '', decision: 'authorise' }, page.cookie);
    expect(answer.headers['location']).toBe(REDIRECT);
    const read = await get(`${s.url}${direct.json._links.self.href}`, 'sandbox_pci_compliant_token');
    expect(read.json.state).toBe('succeeded');
  });
});

describe('card data and secrets', () => {
  it('never reach the logs', async () => {
    const s = await start();
    const paid = await createHostedPayment(s.url);
    await payOnPage(paid.pageUrl, cardFields('4242424242424242'));
    const challenged = await createHostedPayment(s.url);
    const { answer } = await payOnPage(challenged.pageUrl, cardFields('4000000000003220'));
    const issuer = await openPage(String(answer.headers['location']));
    await postForm(
      String(answer.headers['location']),
      { csrf: issuer.csrf ?? '', decision: 'authorise' },
      issuer.cookie,
    );
    const invalid = await createHostedPayment(s.url);
    await payOnPage(invalid.pageUrl, cardFields('4242424242424241'));

    const log = lines.join('\n');
    expect(log).toContain('hosted page');
    expect(log).toContain('sandbox issuer');
    for (const secret of ['4242424242424242', '4242 4242 4242 4242', '4000000000003220', '4242424242424241']) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toMatch(/\b937\b|"cvc"|"number"/);
    for (const { pageUrl } of [paid, challenged, invalid]) {
      expect(log).not.toContain(new URL(pageUrl).searchParams.get('token'));
    }
  });
});
