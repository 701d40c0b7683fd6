import { describe, expect, it } from 'vitest';
import { parseCardSubmission } from '../../src/schemas/index.js';
import { accepts, directRequest, issuesOf, pathsOf, withField } from './fixtures.js';

const withUser = (fields: Record<string, unknown>) => ({
  ...directRequest(),
  user: { ...directRequest().user, ...fields },
});
const USER_FIELDS = Object.keys(directRequest().user);

describe('user', () => {
  it.each(USER_FIELDS)('user.%s is required', (field) => {
    expect(issuesOf(withField(directRequest(), `user.${field}`, undefined))).toEqual([
      { path: `user.${field}`, message: 'Required' },
    ]);
  });

  it('reports every missing field of an empty user', () => {
    expect(pathsOf({ ...directRequest(), user: {} })).toEqual(USER_FIELDS.map((f) => `user.${f}`).sort());
  });

  describe('scree_height', () => {
    it('gets the missing screen_height error with a hint, and nothing else', () => {
      const { screen_height, ...user } = directRequest().user;
      expect(issuesOf({ ...directRequest(), user: { ...user, scree_height: screen_height } })).toEqual([
        {
          path: 'user.screen_height',
          message: 'Required (found `scree_height`: the field is spelled `screen_height`)',
        },
      ]);
    });

    it('also in a hosted-page submission', () => {
      const { screen_height, ...user } = directRequest().user;
      const result = parseCardSubmission(
        { creditcard: directRequest().creditcard, user: { ...user, scree_height: screen_height } },
        { now: 0 },
      );
      expect(result._unsafeUnwrapErr()).toEqual([
        {
          path: 'user.screen_height',
          message: 'Required (found `scree_height`: the field is spelled `screen_height`)',
        },
      ]);
    });

    it('is an unknown field when screen_height is there too', () => {
      expect(issuesOf(withUser({ scree_height: 1080 }))).toEqual([
        { path: 'user.scree_height', message: 'Unknown field' },
      ]);
    });

    it('keeps other errors of the object', () => {
      const { screen_height, ...user } = directRequest().user;
      expect(pathsOf({ ...directRequest(), user: { ...user, scree_height: screen_height, color_depth: 2 } })).toEqual([
        'user.color_depth',
        'user.screen_height',
      ]);
    });
  });

  describe('ip_address', () => {
    it.each([
      '192.0.2.10',
      '0.0.0.0',
      '255.255.255.255',
      '2001:db8::1',
      '::1',
      '::',
      'fe80::1:2:3:4',
      '::ffff:192.0.2.1',
      '2001:0db8:0000:0000:0000:ff00:0042:8329',
    ])('accepts %s', (ip_address) => expect(accepts(withUser({ ip_address }))).toBe(true));

    it.each([
      '256.0.0.1',
      '192.0.2',
      '192.0.2.1.5',
      '01.2.3.4',
      '2001:db8:::1',
      '2001:db8::1::1',
      '1:2:3:4:5:6:7:8:9',
      'fe80::1%eth0',
      'localhost',
      '',
      ' 192.0.2.1',
    ])('rejects %j', (ip_address) => expect(pathsOf(withUser({ ip_address }))).toEqual(['user.ip_address']));
  });

  describe('screen_width and screen_height', () => {
    it.each([1, 1920, 999_999])('accept %d', (size) => {
      expect(accepts(withUser({ screen_width: size, screen_height: size }))).toBe(true);
    });

    it.each([0, -1, 1_000_000, 10.5, '1920', null])('reject %j', (size) => {
      expect(pathsOf(withUser({ screen_width: size, screen_height: size }))).toEqual([
        'user.screen_height',
        'user.screen_width',
      ]);
    });
  });

  describe('color_depth', () => {
    it.each([1, 4, 8, 15, 16, 24, 30, 32, 48])('accepts %d', (color_depth) => {
      expect(accepts(withUser({ color_depth }))).toBe(true);
    });

    it.each([0, 2, 12, 25, 64, '24', 24.5])('rejects %j', (color_depth) => {
      expect(pathsOf(withUser({ color_depth }))).toEqual(['user.color_depth']);
    });
  });

  describe('timezone_offset', () => {
    it.each([-840, -60, 0, 330, 720])('accepts %d', (timezone_offset) => {
      expect(accepts(withUser({ timezone_offset }))).toBe(true);
    });

    it.each([-841, 721, 1.5, '-60', null])('rejects %j', (timezone_offset) => {
      expect(pathsOf(withUser({ timezone_offset }))).toEqual(['user.timezone_offset']);
    });
  });

  describe('language', () => {
    it.each([
      'en',
      'en-US',
      'de-DE',
      'zh-Hant-TW',
      'es-419',
      'sr-Latn-RS',
      'nl',
      'EN-us',
      'x-private',
      'de-CH-1996',
      'en-US-x-twain',
    ])('accepts %s', (language) => expect(accepts(withUser({ language }))).toBe(true));

    it.each(['', 'e', 'en_US', 'en-', '-en', 'en--US', '123', 'en US', 'en-US-' + 'a'.repeat(30), 'toolonglanguage'])(
      'rejects %j',
      (language) => expect(pathsOf(withUser({ language }))).toEqual(['user.language']),
    );
  });

  describe('header fields', () => {
    it.each(['user_agent', 'accept', 'accept_encoding', 'accept_language'])('%s: at most 2048 characters', (field) => {
      expect(accepts(withUser({ [field]: 'x'.repeat(2048) }))).toBe(true);
      expect(pathsOf(withUser({ [field]: 'x'.repeat(2049) }))).toEqual([`user.${field}`]);
      expect(pathsOf(withUser({ [field]: 1 }))).toEqual([`user.${field}`]);
    });

    it('user_agent and accept must not be empty; accept_encoding and accept_language may be', () => {
      expect(pathsOf(withUser({ user_agent: '' }))).toEqual(['user.user_agent']);
      expect(pathsOf(withUser({ accept: '' }))).toEqual(['user.accept']);
      expect(accepts(withUser({ accept_encoding: '', accept_language: '' }))).toBe(true);
    });
  });

  describe('java_enabled and javascript_enabled', () => {
    it.each(['java_enabled', 'javascript_enabled'])('%s is a boolean', (field) => {
      expect(accepts(withUser({ [field]: true }))).toBe(true);
      expect(accepts(withUser({ [field]: false }))).toBe(true);
      for (const value of ['true', 1, 0, null])
        expect(pathsOf(withUser({ [field]: value }))).toEqual([`user.${field}`]);
    });
  });
});
