/*
 * Answers of the acquirer and the 3DS provider as the engine's checks (src/engine/port-answers.ts)
 * take them, for test/engine/port-answers.test.ts and test/engine/malformed-port-answers.test.ts.
 */

/** A well-formed approval of `authorize` or `inquire`. */
export const APPROVED_ANSWER = {
  kind: 'approved',
  rrn: '000000000042',
  responseCode: '00',
  fees: { interchange: 6, assesment: 2 },
  card: { type: 'consumer', region: 'domestic', issuingCountry: 'NL' },
} as const;

/** An EMV 3DS transaction id: a UUID. */
export const THREE_DS_TRANSACTION_ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

/** An answer as a buggy adapter (plain JavaScript, or behind a cast) may give it, whatever the types say. */
export const untyped = <T>(value: unknown): T => value as T;
