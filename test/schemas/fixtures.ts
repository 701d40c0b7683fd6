import { luhnValid } from '../../src/domain/card-number.js';
import type { ValidationIssue } from '../../src/errors/payment-error.js';
import { parseCreatePaymentRequest } from '../../src/schemas/index.js';

/** 15 May 2026, 12:00 UTC: the current month is 2026-05. */
export const NOW = Date.UTC(2026, 4, 15, 12);

/** A Luhn-valid number: `prefix`, zeros, and the check digit, `length` digits in all. */
export function cardNumber(prefix: string, length: number): string {
  const body = prefix.padEnd(length - 1, '0');
  for (let d = 0; d <= 9; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error('unreachable');
}

export const contact = () => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+441234567890',
  address: {
    premise: '12',
    thoroughfare: 'Main Street',
    locality: 'London',
    state: 'LND',
    postal_code: 'SW1A 1AA',
    country: 'GB',
  },
});

export const browser = () => ({
  ip_address: '192.0.2.10',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  accept_encoding: 'gzip, deflate, br',
  accept_language: 'en-GB,en;q=0.5',
  language: 'en-GB',
  screen_width: 1920,
  screen_height: 1080,
  java_enabled: false,
  javascript_enabled: true,
  color_depth: 24,
  timezone_offset: -60,
});

export const card = () => ({
  number: '4242424242424242',
  cvc: '123',
  expiration: '2030-12-01T00:00:00.000Z',
  holder_name: 'Ada Lovelace',
});

export const hostedRequest = () => ({
  description: 'Order 1234',
  reference: '0b0e9b3e-7c1f-4a7e-9d7a-1f0c2f5e6a01',
  method: 'creditcard',
  currency: 'EUR',
  amount: 1000,
  billing: contact(),
  shipping: contact(),
  session: { redirect_url: 'https://shop.example/return' },
});

export const directRequest = () => ({ ...hostedRequest(), creditcard: card(), user: browser() });

/** The issues of a request that must fail. */
export function issuesOf(input: unknown, now = NOW): ValidationIssue[] {
  const result = parseCreatePaymentRequest(input, { now });
  if (result.isOk()) throw new Error(`expected validation to fail: ${JSON.stringify(input).slice(0, 200)}`);
  return result.error;
}

/** The paths of the issues of a request that must fail. */
export const pathsOf = (input: unknown, now = NOW): string[] => issuesOf(input, now).map((i) => i.path);

/** Whether a request is accepted. */
export const accepts = (input: unknown, now = NOW): boolean => parseCreatePaymentRequest(input, { now }).isOk();

/** `request` with the value at the dotted `path` replaced (or removed when `value` is `undefined`). */
export function withField(request: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(request);
  const keys = path.split('.');
  const last = keys.pop() as string;
  let target = copy as Record<string, unknown>;
  for (const key of keys) target = target[key] as Record<string, unknown>;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}
