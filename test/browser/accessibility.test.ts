import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import { axeViolations, type AxeViolation } from './support/axe.js';
import { useBrowserFixture } from './support/browser-fixture.js';
import { HAS_CHROMIUM } from './support/chromium.js';
import { createHosted, readPayment, typeCard } from './support/flow.js';

const PAN = '4242424242424242';
const TITLE = 'Pay €19.99 to Sandbox Webshop';

/** The WCAG 1.4.12 text spacing a reader may impose: the page must not lose content under it. */
const TEXT_SPACING =
  '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }';

/** What one page state is checked for. */
interface Audit {
  readonly title: string;
  readonly lang: string;
  readonly violations: readonly AxeViolation[];
  /** CSS pixels the page scrolls sideways, also with the text spacing above (0 at any width). */
  readonly sideways: number;
}

/** The relative luminance of an `rgb()`/`rgba()` colour (WCAG 2.1). */
function luminance(color: string): number {
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
    const c = Number(part) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** How the focused element shows its focus: its outline and the opaque background around it. */
async function focusRing(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    let around = element.parentElement;
    let background = 'rgb(255, 255, 255)';
    for (; around !== null; around = around.parentElement) {
      const color = getComputedStyle(around).backgroundColor;
      if (!color.startsWith('rgba') || color.endsWith(', 1)')) {
        background = color;
        break;
      }
    }
    return {
      id: element.id || `${element.tagName.toLowerCase()}:${(element.textContent ?? '').trim().slice(0, 60)}`,
      style: style.outlineStyle,
      width: parseFloat(style.outlineWidth),
      color: style.outlineColor,
      background,
    };
  });
}

/** Asserts a focus indicator that can be seen: a solid ring of 2px or more with 3:1 against its surroundings. */
async function expectVisibleFocus(page: Page): Promise<string> {
  const ring = await focusRing(page);
  expect(ring, `focus ring of ${ring.id}`).toMatchObject({ style: 'solid' });
  expect(ring.width, `focus ring width of ${ring.id}`).toBeGreaterThanOrEqual(2);
  expect(contrast(ring.color, ring.background), `focus ring contrast of ${ring.id}`).toBeGreaterThanOrEqual(3);
  return ring.id;
}

/** The accessible description of a field as its `aria-describedby` builds it. */
function description(page: Page, id: string): Promise<string> {
  return page.evaluate((fieldId) => {
    const ids = document.getElementById(fieldId)?.getAttribute('aria-describedby')?.split(/\s+/) ?? [];
    return ids
      .map((ref) => document.getElementById(ref)?.textContent?.trim() ?? '')
      .filter((text) => text !== '')
      .join(' ');
  }, id);
}

const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** Runs a submit and waits for the answer page: every submit here starts on the `?token=` page. */
async function submitted(page: Page, submit: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForURL((url) => !url.searchParams.has('token'), { waitUntil: 'load' }), submit()]);
}

/** Runs an action that posts a form and waits for the page that answers (which may be at the same URL). */
async function loaded(page: Page, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForEvent('load'), action()]);
}

/** Posts the form as it stands without the page script's checks (`submit()` fires no submit event). */
function postPastTheScript(page: Page): Promise<void> {
  return submitted(page, () => page.evaluate(() => (document.getElementById('card-form') as HTMLFormElement).submit()));
}

