import { describe, expect, it } from 'vitest';
import { problemDocument, safeText } from '../../adapters/http/problem-details.js';
import { COLOR_DEPTHS } from '../../src/schemas/browser-data.js';
import { browser, directRequest } from '../support/requests.js';
import { makeApi, serve, TOKENS } from './support/api-harness.js';
import { post } from './support/client.js';

describe('safeText: lists of small numbers', () => {
  it('lets the colour-depth message of our own schema through as it is', () => {
    const message = `Must be one of ${COLOR_DEPTHS.join(', ')}`;
    expect(message).toBe('Must be one of 1, 4, 8, 15, 16, 24, 30, 32, 48');
    expect(safeText(message)).toBe(message);
    const document = problemDocument({
      code: 'validation_failed',
      detail: 'The request is invalid',
      errors: [{ path: 'user.color_depth', message }],
    });
    expect(document.errors).toEqual([{ path: 'user.color_depth', message }]);
  });

  it('reaches a client over HTTP in the validation_failed problem for user.color_depth', async () => {
    const server = await serve('node:http', makeApi());
    try {
      const answer = await post(
        `${server.base}/v1/profiles/profile_alpha_main/payments`,
        TOKENS.alphaCompliant,
        directRequest('4242424242424242', { user: { ...browser, color_depth: 7 } }),
      );
      expect(answer.status).toBe(400);
      expect(answer.json.errors).toContainEqual({
        path: 'user.color_depth',
        message: 'Must be one of 1, 4, 8, 15, 16, 24, 30, 32, 48',
      });
      expect(answer.text).not.toContain('4242424242424242');
    } finally {
      await server.close();
    }
  });

  it.each([
    ['a card number in groups of four', 'card 4242 4242 4242 4242 given'],
    ['a card number whole', 'card 4242424242424242 given'],
    ['a Visa number split into a list of three-digit numbers', 'one of 424, 242, 424, 242, 424, 242, 424, 2'],
    ['a Visa number in a list of small numbers', 'one of 424, 242, 424, 242, 424, 242, 4'],
    ['a Mastercard number in a list, after other numbers', 'one of 1, 2, 555, 555, 555, 555, 444, 4'],
    ['a card number split mid-number in a list', 'one of 14, 242, 424, 242, 424, 242, 42'],
    ['a list of four-digit groups', 'one of 4242, 4242, 4242, 4242'],
    ['a list of four-digit numbers that is no card', 'one of 1000, 2000, 3000, 4000'],
  ])('still redacts %s', (_, text) => {
    expect(safeText(text)).toContain('[redacted]');
    expect(safeText(text)).not.toMatch(/\d{4}/);
  });

  it('keeps the thousands rule as it was', () => {
    expect(safeText('at most 999,999,999,999')).toBe('at most 999,999,999,999');
    expect(safeText('4,242,424,242,424,242')).toBe('[redacted]');
  });
});
