import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsCardNumber } from '../../src/domain/card-number.js';
import { withoutCardNumber } from '../../src/schemas/browser-data.js';
import { parseCardSubmission, parseCreatePaymentRequest } from '../../src/schemas/index.js';
import { NUM_RUNS } from '../support/property-runs.js';
import { browser, directRequest } from '../support/requests.js';

// Found by a reviewing helper: the browser's headers (user_agent, accept, accept_encoding,
// accept_language) were stored and sent to 3DS as given, card numbers included.

const NOW = Date.parse('2026-01-15T12:00:00Z');
const HEADERS = ['user_agent', 'accept', 'accept_encoding', 'accept_language'] as const;
const CARDS = ['4242424242424242', '5555555555554444', '378282246310005', '6011111111111117'];

/** A card number as people write it: plain, in groups of four, or in full-width digits. */
const writtenCard = fc
  .tuple(fc.constantFrom(...CARDS), fc.constantFrom('plain', 'spaced', 'dashed', 'full-width'))
  .map(([number, how]) =>
    how === 'plain'
      ? number
      : how === 'full-width'
        ? number.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)))
        : (number.match(/.{1,4}/g) ?? []).join(how === 'spaced' ? ' ' : '-'),
  );

describe('a card number in a browser header field', () => {
  it.each(HEADERS)('user.%s: the request is taken, and the card number is neither kept nor passed on', (field) => {
    const sent = `Mozilla/5.0 (4242 4242 4242 4242) Chrome/126.0`;
    const parsed = parseCreatePaymentRequest(
      directRequest('5555555555554444', { user: { ...browser, [field]: sent } }),
      {
        now: NOW,
      },
    );
    const user = parsed._unsafeUnwrap().user;
    expect(user?.[field]).toBe('Mozilla/*.* (**** **** **** ****) Chrome/***.*');
    expect(containsCardNumber(JSON.stringify(user))).toBe(false);
    // The other fields are as sent.
    expect({ ...user, [field]: browser[field] }).toEqual(browser);
  });

  it('the hosted page’s submission is masked the same way', () => {
    const parsed = parseCardSubmission(
      {
        creditcard: {
          number: '4242424242424242',
          cvc: '123',
          expiration: '2030-12-01T00:00:00.000Z',
          holder_name: 'Ada Lovelace',
        },
        user: { ...browser, user_agent: 'Agent 4242-4242-4242-4242' },
      },
      { now: NOW },
    );
    expect(parsed._unsafeUnwrap().browser.user_agent).toBe('Agent ****-****-****-****');
  });

  it('real browsers’ headers are kept as they are', () => {
    for (const agent of [
      browser.user_agent,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/440.0.0.33.117;FBBV/560429543;FBDV/iPhone14,2;FBSV/17.0.3;FBSS/3;FBRV/562133232]',
      'Mozilla/5.0 (Linux; Android 13; SM-S918B Build/TP1A.220624.014; wv) AppleWebKit/537.36 Instagram 309.1.0.41.113 Android (33/13; 480dpi; 1080x2340; samsung; en_US; 541635890)',
    ]) {
      expect(withoutCardNumber(agent)).toBe(agent);
    }
  });

  it('property: what is kept holds no card number, and text without one is kept as it is', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), writtenCard, fc.string({ maxLength: 60 }), (before, card, after) => {
        const kept = withoutCardNumber(`${before}${card}${after}`);
        expect(containsCardNumber(kept)).toBe(false);
        expect(kept.length).toBe(`${before}${card}${after}`.length);
      }),
      { numRuns: NUM_RUNS },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        fc.pre(!containsCardNumber(text));
        expect(withoutCardNumber(text)).toBe(text);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
