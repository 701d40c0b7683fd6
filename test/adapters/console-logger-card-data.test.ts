import { describe, expect, it } from 'vitest';
import { createConsoleLogger } from '../../adapters/node/index.js';
import { createTestClock } from '../../adapters/memory/index.js';

function logged(fields: Record<string, unknown>, message = 'line'): string {
  const lines: string[] = [];
  const logger = createConsoleLogger({ stream: { write: (chunk) => lines.push(chunk) }, clock: createTestClock() });
  logger.info(fields, message);
  return lines.join('');
}

describe('the console logger and card numbers written in other ways (found by a reviewing helper)', () => {
  it.each([
    ['dots', '4242.4242.4242.4242'],
    ['slashes', '4242/4242/4242/4242'],
    ['underscores', '4242_4242_4242_4242'],
    ['spaced slashes', '4242 / 4242 / 4242 / 4242'],
    ['an en dash', '4242–4242–4242–4242'],
    ['full-width digits', '４２４２４２４２４２４２４２４２'],
  ])('redacts a card number grouped with %s, in a value and in the message', (_, number) => {
    const line = logged({ reference: `order ${number}` }, `got ${number}`);
    expect(line).not.toContain(number);
    expect(line).not.toMatch(/4242|４２４２/);
    expect(line).toContain('[redacted]');
  });

  it('redacts the values of security_code and primary_account_number', () => {
    const line = logged({ security_code: '937', card: { primary_account_number: 'x', csc: '937' } });
    expect(line).not.toContain('937');
  });

  it('keeps the timestamp, ids, addresses and small numbers', () => {
    const line = logged({
      paymentId: 'payment_0123456789abcdef0123456789abcdef',
      ip: '203.0.113.7',
      // 12 digits joined by dots, as a card number may be: an IPv4 address is kept.
      forwarded: '192.168.100.200',
      ms: 12,
    });
    expect(line).toContain('payment_0123456789abcdef0123456789abcdef');
    expect(line).toContain('203.0.113.7');
    expect(line).toContain('192.168.100.200');
    expect(line).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z INFO /);
    expect(line).not.toContain('[redacted]');
  });
});
