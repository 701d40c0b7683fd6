import { describe, expect, it } from 'vitest';
import { CARD_REGIONS, CARD_TYPES, type CardData } from '../../src/domain/card.js';
import { isCountryCode } from '../../src/domain/country.js';
import { FAILURE_REASONS, type FailureReason } from '../../src/domain/failure-reason.js';
import type { Acquirer, AcquirerError, AuthorizationOutcome, AuthorizationRequest } from '../../src/ports/acquirer.js';
import { expectErr, expectOk } from './payment-repository.contract.js';
import { paymentId } from './fixtures.js';

/** A card and an amount, and what the acquirer under test answers to them. */
export interface AcquirerScenario {
  readonly card: CardData;
  readonly amount: number;
}

/** An acquirer under test, what it answers, and views of its far side for the checks. */
export interface AcquirerHarness {
  readonly acquirer: Acquirer;
  /** A card and amount the acquirer approves. */
  readonly approved: AcquirerScenario;
  /** A card and amount it declines, and the reason it must give. */
  readonly declined: AcquirerScenario & { readonly reason: FailureReason };
  /** How many authorizations the acquirer's side holds for a payment (the charges a cardholder would see). */
  authorizations(paymentId: string): number;
  /** Everything the adapter and the acquirer's side keep, as plain data: checked for card data. */
  kept(): unknown;
  /**
   * Makes the next `authorize` fail: `unreachable` before the acquirer received it (nothing
   * recorded), `answerLost` after it decided and recorded. Absent when the adapter cannot
   * simulate these; the cases that need it are then skipped with that reason.
   */
  readonly faults?: { unreachable(): void; answerLost(): void };
}

const card = (number: string, cvc = '737'): CardData => ({
  number,
  cvc,
  expiration: '2030-12-01T00:00:00.000Z',
  holderName: 'Ada Lovelace',
  scheme: number.startsWith('4') ? 'visa' : 'mastercard',
});

/** A test card helper for harnesses. */
export const contractCard = card;

function request(scenario: AcquirerScenario, id = paymentId()): AuthorizationRequest {
  return {
    paymentId: id,
    profileId: 'profile_contract',
    amount: scenario.amount,
    currency: 'EUR',
    card: scenario.card,
    // An authenticated frictionless 3DS, with what decisions.md section 9 passes on.
    threeDS: {
      flow: 'frictionless',
      transStatus: 'Y',
      eci: '05',
      liabilityShift: true,
      transactionId: '8f3c2b1a-4d5e-4f60-8a7b-9c0d1e2f3a4b',
    },
    authentication: {
      authenticationValue: 'AAABBEg0VhI0VniQEjRWAAAAAAA=',
      dsTransactionId: '2f1e0d9c-8b7a-4695-a4b3-c2d1e0f9a8b7',
      protocolVersion: '2.2.0',
    },
    captureMethod: 'automatic',
  };
}

/** ISO 8583 data element 37 (retrieval reference number) and 39 (response code), as the engine checks them. */
const RRN = /^[A-Za-z0-9]{1,12}$/;
const RESPONSE_CODE = /^[A-Za-z0-9]{2}$/;

/** A fee as the engine checks it: a non-negative safe integer, in minor units. */
const isMinorUnits = (fee: number): boolean => Number.isSafeInteger(fee) && fee >= 0;

/**
 * The rules the engine checks every answer against (docs/ports.md, "What the engine checks"): an
 * answer that breaks one is not believed (an unknown outcome; a failed inquiry).
 */
function expectWellFormed(outcome: AuthorizationOutcome): void {
  switch (outcome.kind) {
    case 'approved':
      expect(outcome.rrn).toMatch(RRN);
      expect(outcome.responseCode).toMatch(RESPONSE_CODE);
      expect(isMinorUnits(outcome.fees.interchange)).toBe(true);
      expect(isMinorUnits(outcome.fees.assesment)).toBe(true);
      expect(CARD_TYPES).toContain(outcome.card.type);
      expect(CARD_REGIONS).toContain(outcome.card.region);
      expect(isCountryCode(outcome.card.issuingCountry)).toBe(true);
      break;
    case 'declined':
      expect(outcome.responseCode).toMatch(RESPONSE_CODE);
      expect(FAILURE_REASONS).toContain(outcome.reason);
      break;
    case 'unknown':
      expect(typeof outcome.detail).toBe('string');
      break;
  }
}

function expectPortFailure(error: AcquirerError): void {
  expect(error.code).toBe('unavailable');
  expect(typeof error.message).toBe('string');
  expect(typeof error.retryable).toBe('boolean');
}

/** Every string and key in a value, for the card data check. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out);
    }
  }
  return out;
}

/**
 * What every `Acquirer` adapter must do (src/ports/acquirer.ts, docs/ports.md), for any adapter:
 * - `authorize` is keyed by the payment id: a second call for the same payment, in turn or at
 *   the same time, creates no second authorization and answers the recorded outcome;
 * - `inquire` answers the recorded outcome of a payment, or `not_found` when the acquirer never
 *   received its authorization, and may be repeated;
 * - outcomes are well-formed, by the rules the engine checks (an approval has a reference of 1 to
 *   12 letters and digits, a response code of 2, fees in minor units, card type, region and issuing
 *   country; a decline a response code and one of paystate's failure reasons);
 * - failures are `err` values with `code` and `retryable`, never a rejection or a throw;
 * - no card number or CVC is kept by the adapter or returned in an outcome or an error.
 */
