import { issuerIdOf, type CardScheme } from '../../src/domain/card.js';
import { deepFreeze } from '../../src/domain/immutable.js';
import type { FailureReason } from '../../src/domain/failure-reason.js';

/** How the simulated 3DS server answers the lookup for a card. */
export type SandboxThreeDSBehaviour =
  /** No SCA required: `{ kind: 'not_required' }`. */
  | 'not_required'
  /** Frictionless, authenticated: transStatus `Y` with the scheme's ECI. */
  | 'frictionless'
  /** Frictionless attempt whose data does not match the issuer's: falls back to a challenge (`data_mismatch`). */
  | 'frictionless_mismatch'
  /** Regular 3DS: the cardholder must act on the issuer page (`challenge_required`). */
  | 'challenge'
  /** Rejected by the issuer: transStatus `R`. */
  | 'rejected'
  /** 3DS could not be performed: transStatus `U`. */
  | 'unavailable';

/** How the simulated acquirer answers an authorization for a card. */
export type SandboxAuthorizationBehaviour =
  | { readonly kind: 'approved' }
  /** Declined with this ISO 8583 response code (data element 39). */
  | { readonly kind: 'declined'; readonly responseCode: string }
  /** The first answer times out (`unknown`); the authorization was approved and an inquiry says so. */
  | { readonly kind: 'timeout_then_approved' };

/** How the simulated acquirer answers a capture or a refund for a card; absent: succeeded. */
export type SandboxOperationBehaviour =
  /** Declined with this ISO 8583 response code (`capture_declined` or `refund_declined`). */
  | { readonly kind: 'declined'; readonly responseCode: string }
  /** The first answer times out (`unknown`); the operation succeeded and an inquiry says so. */
  | { readonly kind: 'timeout_then_succeeded' };

/** How captures and refunds go for a card (docs/http-api.md, Captures); an absent kind succeeds. */
export interface SandboxOperationsBehaviour {
  readonly capture?: SandboxOperationBehaviour;
  readonly refund?: SandboxOperationBehaviour;
}

/** The card type the sandbox acquirer reports (`CardProfile.type`); with the region it sets the fees (`sandboxFees`). */
export type SandboxCardType = 'consumer' | 'commercial';
/** Region of the issuer relative to the sandbox merchant (`SANDBOX_MERCHANT_COUNTRY`). */
export type SandboxCardRegion = 'domestic' | 'intra' | 'inter';

/**
 * What the sandbox does with a card number: 3DS, authorization and the card profile the acquirer reports,
 * which belongs to the BIN (`issuerIdOf`): every number of a test card's BIN shares its profile.
 */
export interface SandboxCardBehaviour {
  readonly threeDS: SandboxThreeDSBehaviour;
  readonly authorization: SandboxAuthorizationBehaviour;
  /** Captures and refunds after an approval; absent: they succeed (within the amounts). */
  readonly operations?: SandboxOperationsBehaviour;
  readonly cardType: SandboxCardType;
  readonly region: SandboxCardRegion;
  /** ISO 3166-1 alpha-2 */
  readonly issuingCountry: string;
}

/** Where a payment with this card ends, assuming the cardholder authorises any challenge. */
export type SandboxExpectedOutcome =
  { readonly state: 'succeeded' } | { readonly state: 'failed'; readonly failureReason: FailureReason };

/** One row of the sandbox test card tables (docs/http-api.md, The sandbox). */
export interface SandboxTestCard extends SandboxCardBehaviour {
  readonly number: string;
  readonly scheme: CardScheme;
  readonly cvcLength: 3 | 4;
  readonly expected: SandboxExpectedOutcome;
  /** One sentence for the README, the docs and the sandbox page. */
  readonly description: string;
}

/** The sandbox merchant is established here; card regions are relative to it. */
export const SANDBOX_MERCHANT_COUNTRY = 'NL';

const APPROVED = { kind: 'approved' } as const;
const SUCCEEDED = { state: 'succeeded' } as const;

/** A Visa consumer test card issued in the sandbox merchant's country, as most of the table is. */
function visaNl(
  number: string,
  card: Pick<SandboxTestCard, 'threeDS' | 'authorization' | 'operations' | 'expected' | 'description'>,
): SandboxTestCard {
  const { threeDS, authorization, operations, expected, description } = card;
  return {
    number,
    scheme: 'visa',
    cvcLength: 3,
    threeDS,
    authorization,
    ...(operations !== undefined && { operations }),
    cardType: 'consumer',
    region: 'domestic',
    issuingCountry: SANDBOX_MERCHANT_COUNTRY,
    expected,
    description,
  };
}

