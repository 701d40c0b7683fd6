import fc from 'fast-check';
import { cardNumber } from '../schemas/fixtures.js';
import { detectScheme } from '../../src/domain/card-number.js';

/** Every punctuation, symbol and space character (Unicode P, S, Z), in code point order. */
export const PUNCTUATION_SYMBOLS_SPACES: readonly string[] = (() => {
  const separator = /[\p{P}\p{S}\p{Z}]/u;
  const found: string[] = [];
  for (let code = 0; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const character = String.fromCodePoint(code);
    if (separator.test(character)) found.push(character);
  }
  return found;
})();

/** One to `maxLength` (8) characters of `PUNCTUATION_SYMBOLS_SPACES`. */
export const separatorRun = (maxLength = 8): fc.Arbitrary<string> =>
  fc
    .array(fc.integer({ min: 0, max: PUNCTUATION_SYMBOLS_SPACES.length - 1 }), { minLength: 1, maxLength })
    .map((indexes) => indexes.map((index) => PUNCTUATION_SYMBOLS_SPACES[index]).join(''));

/**
 * A valid card number of a known scheme (12 to 19 digits) and the same number cut in up to
 * `maxCuts` places, each cut filled with a run of punctuation, symbols or spaces (`separatorRun`).
 */
export const splitCardNumber = (maxCuts = 8): fc.Arbitrary<{ number: string; text: string }> =>
  fc
    .tuple(
      fc.constantFrom('4', '51', '2221', '34', '37', '6011', '65', '36', '3528', '62', '50', '67'),
      fc.integer({ min: 12, max: 19 }),
      fc.stringMatching(/^\d{19}$/),
      fc.array(fc.tuple(fc.integer({ min: 1, max: 18 }), separatorRun()), { minLength: 1, maxLength: maxCuts }),
    )
    .map(([prefix, length, tail, cuts]) => {
      const number = cardNumber(`${prefix}${tail}`.slice(0, length - 1), length);
      let text = '';
      let at = 0;
      for (const [cut, separator] of [...cuts].sort((a, b) => a[0] - b[0])) {
        if (cut <= at || cut >= number.length) continue;
        text += `${number.slice(at, cut)}${separator}`;
        at = cut;
      }
      return { number, text: `${text}${number.slice(at)}` };
    })
    .filter(({ number }) => detectScheme(number) !== null);

/**
 * Shapes the card number search takes out by design before it searches
 * (card-number-beside-dates.test.ts): dates ("4.12.25", "2025-06-25") and a phone number's
 * "+49 (0)". Read on the text as NFKC folds it.
 */
export const DATE_OR_PHONE_SHAPE =
  /(?<!\d)\d{1,2}[./]\d{1,2}[./]\d{2}|(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)|\+\d{1,3}\s?\(0\)/;