describe.skipIf(!HAS_CHROMIUM)('accessibility of the hosted payment page and the issuer page (WCAG 2.1 AA)', () => {
  const clock = createTestClock(Date.now());
  // A still clock with no sweeper: payments expire only when a test moves the clock.
  const fx = useBrowserFixture({}, { clock, sweepIntervalMs: 3_600_000 });

  async function openForm(page: Page, order: string) {
    const payment = await createHosted(fx.server, fx.returnUrl(order));
    await page.goto(payment.next.redirect);
    return payment;
  }

  /** Pays on a fresh page with `number` and waits until the browser has left the page. */
  async function pay(page: Page, order: string, number: string) {
    const payment = await openForm(page, order);
    await typeCard(page, number);
    await submitted(page, () => page.getByRole('button', { name: /^Pay/ }).click());
    return payment;
  }

  /**
   * Every page state a cardholder can meet, hosted page and issuer page, each handed to `visit`.
   * (A `405` has no page to check: a browser navigates with GET and POST only.)
   */
  async function everyState(page: Page, tag: string, visit: (state: string) => Promise<void>) {
    await openForm(page, `${tag}-form`);
    await visit('card form');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'number');
    await visit('card form, the script found errors');
    await typeCard(page, '4242424242424241');
    await postPastTheScript(page);
    await visit('card form, the server found errors');

    await openForm(page, `${tag}-unavailable`);
    await typeCard(page, PAN);
    fx.server.repository.injectFailure('update', { code: 'unavailable', message: 'storage hiccup', retryable: false });
    await submitted(page, () => page.getByRole('button', { name: /^Pay/ }).click());
    await visit('card form, the payment could not be processed');

    await openForm(page, `${tag}-csrf`);
    await typeCard(page, PAN);
    await page.context().clearCookies();
    await submitted(page, () => page.getByRole('button', { name: /^Pay/ }).click());
    await visit('form refused (CSRF)');

    const declined = await pay(page, `${tag}-declined`, '4000000000000002');
    await page.goto(declined.next.redirect);
    await visit('payment not completed');
    const paid = await pay(page, `${tag}-paid`, PAN);
    await page.goto(paid.next.redirect);
    await visit('payment complete');
    const pending = await pay(page, `${tag}-pending`, '4000000000000119');
    await page.goto(pending.next.redirect);
    // The page checks again every 3 s by itself, but not while the focus is on a link.
    await page.getByRole('link', { name: 'Return to Sandbox Webshop' }).focus();
    await visit('payment being processed');

    const challenged = await pay(page, `${tag}-challenge`, '4000000000003220');
    await page.waitForURL(/\/sandbox\/issuer\/challenge\//);
    const issuer = page.url();
    await visit('issuer: confirm the payment');
    await page.goto(challenged.next.redirect);
    await visit('confirm with your bank');
    await page.goto(issuer);
    await page.context().clearCookies();
    await loaded(page, () => page.getByRole('button', { name: 'Authorise' }).click());
    await visit('issuer: answer refused (CSRF)');
    await page.goto(issuer);
    fx.server.repository.injectFailure('update', { code: 'unavailable', message: 'storage hiccup', retryable: false });
    await loaded(page, () => page.getByRole('button', { name: 'Authorise' }).click());
    await visit('issuer: answer not passed on');
    await page.getByRole('button', { name: 'Authorise' }).click();
    await page.waitForURL(fx.atMerchant(`${tag}-challenge`));
    await page.goto(issuer);
    await visit('issuer: request ended');
    await page.goto(`${issuer}0`);
    await visit('issuer: not found');

    await page.goto(`${fx.server.url}/pay/payment_unknown?token=nothing`);
    await visit('payment page not found');
    const broken = await createHosted(fx.server, fx.returnUrl(`${tag}-broken`));
    fx.server.repository.injectFailure('load', { code: 'unavailable', message: 'storage down', retryable: false });
    await page.goto(broken.next.redirect);
    await visit('something went wrong');

    const late = await createHosted(fx.server, fx.returnUrl(`${tag}-late`));
    clock.advance(60 * 60_000 + 1_000);
    await page.goto(late.next.redirect);
    await visit('payment expired');
  }

  const EXPECTED_TITLES: Readonly<Record<string, string>> = {
    'card form': TITLE,
    'card form, the script found errors': `Error: ${TITLE}`,
    'card form, the server found errors': `Error: ${TITLE}`,
    'card form, the payment could not be processed': `Error: ${TITLE}`,
    'form refused (CSRF)': 'Please try again',
    'payment not completed': 'Payment not completed',
    'payment complete': 'Payment complete',
    'payment being processed': 'Processing payment',
    'issuer: confirm the payment': 'Confirm this payment · Sandbox Bank',
    'confirm with your bank': 'Confirm with your bank',
    'issuer: answer refused (CSRF)': 'Please try again · Sandbox Bank',
    'issuer: answer not passed on': 'Please try again · Sandbox Bank',
    'issuer: request ended': 'This request has ended · Sandbox Bank',
    'issuer: not found': 'Request not found · Sandbox Bank',
    'payment page not found': 'Payment page not found',
    'something went wrong': 'Something went wrong',
    'payment expired': 'Payment expired',
  };

  /** Every state: no axe violation, `lang="en"`, its own title, and no sideways scrolling at `width`. */
  async function auditEveryState(width: number, height: number) {
    const { page, errors } = await fx.open({ viewport: { width, height } });
    const audits: Record<string, Audit> = {};
    await everyState(page, `w${width}`, async (state) => {
      const violations = await axeViolations(page);
      const sideways = () =>
        page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      const plain = await sideways();
      await page.evaluate((css) => {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(css);
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      }, TEXT_SPACING);
      const spaced = await sideways();
      const { title, lang } = await page.evaluate(() => ({
        title: document.title,
        lang: document.documentElement.lang,
      }));
      audits[state] = { title, lang, violations, sideways: Math.max(plain, spaced) };
    });
    const expected = Object.fromEntries(
      Object.entries(EXPECTED_TITLES).map(([state, title]) => [
        state,
        { title, lang: 'en', violations: [], sideways: 0 },
      ]),
    );
    expect(audits).toEqual(expected);
    // No CSP violation or script error; the failed loads are the 4xx/5xx answers of the states.
    expect(errors.filter((error) => !error.startsWith('Failed to load resource'))).toEqual([]);
  }

  it('every page state at desktop width passes axe-core (WCAG 2.1 A and AA) with lang and a title of its own', async () => {
    await auditEveryState(1280, 800);
  });

  it('every page state reflows at 320 CSS px (200% and 400% zoom), also with WCAG text spacing, and passes axe-core', async () => {
    await auditEveryState(320, 640);
  });

  it('labels every field, with the autocomplete token and input mode of a card form', async () => {
    const { page } = await fx.open();
    await openForm(page, 'labels');
    const fields = [
      { label: 'Card number', id: 'number', autocomplete: 'cc-number', inputmode: 'numeric' },
      { label: 'Expiry (MM/YY)', id: 'expiry', autocomplete: 'cc-exp', inputmode: 'numeric' },
      { label: 'Security code', id: 'cvc', autocomplete: 'cc-csc', inputmode: 'numeric' },
      { label: 'Name on card', id: 'holder_name', autocomplete: 'cc-name', inputmode: null },
    ];
    for (const field of fields) {
      const input = page.getByRole('textbox', { name: field.label, exact: true });
      await expect(input.getAttribute('id')).resolves.toBe(field.id);
      await expect(input.getAttribute('autocomplete')).resolves.toBe(field.autocomplete);
      await expect(input.getAttribute('inputmode')).resolves.toBe(field.inputmode);
      await expect(input.getAttribute('required')).resolves.toBe('');
    }
    await expect(description(page, 'cvc')).resolves.toBe('3 digits on the back');
    // The pay button is never disabled: while a payment runs it is aria-disabled, with a status line saying why.
    await expect(page.getByRole('button', { name: 'Pay €19.99' }).isEnabled()).resolves.toBe(true);
  });

  it('is completed with the keyboard alone: Tab order, a visible focus ring on every stop, no trap, Enter submits', async () => {
    const { page } = await fx.open();
    const payment = await openForm(page, 'keyboard');
    const stops: string[] = [];
    for (let i = 0; i < 7; i++) {
      await page.keyboard.press('Tab');
      stops.push(await expectVisibleFocus(page));
    }
    expect(stops).toEqual([
      'number',
      'expiry',
      'cvc',
      'holder_name',
      'pay-button',
      'summary:Sandbox test cards',
      'a:Cancel and return to Sandbox Webshop',
    ]);
    // Past the last stop the focus leaves the page, and comes back round: nothing holds it.
    await page.keyboard.press('Tab');
    await expect(activeId(page)).resolves.toBe('');
    await page.keyboard.press('Tab');
    await expect(activeId(page)).resolves.toBe('number');

    // A field marked invalid keeps a ring that can be seen, in the error colour.
    await page.keyboard.type('4242424242424241');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(page.locator('#number').getAttribute('aria-invalid')).resolves.toBe('true');
    await expectVisibleFocus(page);
    expect((await focusRing(page)).color).toBe('rgb(185, 28, 28)');

    await page.keyboard.press('Control+A');
    await page.keyboard.type(PAN);
    await page.keyboard.press('Tab');
    await page.keyboard.type('1230');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Enter');
    await page.waitForURL(fx.atMerchant('keyboard'));
    expect((await readPayment(fx.server, payment.id)).state).toBe('succeeded');
  });

  it("announces a field's message when the cardholder leaves the field, without moving the focus", async () => {
    const { page } = await fx.open();
    await openForm(page, 'announce');
    const region = page.locator('#field-status');
    await expect(region.getAttribute('role')).resolves.toBe('status');
    await page.getByLabel('Card number').pressSequentially('4242424242424241');
    await page.keyboard.press('Tab');
    await expect(activeId(page)).resolves.toBe('expiry');
    await page.waitForFunction(() => document.getElementById('field-status')?.textContent !== '');
    await expect(region.textContent()).resolves.toBe(
      'Card number: This card number is not valid. Check it for typing mistakes.',
    );
    // The field's description: its message, then the scheme it shows.
    await expect(description(page, 'number')).resolves.toBe(
      'This card number is not valid. Check it for typing mistakes. Visa',
    );
    // A message carries no card data.
    expect(await region.textContent()).not.toMatch(/\d{4}/);
  });

  it('after a failed submission the focus goes to what went wrong, the title says Error, and no card data comes back', async () => {
    // The page script: every field checked, the first wrong one focused, the count in a status line.
    const { page } = await fx.open();
    await openForm(page, 'failed-script');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await expect(activeId(page)).resolves.toBe('number');
    await expect(page.locator('#pay-status').textContent()).resolves.toBe('4 fields need your attention.');
    await expect(page.title()).resolves.toBe(`Error: ${TITLE}`);

    // The server: the summary is an alert and links to the fields; the first wrong field has the focus.
    await openForm(page, 'failed-server');
    await typeCard(page, '4242424242424241', { cvc: '987' });
    await postPastTheScript(page);
    await expect(page.title()).resolves.toBe(`Error: ${TITLE}`);
    await expect(activeId(page)).resolves.toBe('number');
    await expect(page.locator('#number').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(description(page, 'number')).resolves.toBe(
      'This card number is not valid. Check it for typing mistakes.',
    );
    await expect(page.getByRole('alert').getByRole('link', { name: 'Card number' }).count()).resolves.toBe(1);
    expect(await page.content()).not.toMatch(/4242 ?4242 ?4242 ?4241|value="987"/);
    await expect(page.getByLabel('Card number').inputValue()).resolves.toBe('');
    await expect(page.getByLabel('Security code').inputValue()).resolves.toBe('');
    await expect(page.getByLabel('Name on card').inputValue()).resolves.toBe('Ada Lovelace');

    // A problem with the payment rather than a field: the summary itself takes the focus.
    await openForm(page, 'failed-form');
    await typeCard(page, '5555555555554444', { cvc: '987' });
    fx.server.repository.injectFailure('update', { code: 'unavailable', message: 'storage hiccup', retryable: false });
    await submitted(page, () => page.getByRole('button', { name: /^Pay/ }).click());
    await expect(page.title()).resolves.toBe(`Error: ${TITLE}`);
    await expect(activeId(page)).resolves.toBe('form-alert');
    await expect(page.locator('#form-alert').getAttribute('role')).resolves.toBe('alert');
    await expect(page.locator('#form-alert').textContent()).resolves.toContain(
      'The payment could not be processed just now and your card has not been charged.',
    );
    await expectVisibleFocus(page);
    expect(await page.content()).not.toMatch(/5555 ?5555 ?5555 ?4444|value="987"/);
    await expect(page.getByLabel('Card number').inputValue()).resolves.toBe('');
    await expect(page.getByLabel('Security code').inputValue()).resolves.toBe('');
  });

  it('says how long the cardholder has, and warns in an alert before the payment expires', async () => {
    const { page } = await fx.open();
    await page.clock.install();
    await openForm(page, 'time-limit');
    const line = page.locator('#time-limit');
    const warning = page.locator('#time-warning');
    await expect(line.innerText()).resolves.toBe('You have 60 minutes to complete this payment.');
    await expect(warning.getAttribute('role')).resolves.toBe('alert');
    await expect(warning.textContent()).resolves.toBe('');

    await page.clock.runFor('30:00');
    await expect(line.innerText()).resolves.toBe('You have 30 minutes to complete this payment.');
    await expect(warning.textContent()).resolves.toBe('');
    await page.clock.runFor('28:00');
    await expect(warning.textContent()).resolves.toBe(
      'Only 2 minutes left to complete this payment. After that, you will need to return to the shop and start again.',
    );
    await expect(axeViolations(page)).resolves.toEqual([]);
    await page.clock.runFor('02:00');
    await expect(line.innerText()).resolves.toBe('The time to complete this payment has run out.');
    await expect(warning.textContent()).resolves.toBe('This payment has expired. Return to the shop to start again.');
  });

  it('a payment in progress: the page checks again by itself, can be told to stop, and offers Check again', async () => {
    const { page } = await fx.open();
    await page.clock.install();
    const payment = await pay(page, 'progress', '4000000000000119');
    await page.goto(payment.next.redirect);
    await expect(page.title()).resolves.toBe('Processing payment');
    await expect(page.locator('meta[http-equiv="refresh"]').count()).resolves.toBe(0);
    const toggle = page.getByRole('button', { name: 'Stop checking automatically' });
    await expect(toggle.isVisible()).resolves.toBe(true);
    await expect(page.getByRole('status').textContent()).resolves.toBe(
      'This page checks for the result every 3 seconds.',
    );
    await expect(page.getByRole('link', { name: 'Check again' }).getAttribute('href')).resolves.toBe(
      new URL(payment.next.redirect).pathname.split('/').pop() + new URL(payment.next.redirect).search,
    );

    // It checks again after 3 s…
    const marker = () => page.evaluate(() => (window as { checked?: boolean }).checked === true);
    await page.evaluate(() => ((window as { checked?: boolean }).checked = true));
    const reloaded = page.waitForEvent('load');
    await page.clock.runFor(3_000).catch(() => undefined); // the page goes away under the call
    await reloaded;
    await expect(marker()).resolves.toBe(false);

    // …but not while the cardholder is on a link, about to follow it.
    await page.evaluate(() => ((window as { checked?: boolean }).checked = true));
    await page.getByRole('link', { name: 'Return to Sandbox Webshop' }).focus();
    await page.clock.runFor(30_000);
    await expect(marker()).resolves.toBe(true);

    // Stopped, it stays stopped, also after Check again.
    await page.getByRole('button', { name: 'Stop checking automatically' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toBe(
      'Automatic checking is off. Use Check again to see the result.',
    );
    await page.clock.runFor(30_000);
    await expect(marker()).resolves.toBe(true);
    await page.getByRole('link', { name: 'Check again' }).click();
    await page.waitForLoadState();
    await expect(marker()).resolves.toBe(false);
    await page.evaluate(() => ((window as { checked?: boolean }).checked = true));
    await expect(page.getByRole('button', { name: 'Check automatically' }).isVisible()).resolves.toBe(true);
    await page.clock.runFor(30_000);
    await expect(marker()).resolves.toBe(true);
  });

  it('a payment in progress without JavaScript: no timed reload, a Check again link instead', async () => {
    const { page } = await fx.open({ javaScriptEnabled: false });
    const payment = await pay(page, 'progress-no-js', '4000000000000119');
    await page.goto(payment.next.redirect);
    await expect(page.title()).resolves.toBe('Processing payment');
    await expect(page.locator('meta[http-equiv="refresh"]').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Stop checking automatically' }).count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'Check again' }).click();
    await page.waitForLoadState();
    expect(page.url()).toBe(payment.next.redirect);
    await expect(page.title()).resolves.toBe('Processing payment');
  });

  it('honours prefers-reduced-motion: no transitions, a slower spinner', async () => {
    const { page } = await fx.open({ reducedMotion: 'reduce' });
    await openForm(page, 'motion');
    // The longest transition of an element, in seconds.
    const motion = () =>
      page.evaluate(() => {
        const longest = (element: Element | null) =>
          Math.max(
            ...getComputedStyle(element as Element)
              .transitionDuration.split(',')
              .map((d) => parseFloat(d)),
          );
        return {
          spinner: getComputedStyle(document.querySelector('.spinner') as Element).animationDuration,
          field: longest(document.getElementById('number')),
          button: longest(document.getElementById('pay-button')),
        };
      });
    await expect(motion()).resolves.toEqual({ spinner: '2.4s', field: 0, button: 0 });
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect(motion()).resolves.toEqual({ spinner: '0.8s', field: 0.15, button: 0.15 });
  });

  it('the issuer challenge page is operated with the keyboard alone, with visible focus', async () => {
    const { page } = await fx.open();
    const payment = await pay(page, 'issuer-keyboard', '4000000000003220');
    await page.waitForURL(/\/sandbox\/issuer\/challenge\//);
    await page.keyboard.press('Tab');
    await expect(expectVisibleFocus(page)).resolves.toBe('button:Authorise');
    await page.keyboard.press('Tab');
    await expect(expectVisibleFocus(page)).resolves.toBe('button:Refuse');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(fx.atMerchant('issuer-keyboard'));
    expect((await readPayment(fx.server, payment.id)).state).toBe('succeeded');
  });
});