/**
 * The sandbox test cards. Any future expiry and any CVC of the right length work; the outcome is
 * decided by the number alone. Numbers not listed here behave as `SANDBOX_DEFAULT_CARD_BEHAVIOUR`,
 * with the card profile of their BIN when a test card has that BIN (`sandboxCardBehaviour`).
 */
export const SANDBOX_TEST_CARDS: readonly SandboxTestCard[] = deepFreeze([
  visaNl('4242424242424242', {
    threeDS: 'not_required',
    authorization: APPROVED,
    expected: SUCCEEDED,
    description: 'Visa, no 3DS required, approved.',
  }),
  {
    number: '5555555555554444',
    scheme: 'mastercard',
    cvcLength: 3,
    threeDS: 'not_required',
    authorization: APPROVED,
    cardType: 'consumer',
    region: 'intra',
    issuingCountry: 'DE',
    expected: SUCCEEDED,
    description: 'Mastercard, no 3DS required, approved (intra-regional consumer card).',
  },
  {
    number: '378282246310005',
    scheme: 'amex',
    cvcLength: 4,
    threeDS: 'not_required',
    authorization: APPROVED,
    cardType: 'consumer',
    region: 'intra',
    issuingCountry: 'FR',
    expected: SUCCEEDED,
    description: 'American Express, 4-digit CVC, no 3DS required, approved.',
  },
  {
    number: '5200828282828210',
    scheme: 'mastercard',
    cvcLength: 3,
    threeDS: 'not_required',
    authorization: APPROVED,
    cardType: 'commercial',
    region: 'inter',
    issuingCountry: 'US',
    expected: SUCCEEDED,
    description: 'Mastercard commercial card issued in the US: approved with inter-regional commercial fees.',
  },
  visaNl('4000000000003055', {
    threeDS: 'frictionless',
    authorization: APPROVED,
    expected: SUCCEEDED,
    description: 'Visa, frictionless 3DS authenticated (Y, ECI 05), approved.',
  }),
  visaNl('4000000000003238', {
    threeDS: 'frictionless_mismatch',
    authorization: APPROVED,
    expected: SUCCEEDED,
    description: 'Visa, frictionless 3DS finds a data mismatch and falls back to a challenge; approved after it.',
  }),
  visaNl('4000000000003220', {
    threeDS: 'challenge',
    authorization: APPROVED,
    expected: SUCCEEDED,
    description: 'Visa, 3DS challenge required; approved after the cardholder authorises it.',
  }),
  {
    number: '4000008260003178',
    scheme: 'visa',
    cvcLength: 3,
    threeDS: 'challenge',
    authorization: { kind: 'declined', responseCode: '51' },
    cardType: 'consumer',
    region: 'inter',
    issuingCountry: 'GB',
    expected: { state: 'failed', failureReason: 'insufficient_funds' },
    description: 'Visa issued in the UK, 3DS challenge required; declined for insufficient funds (51) after it.',
  },
  visaNl('4000000000003287', {
    threeDS: 'rejected',
    // The engine never authorizes after R; asked anyway, the simulated issuer does not honour it.
    authorization: { kind: 'declined', responseCode: '05' },
    expected: { state: 'failed', failureReason: 'authentication_rejected' },
    description: 'Visa, 3DS rejected by the issuer (R): no authorization is attempted.',
  }),
  visaNl('4000000000003311', {
    threeDS: 'unavailable',
    authorization: APPROVED,
    expected: SUCCEEDED,
    description: 'Visa, 3DS unavailable (U): approved without liability shift.',
  }),
  visaNl('4000000000000002', {
    threeDS: 'not_required',
    authorization: { kind: 'declined', responseCode: '05' },
    expected: { state: 'failed', failureReason: 'declined' },
    description: 'Visa, no 3DS required; declined, do not honour (05).',
  }),
  visaNl('4000000000009995', {
    threeDS: 'not_required',
    authorization: { kind: 'declined', responseCode: '51' },
    expected: { state: 'failed', failureReason: 'insufficient_funds' },
    description: 'Visa, no 3DS required; declined for insufficient funds (51).',
  }),
  visaNl('4000000000000069', {
    threeDS: 'not_required',
    authorization: { kind: 'declined', responseCode: '54' },
    expected: { state: 'failed', failureReason: 'expired_card' },
    description: 'Visa, no 3DS required; declined as expired (54) whatever expiry is entered.',
  }),
  visaNl('4000000000000119', {
    threeDS: 'not_required',
    authorization: { kind: 'timeout_then_approved' },
    expected: SUCCEEDED,
    description:
      'Visa, no 3DS required; the authorization times out (outcome unknown) and a later inquiry says approved.',
  }),
  visaNl('4000000000005126', {
    threeDS: 'not_required',
    authorization: APPROVED,
    operations: { refund: { kind: 'declined', responseCode: '05' } },
    expected: SUCCEEDED,
    description: 'Visa, no 3DS required, approved; every refund is declined (refund_declined).',
  }),
  visaNl('4000000000007726', {
    threeDS: 'not_required',
    authorization: APPROVED,
    operations: { refund: { kind: 'timeout_then_succeeded' } },
    expected: SUCCEEDED,
    description:
      "Visa, no 3DS required, approved; each refund's first answer times out and a later inquiry says succeeded.",
  }),
  visaNl('4000000000000341', {
    threeDS: 'not_required',
    authorization: APPROVED,
    operations: { capture: { kind: 'declined', responseCode: '05' } },
    expected: SUCCEEDED,
    description: 'Visa, no 3DS required, approved; every capture is declined (capture_declined).',
  }),
  visaNl('4000000000000259', {
    threeDS: 'not_required',
    authorization: APPROVED,
    operations: { capture: { kind: 'timeout_then_succeeded' } },
    expected: SUCCEEDED,
    description:
      "Visa, no 3DS required, approved; each capture's first answer times out and a later inquiry says succeeded.",
  }),
]);

