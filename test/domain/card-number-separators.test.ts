import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsCardNumber, urlContainsCardNumber } from '../../src/domain/card-number.js';
import { NUM_RUNS } from '../support/property-runs.js';
import { DATE_OR_PHONE_SHAPE, splitCardNumber } from '../support/separators.js';

// Found by an outside security review: a fixed list of separators (and at most five of them)
// let these through.
describe('containsCardNumber: any run of punctuation, symbols and spaces separates groups', () => {
  it.each([
    ['tildes', '4242~4242~4242~4242'],
    ['at signs', '4242@4242@4242@4242'],
    ['fraction slashes (U+2044)', '4242\u20444242\u20444242\u20444242'],
    ['braille blanks (U+2800)', '4242\u28004242\u28004242\u28004242'],
    ['six spaces', '4242      4242      4242      4242'],
  ])('finds a card number split by %s, in text and in a URL', (_, text) => {
    expect(containsCardNumber(text)).toBe(true);
    expect(containsCardNumber(`paid with ${text} yesterday`)).toBe(true);
    expect(urlContainsCardNumber(`https://shop.example/return?pan=${encodeURIComponent(text)}`)).toBe(true);
  });

  it('finds it split by brackets, quotes, currency and other symbols, line breaks, marks and control characters', () => {
    for (const text of [
      '4242(4242)4242(4242)',
      '(4242) 4242-4242-4242',
      '[4242][4242][4242][4242]',
      '"4242" \'4242\' «4242» 4242',
      '4242$4242€4242=4242',
      '4242\n\n4242\r\n4242\n4242',
      '4242 ~ ~ ~ ~ ~ ~ ~ ~ 4242 4242 4242',
      // Symbols whose compatibility form is letters stay separators.
      '4242\u21224242\u21224242\u21224242',
      '4242\u21214242\u21214242\u21214242',
      // A combining mark after a group, a control character between groups.
      '4242\u0301 4242\u0301 4242\u0301 4242',
      '4242\u00014242\u00014242\u00014242',
    ]) {
      expect(containsCardNumber(text), JSON.stringify(text)).toBe(true);
    }
  });

  it('still leaves phone numbers, dates, times, ids and letters between digits alone', () => {
    for (const text of [
      'Hotline: +49 (0)30 1234-5675',
      'Tel. +49(0)89 2345-6784',
      '+31 (0)20 123 4567',
      'Hotel stay 25.06.2025 - 02.07.2025',
      '2026-11-21 12:30:45.123',
      '8d9a5cbe-1f4e-4c1b-9a0e-5b8f3f0d2c11',
      '4242 a 4242 b 4242 c 4242',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36',
    ]) {
      expect(containsCardNumber(text), text).toBe(false);
    }
  });

  it('finds any valid card number split anywhere by random runs of P, S and Z characters (property)', () => {
    fc.assert(
      fc.property(splitCardNumber(), ({ text }) => {
        fc.pre(!DATE_OR_PHONE_SHAPE.test(text.normalize('NFKC')));
        expect(containsCardNumber(text), JSON.stringify(text)).toBe(true);
        expect(containsCardNumber(`note: ${text}.`), JSON.stringify(text)).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
