import { describe, expect, it } from 'vitest';
import { parseCreatePaymentRequest } from '../../src/schemas/index.js';
import { accepts, cardNumber, directRequest, issuesOf, NOW, pathsOf, withField } from './fixtures.js';

const withCard = (fields: Record<string, unknown>) => ({
  ...directRequest(),
  creditcard: { ...directRequest().creditcard, ...fields },
});

const SANDBOX_CARDS: [string, string][] = [
  ['4242424242424242', 'visa'],
  ['5555555555554444', 'mastercard'],
  ['378282246310005', 'amex'],
  ['5200828282828210', 'mastercard'],
  ['4000000000003055', 'visa'],
  ['4000000000003238', 'visa'],
  ['4000000000003220', 'visa'],
  ['4000008260003178', 'visa'],
  ['4000000000003287', 'visa'],
  ['4000000000003311', 'visa'],
  ['4000000000000002', 'visa'],
  ['4000000000009995', 'visa'],
  ['4000000000000069', 'visa'],
  ['4000000000000119', 'visa'],
];

describe('creditcard.number', () => {
  it.each(SANDBOX_CARDS)('accepts sandbox card %s (%s)', (number, scheme) => {
    const cvc = scheme === 'amex' ? '1234' : '123';
    const value = parseCreatePaymentRequest(withCard({ number, cvc }), { now: NOW })._unsafeUnwrap();
    expect(value.creditcard?.scheme).toBe(scheme);
    expect(value.creditcard?.number).toBe(number);
  });

  it.each([
    ['6011', 16, 'discover'],
    ['3528', 19, 'jcb'],
    ['36', 14, 'diners'],
    ['62', 17, 'unionpay'],
    ['50', 12, 'maestro'],
    ['2221', 16, 'mastercard'],
    ['4', 19, 'visa'],
  ] as const)('accepts a %s… number of %d digits as %s', (prefix, length, scheme) => {
    const value = parseCreatePaymentRequest(withCard({ number: cardNumber(prefix, length) }), { now: NOW });
    expect(value._unsafeUnwrap().creditcard?.scheme).toBe(scheme);
  });

  it.each([
    ['4242 4242 4242 4242', /digits/],
    ['4242-4242-4242-4242', /digits/],
    ['42424242424', /12 to 19/],
    [cardNumber('4', 20), /12 to 19/],
    ['', /12 to 19/],
    ['4242424242424241', /Luhn/],
    [cardNumber('9', 16), /scheme/],
    [cardNumber('22', 16), /scheme/],
    [cardNumber('35', 16), /scheme/],
    [cardNumber('4', 15), /scheme/],
    [cardNumber('34', 16), /scheme/],
  ])('rejects %s', (number, message) => {
    const issues = issuesOf(withCard({ number, cvc: '123' }));
    expect(issues.map((i) => i.path)).toEqual(['creditcard.number']);
    expect(issues[0]?.message).toMatch(message);
  });

  it('rejects a number sent as a JSON number', () => {
    expect(pathsOf(withCard({ number: 4242424242424242 }))).toEqual(['creditcard.number']);
  });

  it.each(['number', 'cvc', 'expiration', 'holder_name'])('creditcard.%s is required', (field) => {
    expect(issuesOf(withField(directRequest(), `creditcard.${field}`, undefined))).toEqual([
      { path: `creditcard.${field}`, message: 'Required' },
    ]);
  });
});

describe('creditcard.cvc', () => {
  it('is 3 digits for visa, mastercard and the others', () => {
    expect(accepts(withCard({ number: '4242424242424242', cvc: '000' }))).toBe(true);
    expect(accepts(withCard({ number: '5555555555554444', cvc: '999' }))).toBe(true);
    expect(accepts(withCard({ number: cardNumber('6011', 16), cvc: '123' }))).toBe(true);
    expect(issuesOf(withCard({ number: '4242424242424242', cvc: '1234' }))).toEqual([
      { path: 'creditcard.cvc', message: 'Must be 3 digits for this card scheme' },
    ]);
  });

  it('is 4 digits for amex', () => {
    expect(accepts(withCard({ number: '378282246310005', cvc: '1234' }))).toBe(true);
    expect(issuesOf(withCard({ number: '378282246310005', cvc: '123' }))).toEqual([
      { path: 'creditcard.cvc', message: 'Must be 4 digits for American Express' },
    ]);
  });

  it.each(['12', '12345', '12a', ' 123', '', 'abc'])('rejects %j', (cvc) => {
    expect(pathsOf(withCard({ cvc }))).toEqual(['creditcard.cvc']);
  });

  it('rejects a CVC sent as a number', () => {
    expect(pathsOf(withCard({ cvc: 123 }))).toEqual(['creditcard.cvc']);
  });
});

describe('creditcard.expiration', () => {
  it('accepts the current month and later months', () => {
    expect(accepts(withCard({ expiration: '2026-05-01T00:00:00.000Z' }))).toBe(true);
    expect(accepts(withCard({ expiration: '2026-06-01T00:00:00.000Z' }))).toBe(true);
    expect(accepts(withCard({ expiration: '2045-12-01T00:00:00.000Z' }))).toBe(true);
  });

  it('rejects the previous month and earlier', () => {
    for (const expiration of ['2026-04-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z', '1999-05-01T00:00:00.000Z']) {
      const issues = issuesOf(withCard({ expiration }));
      expect(issues.map((i) => i.path)).toEqual(['creditcard.expiration']);
      expect(issues[0]?.message).toMatch(/expired/);
    }
  });

  it('takes "now" from the caller, in UTC', () => {
    const request = withCard({ expiration: '2026-12-01T00:00:00.000Z' });
    expect(accepts(request, Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toBe(true);
    expect(accepts(request, Date.UTC(2027, 0, 1))).toBe(false);
    expect(accepts(request, Date.UTC(2020, 0, 1))).toBe(true);
  });

  it.each([
    '2030-12-01',
    '2030-12',
    '12/30',
    '2030-12-01T00:00:00Z',
    '2030-12-01T00:00:00.000+00:00',
    '2030-12-02T00:00:00.000Z',
    '2030-12-01T01:00:00.000Z',
    '2030-13-01T00:00:00.000Z',
    '2030-00-01T00:00:00.000Z',
    '2030-1-01T00:00:00.000Z',
    ' 2030-12-01T00:00:00.000Z',
    '',
  ])('rejects the format %j', (expiration) => {
    const issues = issuesOf(withCard({ expiration }));
    expect(issues.map((i) => i.path)).toEqual(['creditcard.expiration']);
    expect(issues[0]?.message).toMatch(/YYYY-MM-01T00:00:00.000Z/);
  });
});

describe('creditcard.holder_name', () => {
  it.each(['Al', 'x'.repeat(45), 'Zoë Ødegård-Núñez'])('accepts %j', (holder_name) => {
    expect(accepts(withCard({ holder_name }))).toBe(true);
  });

  it.each(['A', '', '  ', 'x'.repeat(46), 'Ada\tLovelace'])('rejects %j', (holder_name) => {
    expect(pathsOf(withCard({ holder_name }))).toEqual(['creditcard.holder_name']);
  });
});
