import { describe, expect, it } from 'vitest';
import {
  SANDBOX_DEFAULT_CARD_BEHAVIOUR,
  SANDBOX_MERCHANT_COUNTRY,
  SANDBOX_TEST_CARDS,
  findSandboxTestCard,
  sandboxCardBehaviour,
} from '../../adapters/sandbox/index.js';
import { issuerIdOf, type CardScheme } from '../../src/domain/card.js';
import { failureReasonFromResponseCode } from '../../src/domain/failure-reason.js';

// Local on purpose: src/domain/card-number.ts is written elsewhere.
function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function schemeByPrefix(number: string): CardScheme {
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (number.startsWith('4')) return 'visa';
  throw new Error(`no scheme for test number starting ${number.slice(0, 2)}`);
}

describe('SANDBOX_TEST_CARDS', () => {
  it('holds exactly the cards of decisions.md sections 7 and 8, in their order', () => {
    expect(SANDBOX_TEST_CARDS.map((card) => card.number)).toEqual([
      '4242424242424242',
      '5555555555554444',
      '378282246310005',
      '5200828282828210',
      '4000000000003055',
      '4000000000003238',
      '4000000000003220',
      '4000008260003178',
      '4000000000003287',
      '4000000000003311',
      '4000000000000002',
      '4000000000009995',
      '4000000000000069',
      '4000000000000119',
      '4000000000005126',
      '4000000000007726',
      '4000000000000341',
      '4000000000000259',
    ]);
  });

  it.each(SANDBOX_TEST_CARDS)('$number is a valid $scheme number with a description', (card) => {
    expect(luhnValid(card.number)).toBe(true);
    expect(schemeByPrefix(card.number)).toBe(card.scheme);
    expect(card.cvcLength).toBe(card.scheme === 'amex' ? 4 : 3);
    expect(card.issuingCountry).toMatch(/^[A-Z]{2}$/);
    expect(card.description.length).toBeGreaterThan(10);
    expect(findSandboxTestCard(card.number)).toBe(card);
  });

  it('states the table behaviour of decisions.md for each card', () => {
    const rows = Object.fromEntries(
      SANDBOX_TEST_CARDS.map((card) => [
        card.number,
        [
          card.threeDS,
          card.authorization.kind === 'declined' ? card.authorization.responseCode : card.authorization.kind,
        ],
      ]),
    );
    expect(rows).toEqual({
      '4242424242424242': ['not_required', 'approved'],
      '5555555555554444': ['not_required', 'approved'],
      '378282246310005': ['not_required', 'approved'],
      '5200828282828210': ['not_required', 'approved'],
      '4000000000003055': ['frictionless', 'approved'],
      '4000000000003238': ['frictionless_mismatch', 'approved'],
      '4000000000003220': ['challenge', 'approved'],
      '4000008260003178': ['challenge', '51'],
      '4000000000003287': ['rejected', '05'],
      '4000000000003311': ['unavailable', 'approved'],
      '4000000000000002': ['not_required', '05'],
      '4000000000009995': ['not_required', '51'],
      '4000000000000069': ['not_required', '54'],
      '4000000000000119': ['not_required', 'timeout_then_approved'],
      '4000000000005126': ['not_required', 'approved'],
      '4000000000007726': ['not_required', 'approved'],
      '4000000000000341': ['not_required', 'approved'],
      '4000000000000259': ['not_required', 'approved'],
    });
    expect(
      SANDBOX_TEST_CARDS.filter((card) => card.operations !== undefined).map((card) => [card.number, card.operations]),
    ).toEqual([
      ['4000000000005126', { refund: { kind: 'declined', responseCode: '05' } }],
      ['4000000000007726', { refund: { kind: 'timeout_then_succeeded' } }],
      ['4000000000000341', { capture: { kind: 'declined', responseCode: '05' } }],
      ['4000000000000259', { capture: { kind: 'timeout_then_succeeded' } }],
    ]);
    const commercial = SANDBOX_TEST_CARDS.filter((card) => card.cardType === 'commercial');
    expect(commercial.map((card) => [card.number, card.region, card.issuingCountry])).toEqual([
      ['5200828282828210', 'inter', 'US'],
    ]);
  });

  it.each(SANDBOX_TEST_CARDS)('$number has an expected outcome consistent with its behaviour', (card) => {
    if (card.threeDS === 'rejected') {
      expect(card.expected).toEqual({ state: 'failed', failureReason: 'authentication_rejected' });
    } else if (card.authorization.kind === 'declined') {
      expect(card.expected).toEqual({
        state: 'failed',
        failureReason: failureReasonFromResponseCode(card.authorization.responseCode),
      });
    } else {
      expect(card.expected).toEqual({ state: 'succeeded' });
    }
  });

  it('treats any other number as no 3DS, approved, consumer, domestic', () => {
    expect(findSandboxTestCard('4111111111111111')).toBeUndefined();
    expect(sandboxCardBehaviour('4111111111111111')).toBe(SANDBOX_DEFAULT_CARD_BEHAVIOUR);
    expect(SANDBOX_DEFAULT_CARD_BEHAVIOUR).toEqual({
      threeDS: 'not_required',
      authorization: { kind: 'approved' },
      cardType: 'consumer',
      region: 'domestic',
      issuingCountry: SANDBOX_MERCHANT_COUNTRY,
    });
  });

  // Regression: 4000000000003238 (BE) and 4000000000003220 (DE) shared BIN 40000000 with cards
  // issued in NL, so one BIN reported three issuing countries and two regions.
  it('gives the cards of one BIN one issuer: scheme, card type, region and issuing country', () => {
    const byBin = new Map<string, Set<string>>();
    for (const card of SANDBOX_TEST_CARDS) {
      const profile = JSON.stringify([card.scheme, card.cardType, card.region, card.issuingCountry]);
      byBin.set(issuerIdOf(card.number), (byBin.get(issuerIdOf(card.number)) ?? new Set()).add(profile));
    }
    expect([...byBin].filter(([, profiles]) => profiles.size > 1)).toEqual([]);
  });

  it('puts each card in its region as seen from the merchant in NL: the EEA is intra-regional', () => {
    const eea = new Set(
      'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IS IT LI LT LU LV MT NL NO PL PT RO SE SI SK'.split(' '),
    );
    for (const card of SANDBOX_TEST_CARDS) {
      const expected =
        card.issuingCountry === SANDBOX_MERCHANT_COUNTRY
          ? 'domestic'
          : eea.has(card.issuingCountry)
            ? 'intra'
            : 'inter';
      expect({ number: card.number, region: card.region }).toEqual({ number: card.number, region: expected });
    }
  });

  it('reports another number of a test card BIN with that BIN profile, no 3DS and approved', () => {
    const cases: ReadonlyArray<readonly [string, string, string, string]> = [
      ['5555555500000006', 'consumer', 'intra', 'DE'],
      ['5200828200000009', 'commercial', 'inter', 'US'],
      ['378282000000008', 'consumer', 'intra', 'FR'],
      ['4000008260000000', 'consumer', 'inter', 'GB'],
      ['4000000000000010', 'consumer', 'domestic', 'NL'],
    ];
    for (const [number, cardType, region, issuingCountry] of cases) {
      expect(luhnValid(number)).toBe(true);
      expect(findSandboxTestCard(number)).toBeUndefined();
      expect(sandboxCardBehaviour(number)).toEqual({
        threeDS: 'not_required',
        authorization: { kind: 'approved' },
        cardType,
        region,
        issuingCountry,
      });
    }
    expect(sandboxCardBehaviour('5555 5555 0000 0006').issuingCountry).toBe('DE');
  });

  it('tells issuers apart by 6 digits of a short number, more than its record keeps (binOf: 5 of 15)', () => {
    // 378281…: the amex test card's kept BIN (37828), not its issuer (378282).
    const other = '378281000000000';
    expect(luhnValid(other)).toBe(true);
    expect(sandboxCardBehaviour(other)).toBe(SANDBOX_DEFAULT_CARD_BEHAVIOUR);
    expect(issuerIdOf('378282246310005')).toBe('378282');
    expect(issuerIdOf('4242424242424242')).toBe('42424242');
  });

  it('ignores spaces and dashes in the number', () => {
    expect(findSandboxTestCard('4000 0000 0000 0002')?.number).toBe('4000000000000002');
    expect(sandboxCardBehaviour('4000-0000-0000-9995').authorization).toEqual({ kind: 'declined', responseCode: '51' });
  });
});
