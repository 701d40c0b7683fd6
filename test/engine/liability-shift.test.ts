import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { shiftsLiability } from '../../src/engine/drive-payment.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { CHALLENGE_CARD, VISA, createDirect, stored } from '../support/engine-helpers.js';

/**
 * Which 3DS results shift fraud liability to the issuer, as the record keeps it: ECI 05/06
 * (visa-style authenticated/attempted) and 02/01 (mastercard-style), nothing else. Written
 * against mutants no other test killed: mastercard's "attempted" ECI 01 dropped, and any ECI of
 * an accepted challenge counted as a shift.
 */
const ECI_SHIFTS: ReadonlyArray<readonly [eci: string, shifts: boolean]> = [
  ['05', true],
  ['06', true],
  ['02', true],
  ['01', true],
  ['07', false],
  ['00', false],
  ['03', false],
  ['04', false],
];

/** An EMV 3DS transaction id (a UUID: the engine checks it). */
const TRANSACTION_ID = '3f0c8e7a-4d5b-4c1e-9a2f-6b7d8e9f0a1b';

describe('liability shift by ECI', () => {
  it.each(ECI_SHIFTS)('ECI %s shifts liability: %s', (eci, shifts) => {
    expect(shiftsLiability(eci)).toBe(shifts);
  });

  it.each(ECI_SHIFTS)('a frictionless result with ECI %s is stored with liabilityShift %s', async (eci, shifts) => {
    const h = makeEngineHarness();
    h.threeDS.authenticate = () =>
      ok({
        kind: 'authenticated',
        transStatus: eci === '05' || eci === '02' ? 'Y' : 'A',
        eci,
        transactionId: TRANSACTION_ID,
      });
    const payment = await createDirect(h, VISA);
    expect(payment.state).toBe('succeeded');
    expect((await stored(h, payment.id)).threeDS).toEqual({
      flow: 'frictionless',
      transStatus: eci === '05' || eci === '02' ? 'Y' : 'A',
      eci,
      liabilityShift: shifts,
      transactionId: TRANSACTION_ID,
    });
  });

  it.each(ECI_SHIFTS)('a challenge accepted with ECI %s is stored with liabilityShift %s', async (eci, shifts) => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    const transactionId = (await stored(h, payment.id)).threeDS?.transactionId;
    h.threeDS.resolveChallenge = () => ok({ kind: 'accepted', transStatus: 'A', eci });
    const completed = (
      await h.engine.completeChallenge(await h.challengeAnswer(payment.id, 'authorise'))
    )._unsafeUnwrap();
    expect(completed.state).toBe('succeeded');
    expect((await stored(h, payment.id)).threeDS).toEqual({
      flow: 'challenge',
      transStatus: 'A',
      eci,
      liabilityShift: shifts,
      transactionId,
    });
  });
});
