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
