import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPaymentRequestSchema, parseCreatePaymentRequest } from '../../src/schemas/index.js';
import { accepts, directRequest, hostedRequest, issuesOf, NOW, pathsOf, withField } from './fixtures.js';

const messageAt = (input: unknown, path: string): string | undefined =>
  issuesOf(input).find((i) => i.path === path)?.message;

describe('parseCreatePaymentRequest: accepted requests', () => {
  it('accepts a hosted-flow request and returns it without card or browser data', () => {
    const result = parseCreatePaymentRequest(hostedRequest(), { now: NOW });
    expect(result._unsafeUnwrap()).toEqual(hostedRequest());
    expect(result._unsafeUnwrap()).not.toHaveProperty('creditcard');
    expect(result._unsafeUnwrap()).not.toHaveProperty('user');
  });

  it('accepts a direct-flow request and converts the card to the domain form', () => {
    const value = parseCreatePaymentRequest(directRequest(), { now: NOW })._unsafeUnwrap();
    expect(value.creditcard).toEqual({
      number: '4242424242424242',
      cvc: '123',
      expiration: '2030-12-01T00:00:00.000Z',
      holderName: 'Ada Lovelace',
      scheme: 'visa',
    });
    expect(value.user).toEqual(directRequest().user);
  });

  it('leaves absent optional fields absent', () => {
    let request: Record<string, unknown> = hostedRequest();
    for (const path of [
      'description',
      'reference',
      'billing.phone',
      'billing.address.premise',
      'billing.address.state',
    ]) {
      request = withField(request, path, undefined);
    }
    const value = parseCreatePaymentRequest(request, { now: NOW })._unsafeUnwrap();
    expect(Object.keys(value)).not.toContain('description');
    expect(Object.keys(value)).not.toContain('reference');
    expect(Object.keys(value.billing)).not.toContain('phone');
    expect(Object.keys(value.billing.address).sort()).toEqual(['country', 'locality', 'postal_code', 'thoroughfare']);
  });

  it('treats an optional field set to undefined (a JavaScript caller) as absent', () => {
    const value = parseCreatePaymentRequest(
      { ...hostedRequest(), description: undefined },
      { now: NOW },
    )._unsafeUnwrap();
    expect(Object.keys(value)).not.toContain('description');
  });
});

describe('amount', () => {
  it.each([1, 100, 999_999_999_999])('accepts %d', (amount) =>
    expect(accepts({ ...hostedRequest(), amount })).toBe(true),
  );

  it.each([0, -1, 1.5, 1_000_000_000_000, 2 ** 60, Number.MAX_SAFE_INTEGER + 2, '100', null, true])(
    'rejects %s',
    (amount) => expect(pathsOf({ ...hostedRequest(), amount })).toEqual(['amount']),
  );

  it('names the bounds', () => {
    expect(messageAt({ ...hostedRequest(), amount: 0 }, 'amount')).toMatch(/1 to 999,999,999,999/);
  });

  it('is required', () => {
    expect(issuesOf(withField(hostedRequest(), 'amount', undefined))).toEqual([
      { path: 'amount', message: 'Required' },
    ]);
  });
});

describe('currency', () => {
  it.each(['EUR', 'USD', 'JPY', 'KWD', 'CLF'])('accepts %s', (currency) =>
    expect(accepts({ ...hostedRequest(), currency })).toBe(true),
  );

  it.each(['eur', 'Eur', 'ABC', 'XAU', 'XTS', 'EURO', 'EU', '', 978])('rejects %s', (currency) =>
    expect(pathsOf({ ...hostedRequest(), currency })).toEqual(['currency']),
  );

  it('is required', () => expect(pathsOf(withField(hostedRequest(), 'currency', undefined))).toEqual(['currency']));
});

