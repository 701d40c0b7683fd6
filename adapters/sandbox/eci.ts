import type { CardScheme } from '../../src/domain/card.js';

/** The 3DS results an ECI stands for: authenticated (Y), attempted (A), or none of them (N, R, U). */
export type EciTransStatus = 'Y' | 'A' | 'N' | 'R' | 'U';

/** ECI per scheme for an authenticated (Y), attempted (A) or unauthenticated 3DS result (cards-and-3ds.md). */
const ECI: Readonly<Record<CardScheme, { readonly Y: string; readonly A: string; readonly none: string }>> = {
  visa: { Y: '05', A: '06', none: '07' },
  amex: { Y: '05', A: '06', none: '07' },
  jcb: { Y: '05', A: '06', none: '07' },
  diners: { Y: '05', A: '06', none: '07' },
  discover: { Y: '05', A: '06', none: '07' },
  unionpay: { Y: '05', A: '06', none: '07' },
  mastercard: { Y: '02', A: '01', none: '00' },
  maestro: { Y: '02', A: '01', none: '00' },
};

/**
 * The electronic commerce indicator the scheme uses for this 3DS result: for N, R and U the
 * "no authentication" value (`07`, mastercard and maestro `00`), which shifts no liability.
 */
export function eciFor(scheme: CardScheme, transStatus: EciTransStatus): string {
  const values = ECI[scheme];
  return transStatus === 'Y' || transStatus === 'A' ? values[transStatus] : values.none;
}
