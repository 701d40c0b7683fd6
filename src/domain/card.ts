/** Card schemes paystate recognises by BIN (cards-and-3ds.md). */
export const CARD_SCHEMES = Object.freeze([
  'visa',
  'mastercard',
  'amex',
  'discover',
  'diners',
  'jcb',
  'unionpay',
  'maestro',
] as const);
/** One of `CARD_SCHEMES`. */
export type CardScheme = (typeof CARD_SCHEMES)[number];

/**
 * Raw card data as the cardholder typed it. It lives in memory for the one call that
 * needs it (3DS lookup, authorization) and is never stored, logged or put in an event.
 */
export interface CardData {
  /** The PAN, digits only. */
  readonly number: string;
  /** The card verification code (3 or 4 digits); never kept after authorization. */
  readonly cvc: string;
  /** `YYYY-MM-01T00:00:00.000Z` */
  readonly expiration: string;
  /** The name on the card, as typed. */
  readonly holderName: string;
  readonly scheme: CardScheme;
}

/** What survives about a card: BIN and last four (PCI DSS 3.4.1), never the number or CVC. */
export interface CardSummary {
  readonly scheme: CardScheme;
  /** The first 8 digits of PANs of 16 digits or more; of shorter ones, length - 10 (2 to 5: `binOf`). */
  readonly bin: string;
  /** The last four digits of the PAN. */
  readonly last4: string;
  readonly expiration: string;
  readonly holder_name: string;
}

/** The card types an acquirer reports (cards-and-3ds.md, "Acquiring"): consumer or commercial. */
export const CARD_TYPES = Object.freeze(['consumer', 'commercial'] as const);
/** One of `CARD_TYPES`. */
export type CardType = (typeof CARD_TYPES)[number];

/**
 * Where a card's issuer is, seen from the merchant (cards-and-3ds.md, "Acquiring"): in the same
 * country (`domestic`), in the same scheme region (`intra`), or elsewhere (`inter`).
 */
export const CARD_REGIONS = Object.freeze(['domestic', 'intra', 'inter'] as const);
/** One of `CARD_REGIONS`. */
export type CardRegion = (typeof CARD_REGIONS)[number];

/** Card details the acquirer reports on an approved authorization (the engine checks them: docs/ports.md). */
export interface CardProfile {
  /** One of `CARD_TYPES`. */
  readonly type: CardType;
  /** One of `CARD_REGIONS`. */
  readonly region: CardRegion;
  /** ISO 3166-1 alpha-2, an officially assigned code in upper case (`isCountryCode`). */
  readonly issuingCountry: string;
}

/**
 * Fees as the API spells them (`assesment` with one s is the specification's spelling): each a
 * non-negative safe integer in the payment currency's minor units.
 */
export interface Fees {
  readonly interchange: number;
  readonly assesment: number;
}

/** Digits of a PAN shorter than 16 that neither the kept BIN nor the last four show (`binOf`). */
const HIDDEN_DIGITS = 6;

/**
 * The BIN as kept (`CardSummary.bin`): the first 8 digits of PANs of 16 digits or more (PCI DSS
 * 3.4.1); of shorter ones, so few that 6 digits stay hidden beside the last four, and the number
 * cannot be rebuilt from the record: length - 10 (12 → 2, 13 → 3, 14 → 4, 15 → 5).
 */
export function binOf(number: string): string {
  const kept = number.length >= 16 ? 8 : number.length - 4 - HIDDEN_DIGITS;
  return number.slice(0, Math.max(0, kept));
}

/**
 * The issuer identification number (ISO/IEC 7812-1:2017): the first 8 digits of PANs of 16 digits
 * or more, else 6. Only for telling issuers apart where the whole number is in hand (the sandbox's
 * card profiles); never kept: what is kept is `binOf`.
 */
export function issuerIdOf(number: string): string {
  return number.slice(0, number.length >= 16 ? 8 : 6);
}

/** What may be kept of a card (`CardSummary`): scheme, BIN, last four, expiry and holder name. */
export function summarizeCard(card: CardData): CardSummary {
  return {
    scheme: card.scheme,
    bin: binOf(card.number),
    last4: card.number.slice(-4),
    expiration: card.expiration,
    holder_name: card.holderName,
  };
}
