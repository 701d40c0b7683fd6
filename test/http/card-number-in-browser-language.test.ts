import { describe, expect, it } from 'vitest';
import { collectBrowserData } from '../../adapters/http/hosted-page/browser-data.js';
import { parseCreatePaymentRequest } from '../../src/schemas/index.js';
import { browser, directRequest } from '../support/requests.js';

const IN_PRIVATE_USE = 'x-42424242-42424242';

describe('a card number in user.language (found by a reviewing helper)', () => {
  it('is refused by the API rules, not stored', () => {
    const parsed = parseCreatePaymentRequest(
      directRequest('5555555555554444', { user: { ...browser, language: IN_PRIVATE_USE } }),
      {
        now: Date.parse('2026-01-15T12:00:00Z'),
      },
    );
    expect(parsed._unsafeUnwrapErr()).toEqual([{ path: 'user.language', message: 'Must not contain a card number' }]);
  });

  it('private-use tags without one are still taken', () => {
    const parsed = parseCreatePaymentRequest(
      directRequest('5555555555554444', { user: { ...browser, language: 'en-x-1234' } }),
      {
        now: Date.parse('2026-01-15T12:00:00Z'),
      },
    );
    expect(parsed.isOk()).toBe(true);
  });

  it('the hosted page does not pass one on from the form or Accept-Language', () => {
    const request = new Request('http://pay.test/pay/payment_1', {
      method: 'POST',
      headers: { 'accept-language': `${IN_PRIVATE_USE},en;q=0.5`, 'user-agent': 'Test/1.0', accept: 'text/html' },
    });
    const fields = new URLSearchParams({ javascript_enabled: 'true', language: IN_PRIVATE_USE });
    expect(collectBrowserData(request, fields, '203.0.113.7').language).toBe('en');
  });
});