/**
 * What the sandbox does with any card number that is not in `SANDBOX_TEST_CARDS` and whose BIN is
 * no test card's: no 3DS required, approved, reported as a consumer card issued in the merchant's
 * country. The simulators do not validate numbers (the core does that before they are called).
 */
export const SANDBOX_DEFAULT_CARD_BEHAVIOUR: SandboxCardBehaviour = deepFreeze({
  threeDS: 'not_required',
  authorization: APPROVED,
  cardType: 'consumer',
  region: 'domestic',
  issuingCountry: SANDBOX_MERCHANT_COUNTRY,
});

const BY_NUMBER: ReadonlyMap<string, SandboxTestCard> = new Map(SANDBOX_TEST_CARDS.map((card) => [card.number, card]));

const sameProfile = (a: SandboxCardBehaviour, b: SandboxCardBehaviour): boolean =>
  a.cardType === b.cardType && a.region === b.region && a.issuingCountry === b.issuingCountry;

/** The default behaviour with the card profile of each test card's BIN (the default itself where they agree). */
const BY_BIN: ReadonlyMap<string, SandboxCardBehaviour> = new Map(
  SANDBOX_TEST_CARDS.map((card) => [
    issuerIdOf(card.number),
    sameProfile(card, SANDBOX_DEFAULT_CARD_BEHAVIOUR)
      ? SANDBOX_DEFAULT_CARD_BEHAVIOUR
      : deepFreeze({
          ...SANDBOX_DEFAULT_CARD_BEHAVIOUR,
          cardType: card.cardType,
          region: card.region,
          issuingCountry: card.issuingCountry,
        }),
  ]),
);

const digitsOf = (number: string): string => number.replace(/[\s-]/g, '');

/** The test card with this number, if it is one. Spaces and dashes are ignored. */
export function findSandboxTestCard(number: string): SandboxTestCard | undefined {
  return BY_NUMBER.get(digitsOf(number));
}

/**
 * How the sandbox treats this card number: its test card row; else no 3DS and approved, with the
 * card profile of a test card of the same BIN (`5555555500000006` is issued in DE like
 * `5555555555554444`), or `SANDBOX_DEFAULT_CARD_BEHAVIOUR`. Spaces and dashes are ignored.
 */
export function sandboxCardBehaviour(number: string): SandboxCardBehaviour {
  const digits = digitsOf(number);
  return BY_NUMBER.get(digits) ?? BY_BIN.get(issuerIdOf(digits)) ?? SANDBOX_DEFAULT_CARD_BEHAVIOUR;
}
