import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createChallengeResponse, verifyChallengeResponse } from '../../adapters/sandbox/index.js';

const secret = 'sandbox-secret';
const response = { paymentId: 'payment_1', transactionId: 'threeds_abc', decision: 'authorise' } as const;

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('challenge response (cres)', () => {
  it('reads back what it signed', () => {
    const cres = createChallengeResponse({ secret, ...response });
    expect(cres).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyChallengeResponse({ secret, cres })).toEqual(response);
    const refused = createChallengeResponse({ secret, ...response, decision: 'refuse' });
    expect(verifyChallengeResponse({ secret, cres: refused })).toEqual({ ...response, decision: 'refuse' });
  });

  it('refuses a result signed with another secret', () => {
    const cres = createChallengeResponse({ secret: 'another-secret', ...response });
    expect(verifyChallengeResponse({ secret, cres })).toBeNull();
  });

  it('refuses a payload changed under the original signature', () => {
    const cres = createChallengeResponse({ secret, ...response, decision: 'refuse' });
    const signature = cres.split('.')[1];
    const forged = `${encode({ ...response, decision: 'authorise' })}.${signature}`;
    expect(verifyChallengeResponse({ secret, cres: forged })).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['no signature', encode(response)],
    ['three parts', `${createChallengeResponse({ secret, ...response })}.x`],
    ['not base64url', 'a+b.c/d'],
    ['too long', `${'a'.repeat(5000)}.b`],
  ])('refuses a malformed result (%s)', (_label, cres) => {
    expect(verifyChallengeResponse({ secret, cres })).toBeNull();
  });

  it('accepts a payload signed by hand the documented way (HMAC-SHA256 of the base64url payload)', () => {
    const encoded = encode(response);
    const signature = createHmac('sha256', secret).update(encoded).digest('base64url');
    expect(verifyChallengeResponse({ secret, cres: `${encoded}.${signature}` })).toEqual(response);
  });

  it.each([
    ['an unknown decision', encode({ ...response, decision: 'maybe' })],
    ['a missing transaction', encode({ paymentId: 'payment_1', decision: 'authorise' })],
    ['an extra member', encode({ ...response, extra: true })],
    ['not JSON', Buffer.from('not json').toString('base64url')],
  ])('refuses a correctly signed payload with %s', (_label, encoded) => {
    const signature = createHmac('sha256', secret).update(encoded).digest('base64url');
    expect(verifyChallengeResponse({ secret, cres: `${encoded}.${signature}` })).toBeNull();
  });

  it('refuses any single-character change of a valid result', () => {
    const alphabet = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ '];
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.constantFrom('authorise' as const, 'refuse' as const),
        fc.nat(),
        fc.constantFrom(...alphabet),
        (paymentId, transactionId, decision, position, replacement) => {
          const cres = createChallengeResponse({ secret, paymentId, transactionId, decision });
          expect(verifyChallengeResponse({ secret, cres })).toEqual({ paymentId, transactionId, decision });
          const index = position % cres.length;
          fc.pre(cres[index] !== replacement);
          const tampered = cres.slice(0, index) + replacement + cres.slice(index + 1);
          expect(verifyChallengeResponse({ secret, cres: tampered })).toBeNull();
        },
      ),
    );
  });
});
