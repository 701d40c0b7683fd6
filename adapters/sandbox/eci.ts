import type { CardScheme } from '../../src/domain/card.js';

/** ECI per scheme for an authenticated (Y) or attempted (A) 3DS result (cards-and-3ds.md). */
const ECI: Readonly<Record<CardScheme, { readonly Y: string; readonly A: string }>> = {
  visa: { Y: '05', A: '06' },
  amex: { Y: '05', A: '06' },
  jcb: { Y: '05', A: '06' },
  diners: { Y: '05', A: '06' },
  discover: { Y: '05', A: '06' },
  unionpay: { Y: '05', A: '06' },
  mastercard: { Y: '02', A: '01' },
  maestro: { Y: '02', A: '01' },
};

/** The electronic commerce indicator the scheme uses for this 3DS result. */
export function eciFor(scheme: CardScheme, transStatus: 'Y' | 'A'): string {
  return ECI[scheme][transStatus];
}
