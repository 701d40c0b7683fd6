import { describe, expect, it } from 'vitest';
import { containsCardNumber, detectScheme, luhnValid } from '../../src/domain/card-number.js';

/** `digits` followed by the one check digit that makes it Luhn-valid. */
function withCheckDigit(digits: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${digits}${d}`)) return `${digits}${d}`;
  throw new Error('unreachable');
}

describe('containsCardNumber: only real dates are taken out before the search', () => {
  // A 16-digit visa number written as "4/12/2100 000000000X": its first groups look like a date.
  const number = withCheckDigit('412210000000000');
  const [head, tail] = [number.slice(0, 7), number.slice(7)];
  const written = `${head.slice(0, 1)}/${head.slice(1, 3)}/${head.slice(3)} ${tail}`;

  it('a "date" in the year 2100 or later is not a date: the card number around it is found', () => {
    expect(detectScheme(number)).toBe('visa');
    expect(written).toBe(`4/12/2100 ${tail}`);
    expect(containsCardNumber(written)).toBe(true);
    for (const year of ['2100', '2999', '1899']) {
      const candidate = withCheckDigit(`412${year}00000000`);
      const text = `4/12/${year} ${candidate.slice(7)}`;
      expect(containsCardNumber(text), text).toBe(true);
    }
  });

  it('a real date (19xx, 20xx or two digits) next to digits is taken out and makes no card number', () => {
    for (const year of ['2025', '1999']) {
      const candidate = withCheckDigit(`412${year}00000000`);
      expect(containsCardNumber(`4/12/${year} ${candidate.slice(7)}`)).toBe(false);
    }
  });
});
