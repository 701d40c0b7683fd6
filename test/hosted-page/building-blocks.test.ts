import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { collectBrowserData } from '../../adapters/http/hosted-page/browser-data.js';
import { parseExpiry, validateCardForm } from '../../adapters/http/hosted-page/card-form.js';
import { CARD_MESSAGES } from '../../adapters/http/hosted-page/card-messages.js';
import { createCsrfGuard } from '../../adapters/http/hosted-page/csrf.js';
import { parseFormBody } from '../../adapters/http/hosted-page/form-body.js';
import { escapeHtml } from '../../adapters/http/hosted-page/html.js';
import {
  CLIENT_IP_HEADER,
  contentSecurityPolicy,
  cspHash,
  formatAmount,
  normalizeClientIp,
  stampClientIp,
} from '../../adapters/http/hosted-page/index.js';
import { browserDataSchema } from '../../src/schemas/browser-data.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const SECRET = 'a'.repeat(32);

/** The amount with Intl's (narrow) no-break spaces as plain spaces. */
const amount = (...args: Parameters<typeof formatAmount>) => formatAmount(...args).replace(/[\u00a0\u202f]/g, ' ');

describe('formatAmount', () => {
  it('uses the ISO 4217 exponent, not the CLDR one', () => {
    expect(amount(1999, 'EUR')).toBe('€19.99');
    expect(amount(1999, 'JPY')).toBe('¥1,999');
    expect(amount(1500, 'KWD')).toBe('KWD 1.500');
    expect(amount(12345, 'CLF')).toBe('CLF 1.2345');
    // CLDR gives IQD no decimals and HUF none in some locales; ISO gives 3 and 2.
    expect(amount(1000, 'IQD')).toBe('IQD 1.000');
    expect(amount(12345, 'HUF')).toMatch(/123\.45$/);
    expect(amount(5, 'EUR')).toBe('€0.05');
  });

  it('formats the largest amounts exactly', () => {
    expect(amount(999_999_999_999, 'EUR')).toBe('€9,999,999,999.99');
    expect(amount(999_999_999_999, 'CLF')).toBe('CLF 99,999,999.9999');
  });

  it('follows the locale for symbol and separators', () => {
    expect(amount(123456, 'EUR', 'de-DE')).toBe('1.234,56 €');
  });
});

describe('parseExpiry and validateCardForm', () => {
  it('reads MM/YY, MM / YY, MMYY and MM/YYYY', () => {
    for (const text of ['12/30', '12 / 30', '1230', '12/2030', ' 12/30 ']) {
      expect(parseExpiry(text)).toEqual({ month: 12, year: 2030 });
    }
    expect(parseExpiry('1/30')).toEqual({ month: 1, year: 2030 });
    for (const text of ['13/30', '00/30', '12/3', '12-30', '', '12/300']) expect(parseExpiry(text)).toBeNull();
  });

  it("converts a valid form to the engine's creditcard", () => {
    const result = validateCardForm(
      { number: '4242 4242-4242 4242', expiry: '01/26', cvc: '123', holder_name: '  Ada Lovelace ' },
      NOW,
    );
    expect(result._unsafeUnwrap()).toEqual({
      number: '4242424242424242',
      cvc: '123',
      expiration: '2026-01-01T00:00:00.000Z',
      holder_name: 'Ada Lovelace',
    });
  });

  it('gives one message per wrong field', () => {
    const empty = validateCardForm({ number: '', expiry: '', cvc: '', holder_name: '' }, NOW)._unsafeUnwrapErr();
    expect(empty).toEqual({
      number: CARD_MESSAGES.numberRequired,
      expiry: CARD_MESSAGES.expiryRequired,
      cvc: CARD_MESSAGES.cvcRequired,
      holder_name: CARD_MESSAGES.nameRequired,
    });
    const amex = validateCardForm(
      { number: '378282246310005', expiry: '12/25', cvc: '123', holder_name: 'A' },
      NOW,
    )._unsafeUnwrapErr();
    expect(amex).toEqual({
      expiry: CARD_MESSAGES.expiryPast,
      cvc: CARD_MESSAGES.cvcLength4,
      holder_name: CARD_MESSAGES.nameLength,
    });
    expect(
      validateCardForm(
        { number: '1234567890123452', expiry: '12/30', cvc: '123', holder_name: 'Ada' },
        NOW,
      )._unsafeUnwrapErr(),
    ).toEqual({
      number: CARD_MESSAGES.numberScheme,
    });
    expect(
      validateCardForm({ number: '4242x', expiry: '12/30', cvc: '123', holder_name: 'Ada' }, NOW)._unsafeUnwrapErr(),
    ).toEqual({
      number: CARD_MESSAGES.numberFormat,
    });
  });

  it('counts the name in characters, as the engine does: an emoji is one', () => {
    const withName = (holder_name: string) =>
      validateCardForm({ number: '4242424242424242', expiry: '12/30', cvc: '123', holder_name }, NOW);
    expect(withName('😀'.repeat(45)).isOk()).toBe(true);
    expect(withName('😀'.repeat(46))._unsafeUnwrapErr()).toEqual({ holder_name: CARD_MESSAGES.nameLength });
    expect(withName('😀')._unsafeUnwrapErr()).toEqual({ holder_name: CARD_MESSAGES.nameLength });
    expect(withName('Zoë 😀').isOk()).toBe(true);
  });
});

