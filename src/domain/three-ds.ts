/** EMV 3DS `transStatus` values (cards-and-3ds.md). */
export type TransStatus = 'Y' | 'A' | 'C' | 'D' | 'N' | 'R' | 'U' | 'I';

/** The 3DS outcome kept in a payment's internal record once 3DS has run. */
export interface ThreeDSOutcome {
  readonly transStatus: TransStatus | null;
  /** Electronic commerce indicator, e.g. `05` (visa authenticated) or `02` (mastercard authenticated). */
  readonly eci: string | null;
  readonly liabilityShift: boolean;
  /** `none`, `frictionless` or `challenge`: how 3DS ran for this payment. */
  readonly flow: 'none' | 'frictionless' | 'challenge';
  readonly transactionId: string | null;
}

const ECI = /^\d{2}$/;

/**
 * True for an electronic commerce indicator as EMV 3DS sends it: 2 digits. What each value means
 * is the scheme's to say (cards-and-3ds.md: visa-style `05` authenticated, `06` attempted, `07`
 * none; mastercard `02`, `01`, `00`; schemes have others, such as mastercard's `04`, data only).
 */
export function isEci(value: string): boolean {
  return ECI.test(value);
}

// RFC 9562 (formerly 4122) text form: 8-4-4-4-12 hexadecimal digits, 36 characters.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * True for an EMV 3DS transaction id (`threeDSServerTransID`, `acsTransID`, `dsTransID`): a UUID in
 * its canonical text form, 36 characters (`8-4-4-4-12` hexadecimal digits, either case; any version).
 */
export function isThreeDSTransactionId(value: string): boolean {
  return value.length === 36 && UUID.test(value);
}

/** The EMV 3DS protocol versions an authentication may have run under (docs/ports.md). */
export const THREE_DS_PROTOCOL_VERSIONS = Object.freeze(['2.1.0', '2.2.0', '2.3.1'] as const);
/** One of `THREE_DS_PROTOCOL_VERSIONS`. */
export type ThreeDSProtocolVersion = (typeof THREE_DS_PROTOCOL_VERSIONS)[number];

/** True for one of `THREE_DS_PROTOCOL_VERSIONS`. */
export function isThreeDSProtocolVersion(value: unknown): value is ThreeDSProtocolVersion {
  return (THREE_DS_PROTOCOL_VERSIONS as readonly unknown[]).includes(value);
}

// 28 characters of base64: the 20 bytes of a CAVV or AAV, padded.
const AUTHENTICATION_VALUE = /^[A-Za-z0-9+/]{26}(?:[A-Za-z0-9+/]{2}|[A-Za-z0-9+/]=|==)$/;

/** True for an authentication value (CAVV, AAV) as EMV 3DS sends it: 28 characters of base64. */
export function isAuthenticationValue(value: string): boolean {
  return AUTHENTICATION_VALUE.test(value);
}

/**
 * What 3-D Secure gives the acquirer besides `transStatus` and `eci` (docs/ports.md), from
 * the frictionless answer or the challenge result: passed on to `authorize` only, never stored,
 * logged or put in an event. Each is null when the 3DS provider did not give it.
 */
export interface ThreeDSAuthentication {
  /** CAVV or AAV: 28 characters of base64. */
  readonly authenticationValue: string | null;
  /** The directory server's transaction id (`dsTransID`): a UUID. */
  readonly dsTransactionId: string | null;
  readonly protocolVersion: ThreeDSProtocolVersion | null;
}
