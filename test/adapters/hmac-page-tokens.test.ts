import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHmacPageTokens } from '../../adapters/node/index.js';

const SECRET = 'hmac-page-tokens-test-secret-0123456789';
const ID = `payment_${'ab'.repeat(16)}`;

describe('createHmacPageTokens', () => {
  it('makes the same URL-safe token for the same id and secret, another for any other', () => {
    const token = createHmacPageTokens(SECRET).tokenFor(ID);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createHmacPageTokens(SECRET).tokenFor(ID)).toBe(token);
    expect(createHmacPageTokens(`${SECRET}x`).tokenFor(ID)).not.toBe(token);
    expect(createHmacPageTokens(SECRET).tokenFor(`payment_${'ab'.repeat(15)}ac`)).not.toBe(token);
    // Not the bare HMAC of the id: the key signs nothing else alike (e.g. a CSRF proof).
    expect(token).not.toBe(createHmac('sha256', SECRET).update(ID).digest('base64url'));
    expect(token).not.toContain(SECRET);
  });

  it('refuses a secret under 32 characters, without repeating it', () => {
    for (const secret of ['', 'short-secret', 'x'.repeat(31), undefined, 42]) {
      expect(() => createHmacPageTokens(secret as string)).toThrow(RangeError);
    }
    expect(() => createHmacPageTokens('hunter2-short')).toThrow(/^(?!.*hunter2)/);
    expect(() => createHmacPageTokens('x'.repeat(32))).not.toThrow();
  });
});