describe('method, description, reference', () => {
  it('accepts only creditcard', () => {
    for (const method of ['card', 'CREDITCARD', 'ideal', '', 1]) {
      expect(pathsOf({ ...hostedRequest(), method })).toEqual(['method']);
    }
    expect(issuesOf(withField(hostedRequest(), 'method', undefined))).toEqual([
      { path: 'method', message: 'Required' },
    ]);
  });

  it.each(['description', 'reference'])('%s: optional string of at most 255 characters', (field) => {
    expect(accepts({ ...hostedRequest(), [field]: 'x'.repeat(255) })).toBe(true);
    expect(accepts({ ...hostedRequest(), [field]: '' })).toBe(true);
    expect(accepts(withField(hostedRequest(), field, undefined))).toBe(true);
    expect(pathsOf({ ...hostedRequest(), [field]: 'x'.repeat(256) })).toEqual([field]);
    expect(pathsOf({ ...hostedRequest(), [field]: 42 })).toEqual([field]);
    expect(pathsOf({ ...hostedRequest(), [field]: null })).toEqual([field]);
  });
});

describe('billing and shipping', () => {
  it.each(['billing', 'shipping'])('%s is required', (field) => {
    expect(issuesOf(withField(hostedRequest(), field, undefined))).toEqual([{ path: field, message: 'Required' }]);
    expect(pathsOf({ ...hostedRequest(), [field]: 'Ada' })).toEqual([field]);
  });

  it.each([
    'billing.first_name',
    'billing.last_name',
    'billing.email',
    'billing.address',
    'billing.address.thoroughfare',
    'billing.address.locality',
    'billing.address.postal_code',
    'billing.address.country',
    'shipping.first_name',
    'shipping.address.country',
  ])('%s is required', (path) => {
    expect(issuesOf(withField(hostedRequest(), path, undefined))).toEqual([{ path, message: 'Required' }]);
  });

  it.each(['billing.phone', 'billing.address.premise', 'billing.address.state'])('%s is optional', (path) => {
    expect(accepts(withField(hostedRequest(), path, undefined))).toBe(true);
  });

  it.each([
    ['billing.first_name', ''],
    ['billing.first_name', '   '],
    ['billing.first_name', 'x'.repeat(101)],
    ['billing.first_name', 'Ada\nLovelace'],
    ['billing.last_name', ''],
    ['billing.email', 'not-an-email'],
    ['billing.email', 'ada@'],
    ['billing.email', '@example.com'],
    ['billing.email', `${'a'.repeat(250)}@example.com`],
    ['billing.address.thoroughfare', ''],
    ['billing.address.thoroughfare', 'x'.repeat(256)],
    ['billing.address.locality', ' '],
    ['billing.address.postal_code', ''],
    ['billing.address.premise', 'x'.repeat(101)],
    ['billing.address.state', 'x'.repeat(101)],
    ['billing.address.country', 'gb'],
    ['billing.address.country', 'UK'],
    ['billing.address.country', 'GBR'],
    ['billing.address.country', 'XK'],
    ['shipping.address.country', 'de'],
  ])('%s rejects %j', (path, value) => {
    expect(pathsOf(withField(hostedRequest(), path, value))).toEqual([path]);
  });

  it('accepts long but allowed values', () => {
    let request: Record<string, unknown> = hostedRequest();
    request = withField(request, 'billing.first_name', 'x'.repeat(100));
    request = withField(request, 'billing.address.thoroughfare', 'x'.repeat(255));
    request = withField(request, 'billing.email', 'first.last+tag@mail.example.co.uk');
    request = withField(request, 'billing.address.country', 'NL');
    expect(accepts(request)).toBe(true);
  });

  it.each(['+12345678', '+123456789012345', '+31201234567'])('phone %s is accepted', (phone) => {
    expect(accepts(withField(hostedRequest(), 'billing.phone', phone))).toBe(true);
  });

  it.each([
    '+1234567',
    '+1234567890123456',
    '0031201234567',
    '31201234567',
    '+31 20 123 4567',
    '+31-20-1234567',
    '+',
    '',
    31201234567,
  ])('phone %j is rejected', (phone) => {
    expect(pathsOf(withField(hostedRequest(), 'billing.phone', phone))).toEqual(['billing.phone']);
  });
});

