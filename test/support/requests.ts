import type { BrowserData, Contact } from '../../src/domain/index.js';

export const contact: Contact = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+31201234567',
  address: {
    premise: '12',
    thoroughfare: 'Damrak',
    locality: 'Amsterdam',
    state: 'NH',
    postal_code: '1012 LG',
    country: 'NL',
  },
};

export const browser: BrowserData = {
  ip_address: '203.0.113.7',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml',
  accept_encoding: 'gzip, deflate, br',
  accept_language: 'en-GB,en;q=0.9',
  language: 'en-GB',
  screen_width: 1920,
  screen_height: 1080,
  java_enabled: false,
  javascript_enabled: true,
  color_depth: 24,
  timezone_offset: -60,
};

/** An expiry well in the future of the test clock. */
export const FUTURE_EXPIRY = '2030-12-01T00:00:00.000Z';

export function hostedRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    description: 'Order 1234',
    reference: '8d9a5cbe-1f4e-4c1b-9a0e-5b8f3f0d2c11',
    method: 'creditcard',
    currency: 'EUR',
    amount: 1999,
    billing: contact,
    shipping: contact,
    session: { redirect_url: 'https://shop.example.com/return' },
    ...overrides,
  };
}

export function creditcard(number: string, cvc?: string): Record<string, unknown> {
  return {
    number,
    cvc: cvc ?? (number.startsWith('34') || number.startsWith('37') ? '1234' : '123'),
    expiration: FUTURE_EXPIRY,
    holder_name: 'Ada Lovelace',
  };
}

export function directRequest(number: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return hostedRequest({ creditcard: creditcard(number), user: browser, ...overrides });
}

export function cardSubmission(number: string): Record<string, unknown> {
  return { creditcard: creditcard(number), user: browser };
}
