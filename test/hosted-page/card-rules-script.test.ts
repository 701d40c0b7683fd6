import fc from 'fast-check';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CARD_MESSAGES } from '../../adapters/http/hosted-page/card-messages.js';
import { CARD_RULES_SCRIPT } from '../../adapters/http/hosted-page/card-rules-script.js';
import { PAGE_ASSETS } from '../../adapters/http/hosted-page/assets.js';
import { validateCardForm, type CardFormInput } from '../../adapters/http/hosted-page/card-form.js';
import { cvcLength, detectScheme, luhnValid } from '../../src/domain/card-number.js';
import { NUM_RUNS } from '../support/property-runs.js';
import { splitCardNumber } from '../support/separators.js';

interface BrowserRules {
  luhnValid(digits: string): boolean;
  detectScheme(digits: string): string | null;
  cvcLength(scheme: string): number;
  numberError(text: string): string;
  expiryError(text: string, now: number): string;
  cvcError(text: string, numberText: string): string;
  nameError(text: string): string;
}

/** The page script's card rules, run in a fresh VM as a browser would run them. */
const rules = runInNewContext(
  `${CARD_RULES_SCRIPT}; ({ luhnValid, detectScheme, cvcLength, numberError, expiryError, cvcError, nameError })`,
) as BrowserRules;

/** Numbers around every scheme's prefixes and lengths, Luhn-valid or not. */
const prefixes = [
  '4',
  '51',
  '55',
  '56',
  '2221',
  '2720',
  '2721',
  '34',
  '37',
  '6011',
  '644',
  '649',
  '65',
  '300',
  '305',
  '306',
  '36',
  '38',
  '39',
  '3528',
  '3589',
  '3590',
  '62',
  '50',
  '63',
  '67',
  '1',
  '7',
  '8',
  '9',
  '0',
];
const cardLike = fc
  .tuple(fc.constantFrom(...prefixes), fc.integer({ min: 8, max: 21 }), fc.stringMatching(/^\d{0,21}$/))
  .map(([prefix, length, tail]) => `${prefix}${tail}`.padEnd(length, '7').slice(0, length));

const NOW = Date.UTC(2026, 0, 15, 12);

function serverErrors(input: CardFormInput): Record<string, string> {
  const result = validateCardForm(input, NOW);
  return result.isOk() ? {} : { ...result.error };
}

function browserErrors(input: CardFormInput): Record<string, string> {
  const errors: Record<string, string> = {
    number: rules.numberError(input.number),
    expiry: rules.expiryError(input.expiry, NOW),
    cvc: rules.cvcError(input.cvc, input.number),
    holder_name: rules.nameError(input.holder_name),
  };
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== ''));
}

describe('the page script card rules', () => {
  it('agree with the domain rules on Luhn, scheme and CVC length', () => {
    fc.assert(
      fc.property(cardLike, (digits) => {
        expect(rules.luhnValid(digits)).toBe(luhnValid(digits));
        expect(rules.detectScheme(digits)).toBe(detectScheme(digits));
        const scheme = detectScheme(digits);
        if (scheme !== null) expect(rules.cvcLength(scheme)).toBe(cvcLength(scheme));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('give the same messages as the server for any form', () => {
    const form = fc.record({
      number: fc.oneof(
        cardLike,
        cardLike.map((d) => d.replace(/(\d{4})/g, '$1 ')),
        fc.string({ maxLength: 24 }),
      ),
      expiry: fc.oneof(
        fc.tuple(fc.integer({ min: 0, max: 13 }), fc.integer({ min: 20, max: 40 })).map(([m, y]) => `${m}/${y}`),
        fc
          .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2020, max: 2040 }))
          .map(([m, y]) => `${String(m).padStart(2, '0')}/${y}`),
        fc.stringMatching(/^\d{0,5}$/),
        fc.string({ maxLength: 8 }),
      ),
      cvc: fc.oneof(fc.stringMatching(/^\d{0,5}$/), fc.string({ maxLength: 5 })),
      holder_name: fc.oneof(
        fc.string({ maxLength: 50 }),
        fc.string({ minLength: 1, maxLength: 3 }),
        fc.string({ minLength: 44, maxLength: 46 }),
        // Characters of two UTF-16 units around both limits.
        fc.array(fc.constantFrom('😀', '𝔸', 'a', 'Ω'), { maxLength: 47 }).map((chars) => chars.join('')),
        fc.constant('Ada Lovelace'),
        // Card numbers typed as the name, whole or grouped, alone or with other text.
        cardLike.map((digits) => digits.replace(/(\d{4})(?=\d)/g, '$1 ')),
        fc.tuple(fc.string({ maxLength: 8 }), cardLike).map(([text, digits]) => `${text} ${digits}`),
      ),
    });
    fc.assert(
      fc.property(form, (input) => {
        expect(browserErrors(input)).toEqual(serverErrors(input));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  // Found by an outside security review: the server's rules and this copy joined groups across a
  // fixed list of separators only.
  it('find a card number in the name split by any run of punctuation, symbols or spaces, as the server does', () => {
    const form = (holder_name: string): CardFormInput => ({ number: '', expiry: '', cvc: '', holder_name });
    for (const name of [
      '4242~4242~4242~4242',
      '4242@4242@4242@4242',
      '4242\u20444242\u20444242\u20444242',
      '4242\u28004242\u28004242\u28004242',
      '4242      4242      4242      4242',
      '4242\u21224242\u21224242\u21224242',
    ]) {
      expect(rules.nameError(name), name).toBe(CARD_MESSAGES.nameCardNumber);
      expect(serverErrors(form(name)).holder_name, name).toBe(CARD_MESSAGES.nameCardNumber);
    }
    for (const name of ['Ada Lovelace', 'Hotline +49 (0)30 1234-5675']) {
      expect(rules.nameError(name) === CARD_MESSAGES.nameCardNumber, name).toBe(false);
    }
    fc.assert(
      fc.property(splitCardNumber(4), fc.string({ maxLength: 6 }), ({ text }, before) => {
        const name = `${before}${text}`;
        expect(browserErrors(form(name)).holder_name ?? '', JSON.stringify(name)).toBe(
          serverErrors(form(name)).holder_name ?? '',
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('are embedded in the served page script, which parses', () => {
    expect(PAGE_ASSETS.js.body).toContain(CARD_RULES_SCRIPT);
    expect(() => new Function(PAGE_ASSETS.js.body)).not.toThrow();
  });
});