describe('session.redirect_url', () => {
  const withUrl = (url: unknown) => withField(hostedRequest(), 'session.redirect_url', url);

  it.each([
    'https://shop.example/return',
    'http://localhost:3000/return',
    'http://127.0.0.1/return',
    'http://127.42.0.1:8080/',
    'http://[::1]:3000/return',
  ])('accepts %s', (url) => expect(accepts(withUrl(url))).toBe(true));

  it.each([
    ['http://example.com/return', /https/],
    ['http://192.168.1.10/', /https/],
    ['/return', /absolute/],
    ['shop.example/return', /absolute/],
    ['https://shop.example/a b', /spaces/],
    [`https://shop.example/${'a'.repeat(2048)}`, /2048/],
  ])('rejects %s', (url, message) => {
    const issues = issuesOf(withUrl(url));
    expect(issues.map((i) => i.path)).toEqual(['session.redirect_url']);
    expect(issues[0]?.message).toMatch(message);
  });

  it('accepts exactly 2048 characters', () => {
    const base = 'https://shop.example/';
    expect(accepts(withUrl(base + 'a'.repeat(2048 - base.length)))).toBe(true);
  });

  // Characters are code points: 1,100 emoji are 1,100 characters but 2,200 UTF-16 units. Such a
  // URL was once let through by the length rule and then skipped by every other rule.
  const emoji = '😀'.repeat(1100);
  it.each([
    [`http://evil.example/${emoji}`, /https/],
    [`javascript:alert(1)//${emoji}`, /https/],
    [`https://bank.example@evil.example/${emoji}`, /user name or password/],
    [`https://shop.example/4242424242424242/${emoji}`, /percent-encoded/],
    [`https://shop.example/${'😀'.repeat(2049 - 'https://shop.example/'.length)}`, /2048/],
  ])('judges a URL longer than 2048 UTF-16 units by its characters: %#', (url, message) => {
    const issues = issuesOf(withUrl(url));
    expect(issues.map((i) => i.path)).toEqual(['session.redirect_url']);
    expect(issues[0]?.message).toMatch(message);
  });

  it('holds the limit for the URL once percent-encoded, as the redirect sends it', () => {
    const base = 'https://shop.example/';
    const issues = issuesOf(withUrl(base + '😀'.repeat(2048 - base.length)));
    expect(issues).toEqual([
      {
        path: 'session.redirect_url',
        message: 'Must be at most 2048 characters once percent-encoded (a non-ASCII character takes up to 12)',
      },
    ]);
    // 😀 is %F0%9F%98%80 (12 characters): 168 of them fit.
    expect(accepts(withUrl(base + '😀'.repeat(168)))).toBe(true);
    expect(accepts(withUrl(`${base}4242424242424242/${'😀'.repeat(100)}`))).toBe(false);
  });

  it('is required, and so is session', () => {
    expect(issuesOf(withUrl(undefined))).toEqual([{ path: 'session.redirect_url', message: 'Required' }]);
    expect(issuesOf(withField(hostedRequest(), 'session', undefined))).toEqual([
      { path: 'session', message: 'Required' },
    ]);
  });
});

