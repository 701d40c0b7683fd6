import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NUM_RUNS } from '../support/property-runs.js';
import {
  containsCardNumber,
  cvcLength,
  detectScheme,
  hasDigitRun,
  luhnValid,
  urlContainsCardNumber,
} from '../../src/domain/card-number.js';
import { CARD_SCHEMES } from '../../src/domain/card.js';
import { cardNumber } from '../schemas/fixtures.js';

describe('luhnValid', () => {
  it('accepts known valid numbers', () => {
    for (const n of ['79927398713', '4242424242424242', '378282246310005', '5555555555554444', '0']) {
      expect(luhnValid(n)).toBe(true);
    }
  });

  it('rejects a wrong check digit, non-digits and the empty string', () => {
    for (const n of ['79927398710', '4242424242424241', '', '4242 4242 4242 4242', '42424242424242a2', '４２']) {
      expect(luhnValid(n)).toBe(false);
    }
  });

  it('has exactly one check digit for every body', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,18}$/), (body) => {
        const valid = Array.from({ length: 10 }, (_, d) => luhnValid(`${body}${d}`)).filter(Boolean);
        expect(valid).toHaveLength(1);
      }),
    );
  });

  it('detects every single-digit error', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{11,18}$/), fc.nat(), fc.integer({ min: 1, max: 9 }), (body, at, delta) => {
        const n = cardNumber(body, body.length + 1);
        const i = at % n.length;
        const changed = `${n.slice(0, i)}${(Number(n[i]) + delta) % 10}${n.slice(i + 1)}`;
        expect(luhnValid(changed)).toBe(false);
      }),
    );
  });
});

describe('detectScheme', () => {
  const cases: [string, number[], string][] = [
    ['4', [13, 16, 19], 'visa'],
    ['51', [16], 'mastercard'],
    ['55', [16], 'mastercard'],
    ['2221', [16], 'mastercard'],
    ['2500', [16], 'mastercard'],
    ['2720', [16], 'mastercard'],
    ['34', [15], 'amex'],
    ['37', [15], 'amex'],
    ['6011', [16, 17, 18, 19], 'discover'],
    ['644', [16, 19], 'discover'],
    ['649', [16, 19], 'discover'],
    ['65', [16, 19], 'discover'],
    ['300', [14, 16, 19], 'diners'],
    ['305', [14, 19], 'diners'],
    ['36', [14, 15, 16, 19], 'diners'],
    ['38', [14, 19], 'diners'],
    ['39', [14, 19], 'diners'],
    ['3528', [16, 17, 18, 19], 'jcb'],
    ['3589', [16, 19], 'jcb'],
    ['62', [16, 17, 18, 19], 'unionpay'],
    ['50', [12, 13, 16, 19], 'maestro'],
    ['56', [12, 19], 'maestro'],
    ['59', [12, 19], 'maestro'],
    ['63', [12, 16, 19], 'maestro'],
    ['67', [12, 19], 'maestro'],
  ];

  it.each(cases)('prefix %s with lengths %j is %s', (prefix, lengths, scheme) => {
    for (const length of lengths) expect(detectScheme(cardNumber(prefix, length))).toBe(scheme);
  });

  const wrongLengths: [string, number[]][] = [
    ['4', [12, 14, 15, 17, 18]],
    ['51', [15, 17, 19]],
    ['2221', [15, 19]],
    ['34', [14, 16]],
    ['37', [16]],
    ['6011', [15]],
    ['65', [12, 15]],
    ['36', [13]],
    ['3528', [15]],
    ['62', [12, 15]],
    ['50', [11]],
  ];

  it.each(wrongLengths)('prefix %s with lengths %j is not of a known scheme', (prefix, lengths) => {
    for (const length of lengths) expect(detectScheme(cardNumber(prefix, length))).toBeNull();
  });

  it('uses the longest prefix: 2221-2720 is mastercard, other 22.. and 27.. numbers are unknown', () => {
    expect(detectScheme(cardNumber('2221', 16))).toBe('mastercard');
    expect(detectScheme(cardNumber('2220', 16))).toBeNull();
    expect(detectScheme(cardNumber('22', 16))).toBeNull();
    expect(detectScheme(cardNumber('2721', 16))).toBeNull();
  });

  it('tells 6011 and 65 (discover) from 60.. and 643 (unknown)', () => {
    expect(detectScheme(cardNumber('6011', 16))).toBe('discover');
    expect(detectScheme(cardNumber('65', 16))).toBe('discover');
    expect(detectScheme(cardNumber('6010', 16))).toBeNull();
    expect(detectScheme(cardNumber('643', 16))).toBeNull();
  });

  it('tells 3528-3589 (jcb) from other 35.. (unknown), and 36 (diners) from 306 (unknown)', () => {
    expect(detectScheme(cardNumber('3528', 16))).toBe('jcb');
    expect(detectScheme(cardNumber('35', 16))).toBeNull();
    expect(detectScheme(cardNumber('3527', 16))).toBeNull();
    expect(detectScheme(cardNumber('3590', 16))).toBeNull();
    expect(detectScheme(cardNumber('36', 14))).toBe('diners');
    expect(detectScheme(cardNumber('306', 14))).toBeNull();
  });

  it('knows nothing of other prefixes', () => {
    for (const prefix of ['0', '1', '7', '8', '9', '20', '33', '35', '60', '61', '64', '66', '68', '69']) {
      expect(detectScheme(cardNumber(prefix, 16))).toBeNull();
    }
  });

  it('rejects non-digits and the empty string', () => {
    expect(detectScheme('')).toBeNull();
    expect(detectScheme('4242 4242 4242 4242')).toBeNull();
    expect(detectScheme('4242-4242-4242-4242')).toBeNull();
  });

  it('knows the sandbox test cards', () => {
    expect(detectScheme('4242424242424242')).toBe('visa');
    expect(detectScheme('5555555555554444')).toBe('mastercard');
    expect(detectScheme('378282246310005')).toBe('amex');
    expect(detectScheme('5200828282828210')).toBe('mastercard');
  });
});

