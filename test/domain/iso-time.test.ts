import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/domain/iso-time.js';

const MAX_DATE_MS = 8.64e15;

describe('isoTime', () => {
  it('writes what Date#toISOString writes, for every time from 1970 to the end of year 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => {
        expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 10_000 },
    );
  });

  it('writes what Date#toISOString writes around month, year and leap-day boundaries', () => {
    const edges = [
      Date.UTC(1970, 0, 1),
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 2, 1),
      Date.UTC(2100, 1, 28, 23, 59, 59, 999),
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 11, 31, 23, 59, 59, 999),
      Date.UTC(2025, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...edges), fc.integer({ min: -1, max: 1 }), (edge, offset) => {
        expect(isoTime(edge + offset)).toBe(new Date(edge + offset).toISOString());
      }),
    );
  });

  it('leaves other times to Date: before 1970, six-digit years, fractions', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -MAX_DATE_MS, max: -1 }),
          fc.integer({ min: 253_402_300_800_000, max: MAX_DATE_MS }),
          fc.double({ min: 0, max: 253_402_300_799_999, noNaN: true }),
        ),
        (ms) => {
          expect(isoTime(ms)).toBe(new Date(ms).toISOString());
        },
      ),
    );
  });

  it('throws as Date does for an invalid time', () => {
    for (const ms of [Number.NaN, Number.POSITIVE_INFINITY, MAX_DATE_MS + 1]) {
      expect(() => isoTime(ms)).toThrow(RangeError);
    }
  });
});