describe('text a store cannot keep as sent', () => {
  const TEXT_FIELDS = [
    'description',
    'reference',
    'billing.first_name',
    'billing.last_name',
    'billing.address.thoroughfare',
    'billing.address.premise',
    'billing.address.locality',
    'billing.address.state',
    'billing.address.postal_code',
    'shipping.first_name',
    'creditcard.holder_name',
    'user.user_agent',
    'user.accept',
    'user.accept_encoding',
    'user.accept_language',
    'session.redirect_url',
  ];
  const base = (path: string): string => {
    if (path === 'session.redirect_url') return 'https://shop.example/return';
    if (path.startsWith('user.')) return 'text/html';
    return 'Ada';
  };

  type Case = [path: string, what: string, inserted: string, message: RegExp];
  it.each(
    TEXT_FIELDS.flatMap((path): Case[] => [
      [path, 'NUL', '\u0000', /control characters/],
      // HTTP header values may carry bytes above 0x7f (obs-text): C1 is refused outside them.
      ...(path.startsWith('user.') ? [] : [[path, 'a C1 control (NEL)', '\u0085', /control characters/] as Case]),
      [path, 'a lone high surrogate', '\ud800', /Unicode/],
      [path, 'a lone low surrogate', '\udc00', /Unicode/],
      [path, 'a reversed pair', '\udc00\ud800', /Unicode/],
    ]),
  )('%s refuses %s', (path, _, inserted, message) => {
    const issues = issuesOf(withField(directRequest(), path, `${base(path)}${inserted}x`));
    expect(issues.map((issue) => issue.path)).toEqual([path]);
    expect(issues[0]?.message).toMatch(message);
  });

  it.each(TEXT_FIELDS)('%s accepts characters outside the BMP, written as surrogate pairs', (path) => {
    expect(accepts(withField(directRequest(), path, `${base(path)}\u{1F600}x`))).toBe(true);
  });

  it('accepts a tab in browser headers, where HTTP allows one, and nowhere else', () => {
    expect(accepts(withField(directRequest(), 'user.user_agent', 'Mozilla/5.0\t(X11)'))).toBe(true);
    expect(pathsOf(withField(directRequest(), 'description', 'a\tb'))).toEqual(['description']);
  });
});

describe('unknown fields', () => {
  it('rejects an unknown top-level field', () => {
    expect(issuesOf({ ...hostedRequest(), foo: 1 })).toEqual([{ path: 'foo', message: 'Unknown field' }]);
  });

  it('rejects unknown nested fields', () => {
    expect(pathsOf(withField(hostedRequest(), 'billing.address.floor', '3'))).toEqual(['billing.address.floor']);
    expect(pathsOf(withField(hostedRequest(), 'session.cancel_url', 'https://x.example'))).toEqual([
      'session.cancel_url',
    ]);
    expect(pathsOf(withField(directRequest(), 'creditcard.pin', '1234'))).toEqual(['creditcard.pin']);
    expect(pathsOf(withField(directRequest(), 'user.color', 1))).toEqual(['user.color']);
  });

  it('rejects the response-only fields of a payment', () => {
    expect(pathsOf({ ...hostedRequest(), id: 'payment_1', state: 'succeeded' })).toEqual(['id', 'state']);
  });

  it('hints at a misspelt top-level field', () => {
    const { billing, ...rest } = hostedRequest();
    expect(issuesOf({ ...rest, biling: billing })).toEqual([
      { path: 'billing', message: 'Required (found `biling`: the field is spelled `billing`)' },
    ]);
  });
});

describe('direct flow: creditcard and user', () => {
  it('rejects user without creditcard', () => {
    expect(issuesOf({ ...hostedRequest(), user: directRequest().user })).toEqual([
      { path: 'user', message: 'user is only accepted with creditcard (direct flow)' },
    ]);
  });

  it('rejects creditcard without user with the missing-user error', () => {
    const issues = issuesOf({ ...hostedRequest(), creditcard: directRequest().creditcard });
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe('user');
    expect(issues[0]?.message).toMatch(/^Required/);
  });

  it('reports user without creditcard even when user has errors of its own', () => {
    const user = { ...directRequest().user, screen_width: 0 };
    expect(pathsOf({ ...hostedRequest(), user })).toEqual(['user', 'user.screen_width']);
  });

  it('rejects a creditcard or user that is not an object', () => {
    expect(pathsOf({ ...directRequest(), creditcard: '4242424242424242' })).toEqual(['creditcard']);
    expect(pathsOf({ ...directRequest(), user: [] })).toEqual(['user']);
  });
});

