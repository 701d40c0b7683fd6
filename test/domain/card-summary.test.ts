import { describe, expect, it } from 'vitest';
import { binOf, summarizeCard } from '../../src/domain/card.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { createDirect, stored } from '../support/engine-helpers.js';

/**
 * What is kept of a card number: the BIN (8 digits for numbers of 16 digits or more, else 6) and
 * the last four digits, never more. Written against a mutant (7 digits kept of a 15-digit number)
 * that no other test killed.
 */
describe('card summary', () => {
  it.each([
    ['4222222222222', '422222'], // visa, 13 digits
    ['36227206271667', '362272'], // diners, 14
    ['378282246310005', '378282'], // amex, 15
    ['4242424242424242', '42424242'], // 16
    ['6011000990139424', '60110009'], // discover, 16
    ['4000000000000000006', '40000000'], // visa, 19
  ])('%s keeps the BIN %s', (number, bin) => {
    expect(binOf(number)).toBe(bin);
    const summary = summarizeCard({
      number,
      cvc: '123',
      expiration: '2030-12-01T00:00:00.000Z',
      holderName: 'Ada Lovelace',
      scheme: 'visa',
    });
    expect(summary).toEqual({
      scheme: 'visa',
      bin,
      last4: number.slice(-4),
      expiration: '2030-12-01T00:00:00.000Z',
      holder_name: 'Ada Lovelace',
    });
  });

  it('an amex payment stores 6 digits of BIN and the last four, nothing else of the number', async () => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, '378282246310005');
    expect(payment.creditcard?.card).toMatchObject({ scheme: 'amex', bin: '378282', last4: '0005' });
    const record = await stored(h, payment.id);
    expect(record.card).toMatchObject({ bin: '378282', last4: '0005' });
    expect(JSON.stringify(record)).not.toContain('3782822');
  });
});
