import { describe, expect, it } from 'vitest';
import { redirectUrlProblem, REDIRECT_URL_MAX_LENGTH } from '../../src/domain/redirect-url.js';
import { accepts, directRequest, hostedRequest, pathsOf, withField } from './fixtures.js';

/**
 * Every length limit of the create request at its boundary: the longest value passes, one
 * character more fails at that field. Written against mutants (a limit moved by one) that no other
 * test killed.
 */

const TEXT_LIMITS: ReadonlyArray<readonly [path: string, max: number]> = [
  ['description', 255],
  ['reference', 255],
  ['billing.first_name', 100],
  ['billing.last_name', 100],
  ['shipping.first_name', 100],
  ['shipping.last_name', 100],
  ['billing.address.premise', 100],
  ['billing.address.thoroughfare', 255],
  ['billing.address.locality', 100],
  ['billing.address.state', 100],
  ['billing.address.postal_code', 32],
  ['shipping.address.locality', 100],
  ['shipping.address.postal_code', 32],
];

describe('text fields at their length limit', () => {
  it.each(TEXT_LIMITS)('%s: %i characters pass, one more fails there', (path, max) => {
    expect(accepts(withField(hostedRequest(), path, 'x'.repeat(max)))).toBe(true);
    expect(pathsOf(withField(hostedRequest(), path, 'x'.repeat(max + 1)))).toEqual([path]);
  });

  it.each(TEXT_LIMITS)('%s: the limit counts characters, not UTF-16 units (%i emoji pass)', (path, max) => {
    expect(accepts(withField(hostedRequest(), path, '😀'.repeat(max)))).toBe(true);
    expect(pathsOf(withField(hostedRequest(), path, '😀'.repeat(max + 1)))).toEqual([path]);
  });

  it('creditcard.holder_name: 2 to 45 characters', () => {
    const card = (holder_name: string) => withField(directRequest(), 'creditcard.holder_name', holder_name);
    expect(accepts(card('x'.repeat(45)))).toBe(true);
    expect(accepts(card('Al'))).toBe(true);
    expect(pathsOf(card('x'.repeat(46)))).toEqual(['creditcard.holder_name']);
    expect(pathsOf(card('A'))).toEqual(['creditcard.holder_name']);
    // One emoji is two UTF-16 units but one character: too short.
    expect(pathsOf(card('😀'))).toEqual(['creditcard.holder_name']);
    expect(accepts(card('😀😀'))).toBe(true);
  });
});

describe('user.ip_address: IPv6 with :: stands for at least one group of zeros', () => {
  const withIp = (ip: string) => withField(directRequest(), 'user.ip_address', ip);

  it.each(['1:2:3:4:5:6:7::', '::2:3:4:5:6:7:8', '1:2:3::5:6:7:8', '2001:db8::1'])(
    'accepts %s (at most 7 groups)',
    (ip) => expect(accepts(withIp(ip))).toBe(true),
  );

  it.each(['1:2:3:4:5:6:7:8::', '::1:2:3:4:5:6:7:8', '1:2:3:4::5:6:7:8', '1:2:3:4:5:6::1.2.3.4'])(
    'rejects %s (8 groups and ::, nine or more in all)',
    (ip) => expect(pathsOf(withIp(ip))).toEqual(['user.ip_address']),
  );
});

describe('session.redirect_url once percent-encoded: at most 2048 characters', () => {
  // "é" is 1 character as sent and 6 (%C3%A9) once encoded: 100 of them add 500.
  const base = 'https://shop.example/';
  const urlEncodedTo = (length: number) => `${base}${'a'.repeat(length - base.length - 600)}${'é'.repeat(100)}`;

  it('accepts a URL of exactly 2048 characters encoded, refuses 2049', () => {
    const atLimit = urlEncodedTo(REDIRECT_URL_MAX_LENGTH);
    expect(new URL(atLimit).href).toHaveLength(REDIRECT_URL_MAX_LENGTH);
    expect(atLimit.length).toBeLessThan(REDIRECT_URL_MAX_LENGTH);
    expect(redirectUrlProblem(atLimit)).toBeNull();
    expect(accepts(withField(hostedRequest(), 'session.redirect_url', atLimit))).toBe(true);

    const over = urlEncodedTo(REDIRECT_URL_MAX_LENGTH + 1);
    expect(new URL(over).href).toHaveLength(REDIRECT_URL_MAX_LENGTH + 1);
    expect(redirectUrlProblem(over)).toBe('too_long_encoded');
    expect(pathsOf(withField(hostedRequest(), 'session.redirect_url', over))).toEqual(['session.redirect_url']);
  });
});