describe('whole-body errors and ordering', () => {
  it.each([null, 'payment', 42, [], true])('rejects %j as a body', (body) => {
    expect(pathsOf(body)).toEqual(['']);
  });

  it('reports every missing required field of an empty object, sorted by path', () => {
    expect(issuesOf({})).toEqual(
      ['amount', 'billing', 'currency', 'method', 'session', 'shipping'].map((path) => ({ path, message: 'Required' })),
    );
  });

  it('orders issues by path and gives one issue per path', () => {
    const request = {
      ...directRequest(),
      zzz: 1,
      amount: -5,
      currency: 'eur',
      billing: {
        ...directRequest().billing,
        email: 'x',
        address: { ...directRequest().billing.address, country: 'gb' },
      },
      creditcard: { ...directRequest().creditcard, number: '4242 4242', cvc: 'abcd' },
    };
    expect(pathsOf(request)).toEqual([
      'amount',
      'billing.address.country',
      'billing.email',
      'creditcard.cvc',
      'creditcard.number',
      'currency',
      'zzz',
    ]);
  });

  it('is deterministic: the same issues whatever the key order', () => {
    const request = { ...directRequest(), amount: 0, currency: 'x', foo: 1, bar: 2, billing: {} };
    const reversed = Object.fromEntries(Object.entries(request).reverse());
    expect(issuesOf(reversed)).toEqual(issuesOf(request));
    expect(issuesOf(request)).toEqual(issuesOf(structuredClone(request)));
  });
});

describe('createPaymentRequestSchema', () => {
  it('is a zod object with the request fields', () => {
    expect(Object.keys(createPaymentRequestSchema.shape).sort()).toEqual(
      [
        'amount',
        'billing',
        'capture_method',
        'creditcard',
        'currency',
        'description',
        'method',
        'reference',
        'session',
        'shipping',
        'user',
      ].sort(),
    );
  });

  it('converts to JSON Schema for the OpenAPI document', () => {
    const schema = z.toJSONSchema(createPaymentRequestSchema, { io: 'input' }) as Record<string, unknown>;
    expect(schema['type']).toBe('object');
    expect(schema['additionalProperties']).toBe(false);
    expect(schema['required']).toEqual(
      expect.arrayContaining(['amount', 'billing', 'currency', 'method', 'session', 'shipping']),
    );
  });

  it('does not judge the expiry against a clock (parse functions do)', () => {
    const request = withField(directRequest(), 'creditcard.expiration', '2001-01-01T00:00:00.000Z');
    expect(createPaymentRequestSchema.safeParse(request).success).toBe(true);
    expect(pathsOf(request)).toEqual(['creditcard.expiration']);
  });
});

describe('card numbers in free text', () => {
  const PAN = '4242 4242 4242 4242';
  const fields: readonly [string, string][] = [
    ['description', `Order for ${PAN}`],
    ['reference', '5555555555554444'],
    ['billing.first_name', PAN],
    ['billing.last_name', `Lovelace ${PAN.replace(/ /g, '-')}`],
    ['billing.email', '4242424242424242@example.com'],
    ['billing.address.thoroughfare', `Damrak ${PAN}`],
    ['billing.address.premise', '4000000000003220'],
    ['shipping.address.locality', PAN],
    ['shipping.address.state', PAN],
    ['shipping.address.postal_code', '4242424242424242'],
    ['session.redirect_url', 'https://shop.example/return?pan=4242424242424242'],
    ['creditcard.holder_name', '5555555555554444 123'],
  ];

  it.each(fields)('refuses a card number in %s, without repeating it', (path, text) => {
    const issues = issuesOf(withField(directRequest(), path, text));
    expect(issues).toEqual([{ path, message: 'Must not contain a card number' }]);
    expect(JSON.stringify(issues)).not.toMatch(/\d{4}/);
  });

  it('accepts numbers that are not card numbers in the same fields', () => {
    for (const [path, text] of [
      ['description', 'Order 2026-000123, 3 items'],
      ['reference', '4242424242424241'],
      ['billing.address.thoroughfare', 'Keizersgracht 123'],
      ['session.redirect_url', 'https://shop.example/return?order=42424242424242424242'],
    ] as const) {
      expect(accepts(withField(directRequest(), path, text)), path).toBe(true);
    }
  });
});
