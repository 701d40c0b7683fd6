import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, isCountryCode } from '../../src/domain/country.js';

describe('country table', () => {
  it('holds the 249 officially assigned ISO 3166-1 alpha-2 codes, sorted, once each', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect([...COUNTRY_CODES].sort()).toEqual(COUNTRY_CODES);
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  it('accepts assigned codes', () => {
    for (const code of ['DE', 'GB', 'US', 'NL', 'FR', 'AX', 'SS', 'SX', 'BQ', 'CW', 'AQ', 'BV', 'UM', 'ZW']) {
      expect(isCountryCode(code), code).toBe(true);
    }
  });

  it('rejects lower case, reserved, user-assigned and unknown codes', () => {
    for (const code of ['de', 'De', 'UK', 'EU', 'XK', 'AA', 'ZZ', 'AN', 'YU', 'DEU', 'D', '', 'toString']) {
      expect(isCountryCode(code), code).toBe(false);
    }
  });
});