describe('cvcLength', () => {
  it('is 4 for amex and 3 for every other scheme', () => {
    for (const scheme of CARD_SCHEMES) expect(cvcLength(scheme)).toBe(scheme === 'amex' ? 4 : 3);
  });
});

describe('containsCardNumber', () => {
  it('finds a card number whole, grouped by spaces or dashes, next to other groups or text', () => {
    for (const text of [
      '4242424242424242',
      '4242 4242 4242 4242',
      '4242-4242-4242-4242',
      '5555555555554444 123',
      'Ada 3782 822463 10005',
      'card: 4000000000003220, thanks',
      'https://shop.example/return?pan=4242424242424242',
      '6759649826438453',
      // Other separators between groups.
      '4242.4242.4242.4242',
      '4242/4242/4242/4242',
      '4242_4242_4242_4242',
      '4242,4242,4242,4242',
      '4242  4242  4242  4242',
      '4242 / 4242 / 4242 / 4242',
      // What copy and paste brings: no-break and zero-width spaces, full-width digits.
      '4242\u00a04242\u00a04242\u00a04242',
      '4242\u200b4242\u200b4242\u200b4242',
      '4242\u202f4242\u20094242\u20074242',
      '\uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff12',
      '42\u00ad42424242424242',
      // Digits of other scripts.
      '\u0664\u0662\u0664\u0662\u0664\u0662\u0664\u0662\u0664\u0662\u0664\u0662\u0664\u0662\u0664\u0662',
      '\u096a\u0968\u096a\u0968 \u096a\u0968\u096a\u0968 \u096a\u0968\u096a\u0968 \u096a\u0968\u096a\u0968',
      // A date next to it hides nothing, and what only looks like a date is no date (found by a
      // reviewing helper).
      'paid 25.06.2025 with 4242 4242 4242 4242',
      '42/42/4242 4242 4242',
      '4242-42-42 42424242',
      '4242.4242.4242.4242',
      // What word processors, forms and tables make of the separators (found by a reviewing
      // helper): dashes of every kind, bullets, bars, plus signs, colons, up to five spaces.
      '4242\u20134242\u20134242\u20134242',
      '4242\u20144242\u20144242\u20144242',
      '4242\u20104242\u20114242\u20124242',
      '4242\u22124242\u22124242\u22124242',
      '4242 \u2022 4242 \u2022 4242 \u2022 4242',
      '4242\u00b74242\u00b74242\u00b74242',
      '4242 | 4242 | 4242 | 4242',
      '4242+4242+4242+4242',
      '4242:4242:4242:4242',
      '4242*4242*4242*4242',
      '4242#4242#4242#4242',
      '4242;4242;4242;4242',
      '4242    4242    4242    4242',
      '4242\t\t4242\t\t4242\t\t4242',
      '4242     4242     4242     4242',
    ]) {
      expect(containsCardNumber(text), text).toBe(true);
    }
  });

  it('leaves other numbers alone: too short or long, Luhn-invalid, of no scheme, or grouped loosely', () => {
    for (const text of [
      'Ada Lovelace',
      '424242424242', // 12 digits, but a visa has 13, 16 or 19
      '4242424242424241', // Luhn fails
      '1234567890123452', // Luhn holds, no scheme starts with 1
      '42424242424242424242', // one run of 20 digits: an id, not a card
      'ORDER-2026-000123',
      '+31201234567',
      '4242 4242 4242 4241', // Luhn fails, however grouped
      'payment_7d7fe5db90e024df7cc4cff57ecb4c66',
      // Everyday numbers that are not card numbers.
      '2026-11-21 12:30:45.123',
      'http://127.0.0.1:3000/return?order=1234',
      '+31 (0)20 123 4567',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36',
      'Flat 12, 34 High Street, London SW1A 1AA',
      // Dates, times and phone numbers that made Luhn-valid numbers of a known scheme when any
      // characters joined groups (found by a reviewing helper).
      'Hotel stay 25.06.2025 - 02.07.2025',
      'Lieferung am 25.06.2025, 08:00-12:00',
      'Hotline: +49 (0)30 1234-5675',
      'Tel. +49 (0)89 2345-6784',
    ]) {
      expect(containsCardNumber(text), text).toBe(false);
    }
  });

  it('never takes dates, date ranges or times for a card number (property)', () => {
    const pad = (n: number) => String(n).padStart(2, '0');
    const date = fc
      .tuple(
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1990, max: 2099 }),
        fc.constantFrom('dmy.', 'mdy/', 'iso'),
      )
      .map(([day, month, year, style]) =>
        style === 'iso'
          ? `${year}-${pad(month)}-${pad(day)}`
          : style === 'dmy.'
            ? `${pad(day)}.${pad(month)}.${year}`
            : `${month}/${day}/${String(year).slice(2)}`,
      );
    const time = fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([hour, minute]) => `${pad(hour)}:${pad(minute)}`);
    const text = fc
      .tuple(date, date, time, time, fc.constantFrom(' - ', ', ', ' ', ' / ', '-'))
      .map(([from, to, start, end, separator]) => `${from}${separator}${to}, ${start}${separator}${end}`);
    fc.assert(
      fc.property(text, (sample) => {
        expect(containsCardNumber(sample), sample).toBe(false);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('finds every valid card number of every scheme, however it is grouped', () => {
    const grouped = fc
      .tuple(
        fc.constantFrom('4', '51', '2221', '34', '6011', '36', '3528', '62', '67'),
        fc.integer({ min: 12, max: 19 }),
        fc.constantFrom(
          '',
          ' ',
          '-',
          '.',
          '/',
          '_',
          ', ',
          ' - ',
          '\u00a0',
          '\u200b',
          '\u3000',
          '\u2013',
          ' \u2014 ',
          '\u2212',
          '+',
          ':',
          ' | ',
          ' \u2022 ',
          '    ',
        ),
        fc.constantFrom(4, 5, 6),
      )
      .map(([prefix, length, separator, size]) => {
        const number = cardNumber(prefix, length);
        return { number, text: `x ${number.replace(new RegExp(`(\\d{${size}})(?=\\d)`, 'g'), `$1${separator}`)} y` };
      })
      .filter(({ number }) => detectScheme(number) !== null);
    fc.assert(
      fc.property(grouped, ({ text }) => {
        expect(containsCardNumber(text)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('hasDigitRun', () => {
  /** The most digits in one run of the pattern `containsCardNumber` reads runs with. */
  const longestRun = (text: string): number =>
    Math.max(0, ...[...text.matchAll(/\d+(?:[^\p{L}\p{N}]+\d+)*/gu)].map((run) => run[0].replace(/\D/g, '').length));
  const character = fc.constantFrom(
    ...'0123456789012345678901234567890123456789 -./_,()+:~@ab Zxé\u00a0\u2009\u3000\u2044\u2800\u2122\t\n'.split(''),
  );

  it('says yes whenever the pattern has a run of that many digits (it may say yes more often)', () => {
    fc.assert(
      fc.property(fc.array(character, { maxLength: 60 }), fc.integer({ min: 1, max: 19 }), (chars, count) => {
        const text = chars.join('');
        if (longestRun(text) >= count) expect(hasDigitRun(text, count)).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('passes by ids whose letters break the digits up', () => {
    expect(hasDigitRun('8d9a5cbe-1f4e-4c1b-9a0e-5b8f3f0d2c11', 12)).toBe(false);
    expect(containsCardNumber('8d9a5cbe-1f4e-4c1b-9a0e-5b8f3f0d2c11')).toBe(false);
    expect(hasDigitRun('4242 4242 4242 4242', 12)).toBe(true);
    expect(hasDigitRun('4242 / 4242 - 4242', 12)).toBe(true);
    expect(hasDigitRun('4242     4242     4242     4242', 12)).toBe(true);
    // Any number of characters but letters joins groups (six spaces got past a fixed limit of five).
    expect(hasDigitRun('4242      4242      4242      4242', 12)).toBe(true);
    expect(hasDigitRun('4242 4242 ab 4242 4242', 12)).toBe(false);
  });
});

describe('urlContainsCardNumber', () => {
  it("reads a URL as its percent-encoding and a form's plus signs say", () => {
    for (const url of [
      'https://shop.example/return?pan=4242424242424242',
      'https://shop.example/return?pan=4242+4242+4242+4242',
      'https://shop.example/return?pan=4242%204242%204242%204242',
      'https://shop.example/return?pan=4242%2D4242%2d4242%2D4242',
      'https://shop.example/return?pan=4242%E2%80%934242%E2%80%934242%E2%80%934242',
      'https://shop.example/4242%2F4242%2F4242%2F4242/return',
      // A broken UTF-8 sequence elsewhere does not stop the rest being read.
      'https://shop.example/return?pan=4242%204242%204242%204242&x=%E2%80',
      'https://shop.example/return?pan=4242%204242%204242%204242%E2%80',
    ]) {
      expect(urlContainsCardNumber(url), url).toBe(true);
    }
  });

  it('leaves other URLs alone, percent-encoded or not', () => {
    for (const url of [
      'https://shop.example/return',
      'https://shop.example/return?order=1234&amount=1999',
      'https://shop.example/return?q=caf%C3%A9%20au%20lait&page=2',
      'https://shop.example/return?broken=%E2%80&x=%ZZ',
      'https://shop.example/return?ref=2026-11-24%2012%3A30%3A45',
      'http://localhost:3000/return?id=payment_7d7fe5db90e024df7cc4cff57ecb4c66',
    ]) {
      expect(urlContainsCardNumber(url), url).toBe(false);
    }
  });

  it('finds what containsCardNumber finds, and the same number percent-encoded (property)', () => {
    const encoded = fc
      .tuple(
        fc.constantFrom('4', '51', '2221', '34', '6011', '36', '3528', '62', '67'),
        fc.integer({ min: 12, max: 19 }),
        fc.constantFrom('%20', '%2D', '%2d', '+', '%E2%80%93', '%C2%A0', '%2C%20'),
      )
      .map(([prefix, length, separator]) => ({ number: cardNumber(prefix, length), separator }))
      .filter(({ number }) => detectScheme(number) !== null)
      .map(
        ({ number, separator }) => `https://shop.example/r?pan=${number.replace(/(\d{4})(?=\d)/g, `$1${separator}`)}`,
      );
    fc.assert(
      fc.property(encoded, (url) => {
        expect(urlContainsCardNumber(url), url).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
