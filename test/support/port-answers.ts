import { ok } from 'neverthrow';
import { expect } from 'vitest';
import type { AuthorizationOutcome } from '../../src/ports/acquirer.js';
import type { AuthenticationResult } from '../../src/ports/three-ds-provider.js';
import type { EngineHarness } from './engine-harness.js';
import { stored } from './engine-helpers.js';

/*
 * Answers of the acquirer and the 3DS provider as the engine's checks (src/engine/port-answers.ts)
 * take them, and the ports of an engine harness made to give them, for
 * test/engine/port-answers.test.ts, test/engine/malformed-port-answers.test.ts and
 * test/engine/port-answers-adversarial.test.ts.
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

/** A well-formed challenge answer of `authenticate`. */
export const CHALLENGE_ANSWER = {
  kind: 'challenge',
  reason: 'challenge_required',
  transactionId: THREE_DS_TRANSACTION_ID,
  challengeUrl: 'https://acs.example/challenge',
} as const;

/** An answer as a buggy adapter (plain JavaScript, or behind a cast) may give it, whatever the types say. */
export const untyped = <T>(value: unknown): T => value as T;

/** Makes the harness's 3DS provider answer `authenticate` with `answer`, whatever it is. */
export function authenticateAnswers(h: EngineHarness, answer: unknown): void {
  h.threeDS.authenticate = () => ok(untyped<AuthenticationResult>(answer));
}

/** Makes the harness's acquirer answer `authorize` with `answer`, whatever it is; the sandbox still decides (and records) the call. */
export function authorizeAnswers(h: EngineHarness, answer: unknown): void {
  const authorize = h.acquirer.authorize.bind(h.acquirer);
  h.acquirer.authorize = (request) => {
    void authorize(request);
    return ok(untyped<AuthorizationOutcome>(answer));
  };
}

/** Everything the engine wrote down about a payment: the record, its delivered events and every log line. */
export async function everythingKept(h: EngineHarness, paymentId: string): Promise<string> {
  expect((await h.engine.deliverEvents()).isOk()).toBe(true);
  const events = h.events.events().filter((event) => event.paymentId === paymentId);
  return JSON.stringify([await stored(h, paymentId), events, h.logs]);
}