export function acquirerContract(name: string, makeHarness: () => AcquirerHarness | Promise<AcquirerHarness>): void {
  describe(`Acquirer contract: ${name}`, () => {
    it('approves, with a reference, fees and card details; inquire answers the same', async () => {
      const harness = await makeHarness();
      const req = request(harness.approved);
      const outcome = await expectOk(harness.acquirer.authorize(req));
      expect(outcome.kind).toBe('approved');
      expectWellFormed(outcome);
      expect(harness.authorizations(req.paymentId)).toBe(1);
      expect(await expectOk(harness.acquirer.inquire({ paymentId: req.paymentId }))).toEqual(outcome);
    });

    it("declines with a response code and paystate's failure reason; inquire answers the same", async () => {
      const harness = await makeHarness();
      const req = request(harness.declined);
      const outcome = await expectOk(harness.acquirer.authorize(req));
      expect(outcome).toMatchObject({ kind: 'declined', reason: harness.declined.reason });
      expectWellFormed(outcome);
      expect(await expectOk(harness.acquirer.inquire({ paymentId: req.paymentId }))).toEqual(outcome);
    });

    it('authorizes a payment at most once: a second authorize answers the recorded outcome', async () => {
      const harness = await makeHarness();
      const req = request(harness.approved);
      const first = await expectOk(harness.acquirer.authorize(req));
      const second = await expectOk(harness.acquirer.authorize({ ...req }));
      expect(second).toEqual(first);
      expect(harness.authorizations(req.paymentId)).toBe(1);
    });

    it('authorizes a payment at most once under concurrent calls', async () => {
      const harness = await makeHarness();
      const req = request(harness.approved);
      const answers = await Promise.all([1, 2, 3].map(() => harness.acquirer.authorize({ ...req })));
      expect(harness.authorizations(req.paymentId)).toBe(1);
      const recorded = await expectOk(harness.acquirer.inquire({ paymentId: req.paymentId }));
      for (const answer of answers) {
        if (answer.isOk() && answer.value.kind !== 'unknown') expect(answer.value).toEqual(recorded);
      }
    });

    it('keeps payments apart: each has its own authorization', async () => {
      const harness = await makeHarness();
      const a = request(harness.approved);
      const b = request(harness.approved);
      const first = await expectOk(harness.acquirer.authorize(a));
      const second = await expectOk(harness.acquirer.authorize(b));
      expect([harness.authorizations(a.paymentId), harness.authorizations(b.paymentId)]).toEqual([1, 1]);
      if (first.kind === 'approved' && second.kind === 'approved') expect(first.rrn).not.toBe(second.rrn);
    });

    it('answers not_found to an inquiry about a payment it never received, as often as asked', async () => {
      const harness = await makeHarness();
      const id = paymentId();
      expect(await expectOk(harness.acquirer.inquire({ paymentId: id }))).toEqual({ kind: 'not_found' });
      expect(await expectOk(harness.acquirer.inquire({ paymentId: id }))).toEqual({ kind: 'not_found' });
      expect(harness.authorizations(id)).toBe(0);
    });

    it('keeps no card number or CVC, and returns none', async () => {
      const harness = await makeHarness();
      const outcomes = [
        await harness.acquirer.authorize(request(harness.approved)),
        await harness.acquirer.authorize(request(harness.declined)),
      ];
      const seen = strings([harness.kept(), outcomes.map((o) => (o.isOk() ? o.value : o.error))]);
      for (const scenario of [harness.approved, harness.declined]) {
        expect(seen.filter((text) => text.includes(scenario.card.number))).toEqual([]);
        expect(seen.filter((text) => text === scenario.card.cvc)).toEqual([]);
      }
      expect(seen.filter((text) => /^(?:cvc|cvv|cvv2|cvn|pan|card_?number|security_?code)$/i.test(text))).toEqual([]);
    });

    describe('failures are values', () => {
      it('a call that never reached the acquirer: err unavailable, nothing recorded, inquire says not_found', async (context) => {
        const harness = await makeHarness();
        if (harness.faults === undefined) context.skip(`${name} cannot simulate an unreachable acquirer`);
        const req = request(harness.approved);
        harness.faults?.unreachable();
        const error = await expectErr(harness.acquirer.authorize(req));
        expectPortFailure(error);
        expect(error.message).not.toContain(req.card.number);
        expect(harness.authorizations(req.paymentId)).toBe(0);
        expect(await expectOk(harness.acquirer.inquire({ paymentId: req.paymentId }))).toEqual({ kind: 'not_found' });
      });

      it('an answer lost after the acquirer decided: err unavailable, and inquire answers the decision', async (context) => {
        const harness = await makeHarness();
        if (harness.faults === undefined) context.skip(`${name} cannot simulate a lost answer`);
        const req = request(harness.approved);
        harness.faults?.answerLost();
        expectPortFailure(await expectErr(harness.acquirer.authorize(req)));
        expect(harness.authorizations(req.paymentId)).toBe(1);
        const recorded = await expectOk(harness.acquirer.inquire({ paymentId: req.paymentId }));
        expect(recorded.kind).toBe('approved');
        // A repeated authorize (the engine never sends one, but a retrying client might) charges nothing more.
        expect(await expectOk(harness.acquirer.authorize(req))).toEqual(recorded);
        expect(harness.authorizations(req.paymentId)).toBe(1);
      });
    });
  });
}