describe('collectBrowserData', () => {
  const request = new Request('http://localhost/pay/x', {
    method: 'POST',
    headers: { 'user-agent': 'UA', accept: 'text/html', 'accept-language': 'fr-BE,fr;q=0.9' },
  });

  it('uses the hidden fields the page script filled in', () => {
    const form = new URLSearchParams({
      javascript_enabled: 'true',
      java_enabled: 'false',
      screen_width: '1440',
      screen_height: '900',
      color_depth: '24',
      timezone_offset: '-60',
      language: 'en-GB',
    });
    expect(collectBrowserData(request, form, '192.0.2.1')).toEqual({
      ip_address: '192.0.2.1',
      user_agent: 'UA',
      accept: 'text/html',
      accept_encoding: '',
      accept_language: 'fr-BE,fr;q=0.9',
      language: 'en-GB',
      screen_width: 1440,
      screen_height: 900,
      java_enabled: false,
      javascript_enabled: true,
      color_depth: 24,
      timezone_offset: -60,
    });
  });

  it('falls back to plain defaults without JavaScript or for nonsense, never failing', () => {
    const junk = new URLSearchParams({
      javascript_enabled: 'true',
      screen_width: '-5',
      screen_height: 'tall',
      color_depth: '7',
      timezone_offset: '9999',
      language: '<script>',
    });
    expect(collectBrowserData(request, junk, '192.0.2.1')).toMatchObject({
      language: 'fr-BE',
      screen_width: 1024,
      screen_height: 768,
      color_depth: 24,
      timezone_offset: 0,
      javascript_enabled: true,
    });
    const bare = new Request('http://localhost/pay/x', { method: 'POST' });
    expect(collectBrowserData(bare, new URLSearchParams({ screen_width: '800' }), '::1')).toMatchObject({
      user_agent: 'unknown',
      accept: '*/*',
      language: 'en',
      screen_width: 1024,
      javascript_enabled: false,
    });
  });
});

describe('parseFormBody', () => {
  const parse = (text: string | Uint8Array) => parseFormBody(typeof text === 'string' ? Buffer.from(text) : text);

  it('reads a form as URLSearchParams does when it is UTF-8', () => {
    for (const text of ['a=1&b=x+y%2B%26&c', 'name=Zo%C3%AB&&empty=&=v&%zz=100%&x=%e2%82%ac', 'a=%', '']) {
      const { fields, unreadable } = parse(text);
      expect([...fields]).toEqual([...new URLSearchParams(text)]);
      expect(unreadable.size).toBe(0);
    }
    expect(parse('name=Zo\u00eb').fields.get('name')).toBe('Zoë');
  });

  it('keeps apart the fields that are not UTF-8, percent-encoded or raw, instead of decoding them to U+FFFD', () => {
    const { fields, unreadable } = parse(
      Buffer.concat([
        Buffer.from('token=abc&holder_name=Zo%EB&cvc=%C3&number='),
        Buffer.from([0xff]),
        Buffer.from('&%FF=1'),
      ]),
    );
    expect([...fields]).toEqual([['token', 'abc']]);
    expect([...unreadable]).toEqual(['holder_name', 'cvc', 'number']);
  });

  it('makes validateCardForm flag each unreadable field with a field message', () => {
    const card = { number: '', expiry: '', cvc: '', holder_name: '' };
    expect(validateCardForm(card, NOW, new Set(['number', 'expiry', 'cvc', 'holder_name']))._unsafeUnwrapErr()).toEqual(
      {
        number: CARD_MESSAGES.numberFormat,
        expiry: CARD_MESSAGES.expiryFormat,
        cvc: CARD_MESSAGES.cvcLength3,
        holder_name: CARD_MESSAGES.nameCharacters,
      },
    );
    const amex = { number: '378282246310005', expiry: '12/30', cvc: '', holder_name: 'Ada Lovelace' };
    expect(validateCardForm(amex, NOW, new Set(['cvc']))._unsafeUnwrapErr()).toEqual({ cvc: CARD_MESSAGES.cvcLength4 });
  });
});

