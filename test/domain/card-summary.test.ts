import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectScheme, luhnValid } from '../../src/domain/card-number.js';
import { binOf, summarizeCard } from '../../src/domain/card.js';
import { creditCardRequestSchema } from '../../src/schemas/credit-card.js';
import { toWebhookEvent } from '../../adapters/webhooks/index.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { createDirect, stored } from '../support/engine-helpers.js';
import { NUM_RUNS } from '../support/property-runs.js';

/** A 12-digit Maestro: with a 6-digit BIN and the last four, about 10 numbers would be left to try. */
const MAESTRO_12 = '500000123454';

const summaryOf = (number: string) =>
  summarizeCard({
    number,
    cvc: '123',
    expiration: '2030-12-01T00:00:00.000Z',
    holderName: 'Ada Lovelace',
    scheme: 'visa',
  });

/** Whether the request validator takes this as `creditcard.number`. */
const accepted = (number: string): boolean => creditCardRequestSchema.shape.number.safeParse(number).success;

/** `body` followed by the one check digit that makes it Luhn-valid. */
function withCheckDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error('unreachable');
}

/** What the card summary promises of a number: BIN and last four its own, 6 digits in neither below 16 digits, 8 of BIN from 16. */
function expectSafeSummary(number: string): void {
  const { bin, last4 } = summaryOf(number);
  expect(bin).toBe(binOf(number));
  expect(number.startsWith(bin)).toBe(true);
  expect(last4).toBe(number.slice(-4));
  if (number.length >= 16) expect(bin).toHaveLength(8);
  else expect(number.length - bin.length - last4.length, number).toBeGreaterThanOrEqual(6);
}

/**
 * What is kept of a card number: the BIN (8 digits for numbers of 16 digits or more; of shorter
 * ones, so few that 6 digits are in neither the BIN nor the last four) and the last four digits,
 * never more. The short BINs answer an outside security review: 6 digits of a 12-digit Maestro
 * and its last four left about 10 numbers to try.
 */
describe('card summary', () => {
  it.each([
    [MAESTRO_12, '50'], // maestro, 12 digits
    ['4222222222222', '422'], // visa, 13
    ['36227206271667', '3622'], // diners, 14
    ['378282246310005', '37828'], // amex, 15
    ['4242424242424242', '42424242'], // 16
    ['6011000990139424', '60110009'], // discover, 16
    ['4000000000000000006', '40000000'], // visa, 19
  ])('%s keeps the BIN %s', (number, bin) => {
    expect(binOf(number)).toBe(bin);
    expect(summaryOf(number)).toEqual({
      scheme: 'visa',
      bin,
      last4: number.slice(-4),
      expiration: '2030-12-01T00:00:00.000Z',
      holder_name: 'Ada Lovelace',
    });
  });

  // Every length the validator takes, found by asking it rather than assumed.
  const prefixes = ['4', '51', '2221', '34', '37', '6011', '65', '300', '36', '3528', '62', '50', '56', '63', '67'];
  const acceptedLengths = [
    ...new Set(
      prefixes.flatMap((prefix) =>
        Array.from({ length: 30 }, (_, i) => i + 1).filter((length) => {
          const number = length > prefix.length ? withCheckDigit(prefix.padEnd(length - 1, '7')) : prefix;
          return accepted(number);
        }),
      ),
    ),
  ].sort((a, b) => a - b);

  it('keeps 6 digits hidden below 16 digits and 8 of BIN from 16, at every length the validator takes', () => {
    expect(acceptedLengths).toEqual([12, 13, 14, 15, 16, 17, 18, 19]);
    for (const length of acceptedLengths) {
      for (const prefix of prefixes) {
        const number = withCheckDigit(prefix.padEnd(length - 1, '7'));
        if (accepted(number)) expectSafeSummary(number);
      }
    }
  });

  it('keeps 6 digits hidden below 16 digits and 8 of BIN from 16, for any valid number (property)', () => {
    const validNumber = fc
      .tuple(fc.constantFrom(...prefixes), fc.constantFrom(...acceptedLengths), fc.stringMatching(/^\d{18}$/))
      .map(([prefix, length, tail]) => withCheckDigit(`${prefix}${tail}`.slice(0, length - 1)))
      .filter((number) => accepted(number));
    fc.assert(
      fc.property(validNumber, (number) => {
        expect(detectScheme(number)).not.toBeNull();
        expectSafeSummary(number);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('an amex payment stores 5 digits of BIN and the last four, nothing else of the number', async () => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, '378282246310005');
    expect(payment.creditcard?.card).toMatchObject({ scheme: 'amex', bin: '37828', last4: '0005' });
    const record = await stored(h, payment.id);
    expect(record.card).toMatchObject({ bin: '37828', last4: '0005' });
    expect(JSON.stringify(record)).not.toContain('378282');
  });

  it('a 12-digit Maestro payment answers, stores and announces a BIN of 2 digits', async () => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, MAESTRO_12);
    expect(payment.state).toBe('succeeded');
    expect(payment.creditcard?.card).toMatchObject({ scheme: 'maestro', bin: '50', last4: '3454' });
    const record = await stored(h, payment.id);
    expect(record.card).toMatchObject({ bin: '50', last4: '3454' });
    expect((await h.engine.deliverEvents()).isOk()).toBe(true);
    const webhooks = h.events.events().map((event) => toWebhookEvent(event));
    expect(webhooks.length).toBeGreaterThan(0);
    for (const webhook of webhooks) expect(webhook.data.payment.creditcard?.card.bin).toBe('50');
    const everything = JSON.stringify([payment, record, webhooks, h.logs]);
    expect(everything).not.toContain('500');
  });
});
