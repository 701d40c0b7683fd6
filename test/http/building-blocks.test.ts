import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../adapters/http/auth.js';
import { normalizeBasePath } from '../../adapters/http/base-path.js';
import { canonicalJson } from '../../adapters/http/canonical-json.js';
import { acceptsJson, isJsonContentType } from '../../adapters/http/content-negotiation.js';
import { idempotencyKeyOf, requestFingerprint } from '../../adapters/http/idempotency.js';
import { parseJsonBody } from '../../adapters/http/json-body.js';
import { problemDocument, safeText } from '../../adapters/http/problem-details.js';
import { NUM_RUNS } from '../support/property-runs.js';

describe('content negotiation', () => {
  it.each([
    [null, true],
    ['', true],
    ['*/*', true],
    ['application/json', true],
    ['Application/JSON; charset=utf-8', true],
    ['application/*', true],
    ['application/*+json', true],
    ['application/problem+json', true],
    ['text/html, */*;q=0.1', true],
    ['text/html', false],
    ['application/json;q=0', false],
    ['application/json;q=0.0, text/html', false],
    ['garbage', false],
  ])('Accept %j → %s', (accept, ok) => {
    expect(acceptsJson(accept)).toBe(ok);
  });

  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['application/json;charset="UTF-8"', true],
    ['APPLICATION/JSON', true],
    ['application/json; charset=iso-8859-1', false],
    ['text/json', false],
    ['application/problem+json', false],
    [null, false],
    ['', false],
  ])('Content-Type %j → %s', (contentType, ok) => {
    expect(isJsonContentType(contentType)).toBe(ok);
  });
});

describe('bearer tokens', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc.DEF-_~+/=', 'abc.DEF-_~+/='],
    ['Bearer   spaced  ', 'spaced'],
    ['Bearer', null],
    ['Bearer a b', null],
    ['Basic abc', null],
    ['Bearer ' + 'x'.repeat(5000), null],
    [null, null],
  ])('%j → %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});

describe('base path', () => {
  it('normalises prefixes', () => {
    expect(['', '/', undefined].map(normalizeBasePath)).toEqual(['', '', '']);
    expect(normalizeBasePath('api/')).toBe('/api');
    expect(() => normalizeBasePath('/a?b')).toThrow(TypeError);
  });
});

describe('request fingerprints', () => {
  it('ignore member order and whitespace, and tell method, path and body apart', async () => {
    const body = { b: [1, { y: 2, x: 'é' }], a: null };
    const same = JSON.parse(JSON.stringify({ a: null, b: [1, { x: 'é', y: 2 }] }), undefined);
    const fp = (method: string, path: string, value: unknown) => requestFingerprint(method, path, value);
    expect(await fp('POST', '/v1/p', body)).toBe(await fp('POST', '/v1/p', same));
    expect(await fp('POST', '/v1/p', body)).toMatch(/^[0-9a-f]{64}$/);
    expect(await fp('POST', '/v1/p', body)).not.toBe(await fp('POST', '/v1/q', body));
    expect(await fp('POST', '/v1/p', body)).not.toBe(await fp('PUT', '/v1/p', body));
    expect(await fp('POST', '/v1/p', body)).not.toBe(await fp('POST', '/v1/p', { ...body, a: 0 }));
  });

  it('never depend on the card digits or the CVC the payment record does not keep (found by a reviewing helper)', async () => {
    // An unkeyed hash of the whole body could be reversed: the stored payment shows everything
    // else, leaving a few digits and the CVC to try.
    const fp = (card: Record<string, unknown>) =>
      requestFingerprint('POST', '/v1/p', { amount: 1999, creditcard: { expiration: '2030-12', ...card } });
    const base = await fp({ number: '4242424242424242', cvc: '123' });
    expect(await fp({ number: '4242420000004242', cvc: '123' })).toBe(base);
    expect(await fp({ number: '4242424242424242', cvc: '737' })).toBe(base);
    expect(await fp({ number: '4242 4242 4242 4242' })).toBe(base);
    // What the record keeps still tells requests apart.
    expect(await fp({ number: '4000056655665556', cvc: '123' })).not.toBe(base);
    expect(await fp({ number: '4242424242421111', cvc: '123' })).not.toBe(base);
    expect(await fp({ number: '4242424242424242', cvc: '123', expiration: '2031-01' })).not.toBe(base);
    // A card number of another type or length is cut the same way.
    expect(await fp({ number: 4242424242424242 })).toBe(base);
    expect(await fp({ number: '424242' })).not.toBe(base);
    // Fuzzing every middle digit and CVC: one fingerprint.
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^\d{6}$/), fc.stringMatching(/^\d{3,4}$/), async (middle, cvc) => {
        expect(await fp({ number: `424242${middle}4242`, cvc })).toBe(base);
      }),
      { numRuns: 200 },
    );
  });

  it('never depend on the digits a short card number keeps hidden (found by an outside security review)', async () => {
    // A 12-digit Maestro keeps a BIN of 2 digits (binOf): a fingerprint of its first six would
    // leave 10^4 numbers to try against it, and with the Luhn digit the card is back.
    const fp = (number: string) =>
      requestFingerprint('POST', '/v1/p', { amount: 1999, creditcard: { number, cvc: '123' } });
    const base = await fp('500000123454');
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^\d{6}$/), async (hidden) => {
        expect(await fp(`50${hidden}3454`)).toBe(base);
      }),
      { numRuns: 200 },
    );
    // What the record keeps still tells requests apart.
    expect(await fp('510000123454')).not.toBe(base);
    expect(await fp('500000123455')).not.toBe(base);
    // A 15-digit number keeps 5 of BIN, a 16-digit one still 6 of its 8 (as before).
    const amex = await fp('378282246310005');
    expect(await fp('378289999990005')).toBe(amex);
    expect(await fp('378299999990005')).not.toBe(amex);
    expect(await fp('4242429999994242')).toBe(await fp('4242424242424242'));
    expect(await fp('4242439999994242')).not.toBe(await fp('4242424242424242'));
  });

  it('canonical JSON is stable under any reordering of members (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const shuffled = JSON.parse(JSON.stringify(value, (_key, v: unknown) => reverseKeys(v)));
        expect(canonicalJson(shuffled)).toBe(canonicalJson(value));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

function reverseKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).reverse());
}

