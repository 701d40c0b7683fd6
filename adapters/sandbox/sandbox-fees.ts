import type { Fees } from '../../src/domain/card.js';
import type { SandboxCardRegion, SandboxCardType } from './test-cards.js';

/**
 * Interchange in basis points (1/100 of a percent). Consumer cards follow the EU caps (0.2% debit,
 * 0.3% credit; the sandbox uses 0.2% domestic and 0.3% intra-regional) and the usual 1.5% for
 * inter-regional card-not-present; commercial cards are not capped.
 */
const INTERCHANGE_BPS: Readonly<Record<SandboxCardType, Readonly<Record<SandboxCardRegion, number>>>> = {
  consumer: { domestic: 20, intra: 30, inter: 150 },
  commercial: { domestic: 150, intra: 180, inter: 200 },
};

/** Scheme assessment in basis points, by region. */
const ASSESSMENT_BPS: Readonly<Record<SandboxCardRegion, number>> = { domestic: 10, intra: 15, inter: 20 };

function percentOf(amount: number, basisPoints: number): number {
  return Math.max(0, Math.round((amount * basisPoints) / 10_000));
}

/**
 * The fees the sandbox acquirer reports for an approved authorization of `amount` minor units:
 * integers in the same minor units, rounded half up.
 */
export function sandboxFees(
  amount: number,
  card: { readonly type: SandboxCardType; readonly region: SandboxCardRegion },
): Fees {
  return {
    interchange: percentOf(amount, INTERCHANGE_BPS[card.type][card.region]),
    assesment: percentOf(amount, ASSESSMENT_BPS[card.region]),
  };
}
