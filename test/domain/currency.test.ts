import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, currencyExponent, isCurrencyCode } from '../../src/domain/currency.js';

/** cards-and-3ds.md: the ISO 4217 codes whose minor unit is not 2. */
const EXPONENT_0 = [
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'UYI',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
];
const EXPONENT_3 = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'];
const EXPONENT_4 = ['CLF', 'UYW'];

describe('currency table', () => {
  it('holds the active ISO 4217 codes, upper case, sorted, once each', () => {
    expect(CURRENCY_CODES.length).toBeGreaterThanOrEqual(160);
    expect(CURRENCY_CODES.length).toBeLessThanOrEqual(185);
    for (const code of CURRENCY_CODES) expect(code).toMatch(/^[A-Z]{3}$/);
    expect([...CURRENCY_CODES].sort()).toEqual(CURRENCY_CODES);
    expect(new Set(CURRENCY_CODES).size).toBe(CURRENCY_CODES.length);
  });

  it('gives the usual exponents: JPY 0, EUR 2, KWD 3, CLF 4', () => {
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('EUR')).toBe(2);
    expect(currencyExponent('USD')).toBe(2);
    expect(currencyExponent('KWD')).toBe(3);
    expect(currencyExponent('CLF')).toBe(4);
  });

  it.each(EXPONENT_0)('%s has exponent 0', (code) => expect(currencyExponent(code)).toBe(0));

  it.each(EXPONENT_3)('%s has exponent 3', (code) => expect(currencyExponent(code)).toBe(3));

  it.each(EXPONENT_4)('%s has exponent 4', (code) => expect(currencyExponent(code)).toBe(4));

  it('every other code has exponent 2', () => {
    const special = new Set([...EXPONENT_0, ...EXPONENT_3, ...EXPONENT_4]);
    for (const code of CURRENCY_CODES) if (!special.has(code)) expect(currencyExponent(code), code).toBe(2);
  });

  it('follows ISO, not CLDR, where Intl is wrong', () => {
    for (const code of [
      'AFN',
      'ALL',
      'COP',
      'HUF',
      'IDR',
      'IRR',
      'KPW',
      'LAK',
      'LBP',
      'MGA',
      'MMK',
      'PKR',
      'SOS',
      'SYP',
      'YER',
    ]) {
      expect(currencyExponent(code), code).toBe(2);
    }
    expect(currencyExponent('IQD')).toBe(3);
  });

  it('rejects unknown, lower-case, withdrawn and non-currency codes', () => {
    for (const code of [
      'ABC',
      'eur',
      'Eur',
      'EURO',
      '',
      'XAU',
      'XAG',
      'XDR',
      'XTS',
      'XXX',
      'DEM',
      'HRK',
      'VEF',
      'toString',
      '__proto__',
    ]) {
      expect(isCurrencyCode(code), code).toBe(false);
      expect(currencyExponent(code), code).toBeUndefined();
    }
  });

  it('accepts the common codes', () => {
    for (const code of ['EUR', 'USD', 'GBP', 'CHF', 'JPY', 'SEK', 'PLN', 'CZK', 'BRL', 'INR', 'CNY']) {
      expect(isCurrencyCode(code), code).toBe(true);
    }
  });
});
