import { describe, expect, it } from 'vitest';
import { redirectUrlProblem } from '../../src/domain/redirect-url.js';

describe('redirectUrlProblem', () => {
  it.each([
    'https://shop.example/return',
    'https://shop.example:8443/return?order=1#done',
    'https://xn--bcher-kva.example/',
    'http://localhost/return',
    'http://localhost:3000/return',
    'http://LOCALHOST:3000/',
    'http://127.0.0.1:8080/return',
    'http://127.1.2.3/',
    'http://[::1]:3000/return',
    'http://[0:0:0:0:0:0:0:1]/',
  ])('accepts %s', (url) => expect(redirectUrlProblem(url)).toBeNull());

  it.each([
    ['http://example.com/return', 'insecure'],
    ['http://localhost.example.com/', 'insecure'],
    ['http://128.0.0.1/', 'insecure'],
    ['http://10.0.0.1/', 'insecure'],
    ['http://[::2]/', 'insecure'],
    ['ftp://shop.example/', 'insecure'],
    ['javascript:alert(1)', 'insecure'],
    ['mailto:shop@example.com', 'insecure'],
    ['/return', 'not_absolute'],
    ['return', 'not_absolute'],
    ['//shop.example/return', 'not_absolute'],
    ['', 'not_absolute'],
    ['https://', 'not_absolute'],
    // A browser resolves these against the page that redirects, not as the host they seem to name.
    ['https:shop.example/return', 'not_absolute'],
    ['https:/shop.example/return', 'not_absolute'],
    ['http:localhost/return', 'not_absolute'],
    ['https://shop.example/a b', 'invalid_characters'],
    [' https://shop.example/', 'invalid_characters'],
    ['https://shop.example/\n', 'invalid_characters'],
    ['https://u:p@shop.example/x', 'credentials'],
    ['https://bank.example@evil.example/', 'credentials'],
    ['https://:secret@shop.example/', 'credentials'],
    ['http://user@localhost/', 'credentials'],
  ])('rejects %s (%s)', (url, problem) => expect(redirectUrlProblem(url)).toBe(problem));

  it('accepts 2048 characters and rejects 2049', () => {
    const base = 'https://shop.example/';
    expect(redirectUrlProblem(base + 'a'.repeat(2048 - base.length))).toBeNull();
    expect(redirectUrlProblem(base + 'a'.repeat(2049 - base.length))).toBe('too_long');
  });

  it('holds the limit for the percent-encoded form a Location header carries', () => {
    const base = 'https://shop.example/';
    // 9 characters each once encoded (%E8%BF%94): 227 fit in 2048, 228 do not.
    expect(redirectUrlProblem(base + '返'.repeat(225))).toBeNull();
    expect(new URL(base + '返'.repeat(225)).href.length).toBe(2046);
    expect(redirectUrlProblem(base + '返'.repeat(226))).toBe('too_long_encoded');
    expect(redirectUrlProblem(base + '😀'.repeat(1000))).toBe('too_long_encoded');
    // ASCII that the URL parser encodes counts as encoded too.
    expect(redirectUrlProblem(base + '{'.repeat(1000))).toBe('too_long_encoded');
    // The scheme rules come first.
    expect(redirectUrlProblem('http://evil.example/' + '返'.repeat(500))).toBe('insecure');
  });
});
