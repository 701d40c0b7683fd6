import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isStrongApiToken, MIN_API_TOKEN_BITS, tokenStrengthBits } from '../../src/domain/token-strength.js';

describe('tokenStrengthBits', () => {
  it('is length times the bits per character of the classes used', () => {
    expect(tokenStrengthBits('abcdefgh')).toBeCloseTo(8 * Math.log2(26));
    expect(tokenStrengthBits('abcdefgh12')).toBeCloseTo(10 * Math.log2(36));
    expect(tokenStrengthBits('abcdEFGH12-_')).toBeCloseTo(12 * Math.log2(68));
    // Letters of both cases count as letters and digits.
    expect(tokenStrengthBits('abcdEFGH')).toBeCloseTo(8 * Math.log2(62));
    // Padding counts nothing.
    expect(tokenStrengthBits('abcdefgh==')).toBeCloseTo(tokenStrengthBits('abcdefgh'));
    expect(tokenStrengthBits('')).toBe(0);
    expect(tokenStrengthBits('===')).toBe(0);
  });

  it('counts repeats and few different characters for little', () => {
    expect(tokenStrengthBits('a')).toBe(0);
    expect(tokenStrengthBits('a'.repeat(4096))).toBe(0);
    // A run counts at most 4 characters.
    expect(tokenStrengthBits(`abcdefgh${'x'.repeat(100)}`)).toBeCloseTo(12 * Math.log2(26));
    // A token that repeats a shorter one counts that one only, also cut short at the end.
    expect(tokenStrengthBits('abcdefgh'.repeat(20))).toBeCloseTo(8 * Math.log2(26));
    expect(tokenStrengthBits(`${'abcdefgh'.repeat(20)}abc`)).toBeCloseTo(8 * Math.log2(26));
    // Fewer than 8 different characters: log2 of their number each.
    expect(tokenStrengthBits('abcabd'.repeat(3).slice(0, 17))).toBeLessThan(17 * 2.1);
    expect(tokenStrengthBits('0123456')).toBeCloseTo(7 * Math.log2(7));
  });

  it('refuses what a person would guess and passes random tokens of 128 bits and more', () => {
    for (const weak of [
      'a',
      'password',
      'sandbox_hosted_only_token',
      'tok_alpha_compliant',
      'token-of-b-0123456789',
      'secret-token-xyz',
      'ab'.repeat(64),
      `${'0'.repeat(50)}1234567`,
      randomBytes(15).toString('base64url'), // 20 characters, 120 bits
      randomBytes(12).toString('hex'), // 24 hex digits, 96 bits
    ]) {
      expect(isStrongApiToken(weak), weak).toBe(false);
    }
    // 22 random base64url characters (132 bits) pass but about 1 in 40,000 (no digit, no symbol
    // and one case of letters only), 32 random hex digits (128 bits) but about 1 in 3 million (all
    // digits); 32 random bytes, as base64url or hex, all pass.
    const refused = { base64url: 0, hex: 0 };
    for (let index = 0; index < 2000; index++) {
      if (!isStrongApiToken(randomBytes(17).toString('base64url').slice(0, 22))) refused.base64url += 1;
      if (!isStrongApiToken(randomBytes(16).toString('hex'))) refused.hex += 1;
      expect(isStrongApiToken(randomBytes(32).toString('base64url'))).toBe(true);
      expect(isStrongApiToken(randomBytes(32).toString('hex'))).toBe(true);
    }
    expect(refused.base64url).toBeLessThanOrEqual(2);
    expect(refused.hex).toBeLessThanOrEqual(1);
    expect(MIN_API_TOKEN_BITS).toBe(128);
  });
});