describe('Idempotency-Key header', () => {
  it('accepts 1 to 255 printable ASCII characters', () => {
    expect(idempotencyKeyOf(null)._unsafeUnwrap()).toBeNull();
    expect(idempotencyKeyOf('a')._unsafeUnwrap()).toBe('a');
    expect(idempotencyKeyOf('k'.repeat(255)).isOk()).toBe(true);
    for (const bad of ['', 'k'.repeat(256), 'tab\there', 'caf\u00e9']) expect(idempotencyKeyOf(bad).isErr()).toBe(true);
  });
});

describe('JSON bodies', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it('parse UTF-8 JSON, refuse the rest without quoting it', () => {
    expect(parseJsonBody(bytes('{"a":1}'))._unsafeUnwrap()).toEqual({ a: 1 });
    expect(parseJsonBody(bytes('\ufeff{"a":1}'))._unsafeUnwrap()).toEqual({ a: 1 });
    for (const text of ['', '{', '{"number":"4242424242424242"', 'undefined']) {
      const problem = parseJsonBody(bytes(text))._unsafeUnwrapErr();
      expect(problem.code).toBe('invalid_json');
      expect(problem.detail).not.toContain('4242');
    }
    expect(parseJsonBody(new Uint8Array([0xff]))._unsafeUnwrapErr().code).toBe('invalid_json');
    expect(parseJsonBody(bytes('['.repeat(33) + ']'.repeat(33)))._unsafeUnwrapErr().code).toBe('validation_failed');
    expect(parseJsonBody(bytes('['.repeat(32) + ']'.repeat(32))).isOk()).toBe(true);
    // Brackets inside strings do not count.
    expect(parseJsonBody(bytes(JSON.stringify(['['.repeat(40) + '"[']))).isOk()).toBe(true);
  });
});

describe('problem documents', () => {
  it('mask card numbers in any text and cap its length', () => {
    expect(safeText('card 4242 4242 4242 4242 and 4242-4242-4242-4242 and 378282246310005')).toBe(
      'card [redacted] and [redacted] and [redacted]',
    );
    expect(safeText('x'.repeat(2000))).toHaveLength(500);
    // A bound written with thousands separators is ours, not a card number; a number grouped otherwise is masked.
    expect(safeText('Must be an integer from 1 to 999,999,999,999, in minor units')).toBe(
      'Must be an integer from 1 to 999,999,999,999, in minor units',
    );
    expect(safeText('4242,4242,4242,4242 and 4,242,424,242,424,242')).toBe('[redacted] and [redacted]');
    const document = problemDocument(
      { code: 'validation_failed', detail: 'd', errors: [{ path: '4242424242424242', message: 'Unknown field' }] },
      'https://docs.example/problems/',
    );
    expect(document).toEqual({
      type: 'https://docs.example/problems/validation_failed',
      title: 'The request is invalid',
      status: 400,
      detail: 'd',
      code: 'validation_failed',
      errors: [{ path: '[redacted]', message: 'Unknown field' }],
    });
  });
});
