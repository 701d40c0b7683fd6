import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCardSubmission, parseCreatePaymentRequest } from '../../src/schemas/index.js';
import { finalizeIssues } from '../../src/schemas/validation-issues.js';
import { browser, card, cardNumber, directRequest, issuesOf, NOW } from './fixtures.js';

const SANDBOX_PANS = [
  '4242424242424242',
  '5555555555554444',
  '378282246310005',
  '5200828282828210',
  '4000000000003220',
];

describe('card data never appears in an issue', () => {
  it('masks a card number used as an unknown key', () => {
    expect(issuesOf({ ...directRequest(), '4242424242424242': 1 })).toEqual([
      { path: '[redacted]', message: 'Unknown field' },
    ]);
  });

  it('masks card numbers with separators in keys', () => {
    for (const key of ['4242 4242 4242 4242', '4242-4242-4242-4242', '4242.4242.4242.4242', 'pan=4242424242424242;']) {
      const text = JSON.stringify(issuesOf({ ...directRequest(), [key]: 1 }));
      expect(text).not.toMatch(/4242.?4242.?4242.?4242/);
      expect(text).toContain('[redacted]');
    }
  });

  it('masks card numbers in nested unknown keys', () => {
    const request = directRequest();
    const issues = issuesOf({
      ...request,
      billing: { ...request.billing, address: { ...request.billing.address, '378282246310005': 'x' } },
    });
    expect(issues).toEqual([{ path: 'billing.address.[redacted]', message: 'Unknown field' }]);
  });

  it('masks card numbers in keys written in full-width or other digits, or with invisible characters', () => {
    const fullWidth = '４２４２４２４２４２４２４２４２';
    const arabicIndic = '٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢';
    const zeroWidth = '4242\u200b4242\u200b4242\u200b4242';
    for (const key of [fullWidth, arabicIndic, zeroWidth, `pan ${fullWidth}`]) {
      const text = JSON.stringify(issuesOf({ ...directRequest(), [key]: 1 }));
      expect(text, key).not.toContain(key);
      expect(text.normalize('NFKC')).not.toMatch(/4242.?4242.?4242.?4242/);
      expect(issuesOf({ ...directRequest(), [key]: 1 })).toEqual([{ path: '[redacted]', message: 'Unknown field' }]);
    }
  });

  it('masks a card number whose groups are split over nested keys', () => {
    const issues = finalizeIssues([
      { path: ['４２４２', '４２４２', '４２４２', '４２４２'], message: 'Unknown field' },
    ]);
    expect(issues).toEqual([{ path: '[redacted]', message: 'Unknown field' }]);
  });

  it('keeps keys with few digits or digits that make no card number', () => {
    expect(finalizeIssues([{ path: ['ｆｉｅｌｄ１', 0, 'x'], message: 'm' }])).toEqual([
      { path: 'ｆｉｅｌｄ１.0.x', message: 'm' },
    ]);
  });

  it('never repeats a bad number, CVC or expiry in a message', () => {
    const request = {
      ...directRequest(),
      creditcard: { ...card(), number: '4242424242424241', cvc: '98765', expiration: '2031-02-30' },
    };
    const text = JSON.stringify(issuesOf(request));
    expect(text).not.toContain('4242424242424241');
    expect(text).not.toContain('98765');
    expect(text).not.toContain('2031-02-30');
  });

  const pan = fc.oneof(
    fc.constantFrom(...SANDBOX_PANS),
    fc
      .tuple(fc.constantFrom('4', '51', '2221', '34', '6011', '3528', '62', '50'), fc.integer({ min: 12, max: 19 }))
      .map(([prefix, length]) => cardNumber(prefix, length)),
  );
  const format = fc.constantFrom(
    (p: string) => p,
    (p: string) => p.replace(/(\d{4})(?=\d)/g, '$1 '),
    (p: string) => p.replace(/(\d{4})(?=\d)/g, '$1-'),
    (p: string) => `card ${p}`,
  );
  const junk = fc.jsonValue({ maxDepth: 2 });
  type Mutation = (request: Record<string, unknown>, pan: string, junk: unknown) => void;
  // The object at `path`; an earlier mutation may have replaced it by junk, then it becomes an object again.
  const at = (request: Record<string, unknown>, path: string[]): Record<string, unknown> =>
    path.reduce<Record<string, unknown>>((o, k) => {
      const next = o[k];
      if (typeof next === 'object' && next !== null && !Array.isArray(next)) return next as Record<string, unknown>;
      return (o[k] = {});
    }, request);
  const objects = [[], ['billing'], ['billing', 'address'], ['shipping'], ['session'], ['creditcard'], ['user']];
  const fields = [
    ['description'],
    ['reference'],
    ['currency'],
    ['method'],
    ['amount'],
    ['billing', 'first_name'],
    ['billing', 'email'],
    ['billing', 'phone'],
    ['billing', 'address', 'country'],
    ['session', 'redirect_url'],
    ['creditcard', 'number'],
    ['creditcard', 'cvc'],
    ['creditcard', 'expiration'],
    ['creditcard', 'holder_name'],
    ['user', 'language'],
    ['user', 'ip_address'],
    ['user', 'screen_width'],
    ['user', 'color_depth'],
    ['user', 'java_enabled'],
  ];
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    // the number as an unknown key, in any object
    fc.constantFrom(...objects).map((path): Mutation => (r, p, j) => {
      at(r, path)[p] = j;
    }),
    // the number as the value of any field, as a string or a JSON number
    fc.tuple(fc.constantFrom(...fields), fc.boolean()).map(([path, asNumber]): Mutation => (r, p) => {
      at(r, path.slice(0, -1))[path[path.length - 1] as string] = asNumber ? Number(p.replace(/\D/g, '')) : p;
    }),
    // the number buried in a junk object under an unknown or a known key
    fc
      .tuple(
        fc.constantFrom(...objects),
        fc.constantFrom('extra', 'billing', 'creditcard', 'user', 'address', 'scree_height'),
      )
      .map(([path, key]): Mutation => (r, p, j) => {
        at(r, path)[key] = { [p]: j, deep: [p, { p }] };
      }),
    // a misspelt key next to a missing field, whose hint names the key
    fc.constant<Mutation>((r, p) => {
      const user = at(r, ['user']);
      delete user['screen_height'];
      user[`scree${p}`] = 1;
    }),
  );

  it('holds for random requests with card numbers in random keys and values (property)', () => {
    fc.assert(
      fc.property(
        pan,
        format,
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        junk,
        (digits, fmt, mutations, j) => {
          const shown = fmt(digits);
          const request = structuredClone(directRequest()) as Record<string, unknown>;
          for (const m of mutations) m(request, shown, j);
          const result = parseCreatePaymentRequest(request, { now: NOW });
          if (result.isOk()) return; // e.g. the PAN replaced the card number
          const text = JSON.stringify(result.error);
          expect(text).not.toContain(digits);
          expect(text).not.toContain(shown);
          expect(text.replace(/[^\d]/g, '')).not.toContain(digits.slice(0, 12));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('holds for hosted-page submissions too (property)', () => {
    fc.assert(
      fc.property(pan, format, junk, fc.constantFrom('creditcard', 'user', ''), (digits, fmt, j, where) => {
        const shown = fmt(digits);
        const input: Record<string, unknown> = { creditcard: { ...card(), cvc: shown }, user: browser() };
        if (where === '') input[shown] = j;
        else (input[where] as Record<string, unknown>)[shown] = j;
        const text = JSON.stringify(parseCardSubmission(input, { now: NOW })._unsafeUnwrapErr());
        expect(text).not.toContain(digits);
        expect(text).not.toContain(shown);
      }),
    );
  });
});

describe('finalizeIssues', () => {
  it('sorts by path, array indices numerically, parents first', () => {
    const issues = finalizeIssues([
      { path: ['b'], message: 'x' },
      { path: ['a', 10], message: 'x' },
      { path: ['a', 2], message: 'x' },
      { path: ['a'], message: 'x' },
      { path: [], message: 'x' },
    ]);
    expect(issues.map((i) => i.path)).toEqual(['', 'a', 'a.2', 'a.10', 'b']);
  });

  it('keeps the first issue of each path', () => {
    expect(
      finalizeIssues([
        { path: ['a'], message: 'first' },
        { path: ['a'], message: 'second' },
      ]),
    ).toEqual([{ path: 'a', message: 'first' }]);
  });

  it('caps long paths and messages', () => {
    const [issue] = finalizeIssues([{ path: ['x'.repeat(10_000), 'y'.repeat(10_000)], message: 'm'.repeat(10_000) }]);
    expect(issue?.path.length).toBeLessThanOrEqual(256);
    expect(issue?.message.length).toBeLessThanOrEqual(300);
  });

  it('masks 12+ digit runs in messages but keeps shorter numbers', () => {
    expect(finalizeIssues([{ path: ['a'], message: 'saw 4242424242424242 and 4242 4242 4242 4242' }])[0]?.message).toBe(
      'saw [redacted] and [redacted]',
    );
    expect(finalizeIssues([{ path: ['a'], message: 'Must be at most 999,999,999,999 or 2048' }])[0]?.message).toBe(
      'Must be at most 999,999,999,999 or 2048',
    );
  });

  it('shows at most 100 issues and says how many more there are', () => {
    const raw = Array.from({ length: 250 }, (_, i) => ({
      path: [`k${String(i).padStart(3, '0')}`],
      message: 'Unknown field',
    }));
    const issues = finalizeIssues(raw);
    expect(issues).toHaveLength(100);
    expect(issues[99]).toEqual({ path: '', message: '151 more issues not shown' });
  });

  it('caps the issues of a hostile body with many unknown keys', () => {
    const body = {
      ...directRequest(),
      ...Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`field${i}`, i])),
    };
    expect(issuesOf(body).length).toBeLessThanOrEqual(100);
  });
});