describe('collectBrowserData and language tags', () => {
  // Regression: the page's own pattern let through tags the engine refuses (`en-GB-oed`, `en-1`,
  // `de-DE-x`), and every submission from such a browser failed with 422.
  it.each(['en-GB-oed', 'sgn-BE-FR', 'en-1', 'de-DE-x', 'i-klingon', 'en-' + 'a'.repeat(33)])(
    'falls back to the default for %s, a tag the engine refuses',
    (tag) => {
      const fromHeader = new Request('http://localhost/pay/x', {
        method: 'POST',
        headers: { 'accept-language': `${tag},fr;q=0.9` },
      });
      const noScript = collectBrowserData(fromHeader, new URLSearchParams(), '192.0.2.1');
      expect(noScript.language).toBe('en');
      expect(browserDataSchema.safeParse(noScript).success).toBe(true);
      const scripted = collectBrowserData(
        new Request('http://localhost/pay/x', { method: 'POST', headers: { 'accept-language': 'fr-BE' } }),
        new URLSearchParams({ javascript_enabled: 'true', language: tag }),
        '192.0.2.1',
      );
      expect(scripted.language).toBe('fr-BE');
    },
  );

  it.each(['de-CH-1901', 'zh-Hant-TW', 'es-419', 'x-private'])('keeps %s, a tag the engine takes', (tag) => {
    const form = new URLSearchParams({ javascript_enabled: 'true', language: tag });
    const data = collectBrowserData(new Request('http://localhost/pay/x', { method: 'POST' }), form, '192.0.2.1');
    expect(data.language).toBe(tag);
    expect(browserDataSchema.safeParse(data).success).toBe(true);
  });
});

describe('client IP', () => {
  it('normalizes IPv4-mapped IPv6 and rejects anything that is not an address', () => {
    expect(normalizeClientIp('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(normalizeClientIp('2001:db8::1')).toBe('2001:db8::1');
    expect(normalizeClientIp('192.0.2.1, 10.0.0.1')).toBeUndefined();
    expect(normalizeClientIp(undefined)).toBeUndefined();
  });

  it('stamps the socket address over whatever the client sent', () => {
    const req = {
      socket: { remoteAddress: '::ffff:127.0.0.1' },
      rawHeaders: ['Host', 'x', 'X-Paystate-Client-IP', '6.6.6.6', 'x-paystate-client-ip', '7.7.7.7'],
      headers: { host: 'x', [CLIENT_IP_HEADER]: '6.6.6.6' } as Record<string, string>,
    } as unknown as IncomingMessage;
    stampClientIp(req);
    expect(req.rawHeaders).toEqual(['Host', 'x', CLIENT_IP_HEADER, '::ffff:127.0.0.1']);
    expect(req.headers[CLIENT_IP_HEADER]).toBe('::ffff:127.0.0.1');
  });
});

describe('CSRF guard', () => {
  const guard = createCsrfGuard({ csrfSecret: SECRET });
  const page = new Request('http://localhost/pay/p1?token=t');
  const withCookie = (cookie: string, headers: Record<string, string> = {}) =>
    new Request('http://localhost/pay/p1', { method: 'POST', headers: { cookie, ...headers } });

  it('binds the proof to the cookie nonce and to the payment and token', () => {
    const ticket = guard.issue(page, ['p1', 't']);
    const cookie = (ticket.setCookie ?? '').split(';')[0] ?? '';
    expect(ticket.setCookie).toMatch(/^paystate_csrf=[A-Za-z0-9_-]{24}; HttpOnly; SameSite=Lax$/);
    expect(guard.verify(withCookie(cookie), ticket.field, ['p1', 't'])).toBe(true);
    expect(guard.verify(withCookie(`other=1; ${cookie}`), ticket.field, ['p1', 't'])).toBe(true);
    expect(guard.verify(withCookie(cookie), ticket.field, ['p2', 't'])).toBe(false);
    expect(guard.verify(withCookie(cookie), ticket.field, ['p1', 'u'])).toBe(false);
    expect(guard.verify(withCookie('paystate_csrf=BBBBBBBBBBBBBBBBBBBBBBBB'), ticket.field, ['p1', 't'])).toBe(false);
    expect(guard.verify(withCookie(cookie), null, ['p1', 't'])).toBe(false);
    expect(guard.verify(withCookie(cookie, { 'sec-fetch-site': 'cross-site' }), ticket.field, ['p1', 't'])).toBe(false);
    expect(guard.verify(withCookie(cookie, { 'sec-fetch-site': 'same-origin' }), ticket.field, ['p1', 't'])).toBe(true);
  });

  it('reuses the nonce a browser already has, and marks cookies Secure on https', () => {
    const again = guard.issue(withCookie('paystate_csrf=CCCCCCCCCCCCCCCCCCCCCCCC'), ['p1', 't']);
    expect(again.setCookie).toBeUndefined();
    expect(guard.issue(new Request('https://pay.example/pay/p1'), ['p1', 't']).setCookie).toContain('; Secure');
    expect(() => createCsrfGuard({ csrfSecret: 'short' })).toThrow(TypeError);
    // An unset environment variable passed through by a caller without types: a message that
    // names the option, not "cannot read properties of undefined".
    expect(() => createCsrfGuard({ csrfSecret: undefined as unknown as string })).toThrow(
      /csrfSecret is required: a secret string of at least 32 characters \(got undefined\)/,
    );
  });
});

describe('HTML and CSP helpers', () => {
  it('escape markup and quotes', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;&#60;/a&#62;',
    );
  });

  it('build a policy with nothing allowed by default and hash inline code', () => {
    expect(contentSecurityPolicy()).toBe(
      "default-src 'none'; script-src 'none'; style-src 'none'; img-src 'none'; connect-src 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(cspHash('')).toBe("'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
  });
});
