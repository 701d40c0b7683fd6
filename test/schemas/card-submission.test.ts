import { describe, expect, it } from 'vitest';
import { cardSubmissionSchema, parseCardSubmission } from '../../src/schemas/index.js';
import { browser, card, NOW } from './fixtures.js';

const submission = () => ({ creditcard: card(), user: browser() });

describe('parseCardSubmission', () => {
  it('returns the card in the domain form and the browser data', () => {
    expect(parseCardSubmission(submission(), { now: NOW })._unsafeUnwrap()).toEqual({
      card: {
        number: '4242424242424242',
        cvc: '123',
        expiration: '2030-12-01T00:00:00.000Z',
        holderName: 'Ada Lovelace',
        scheme: 'visa',
      },
      browser: browser(),
    });
  });

  it('accepts an amex card with a 4-digit CVC', () => {
    const input = { ...submission(), creditcard: { ...card(), number: '378282246310005', cvc: '1234' } };
    expect(parseCardSubmission(input, { now: NOW })._unsafeUnwrap().card.scheme).toBe('amex');
  });

  it('requires both creditcard and user', () => {
    expect(parseCardSubmission({ creditcard: card() }, { now: NOW })._unsafeUnwrapErr()).toEqual([
      { path: 'user', message: 'Required' },
    ]);
    expect(parseCardSubmission({ user: browser() }, { now: NOW })._unsafeUnwrapErr()).toEqual([
      { path: 'creditcard', message: 'Required' },
    ]);
    expect(parseCardSubmission(undefined, { now: NOW })._unsafeUnwrapErr()).toEqual([
      { path: '', message: 'Required' },
    ]);
  });

  it('rejects unknown fields', () => {
    expect(parseCardSubmission({ ...submission(), amount: 1 }, { now: NOW })._unsafeUnwrapErr()).toEqual([
      { path: 'amount', message: 'Unknown field' },
    ]);
  });

  it('rejects an expired card against the given now', () => {
    const input = { ...submission(), creditcard: { ...card(), expiration: '2026-04-01T00:00:00.000Z' } };
    expect(
      parseCardSubmission(input, { now: NOW })
        ._unsafeUnwrapErr()
        .map((i) => i.path),
    ).toEqual(['creditcard.expiration']);
    expect(parseCardSubmission(input, { now: Date.UTC(2026, 3, 30) }).isOk()).toBe(true);
  });

  it('reports the expiry together with other issues, sorted', () => {
    const input = {
      creditcard: { ...card(), expiration: '2020-01-01T00:00:00.000Z', holder_name: 'A' },
      user: { ...browser(), color_depth: 7 },
    };
    expect(
      parseCardSubmission(input, { now: NOW })
        ._unsafeUnwrapErr()
        .map((i) => i.path),
    ).toEqual(['creditcard.expiration', 'creditcard.holder_name', 'user.color_depth']);
  });

  it('validates with the same rules as the direct flow', () => {
    const input = {
      creditcard: { ...card(), number: '4242424242424241', cvc: '12' },
      user: { ...browser(), language: 'en_US' },
    };
    expect(
      parseCardSubmission(input, { now: NOW })
        ._unsafeUnwrapErr()
        .map((i) => i.path),
    ).toEqual(['creditcard.cvc', 'creditcard.number', 'user.language']);
  });

  it('exposes its zod schema', () => {
    expect(Object.keys(cardSubmissionSchema.shape).sort()).toEqual(['creditcard', 'user']);
  });
});
