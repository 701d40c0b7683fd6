import { describe, expect, it } from 'vitest';
import type { CardData } from '../../src/domain/card.js';
import type { CardVault } from '../../src/ports/card-vault.js';
import type { TestClock } from '../../adapters/memory/index.js';

/** A vault under test, a second view of the same vault (another instance) and the clock both judge by. */
export interface CardVaultHarness {
  readonly vault: CardVault;
  readonly other: CardVault;
  readonly clock: TestClock;
}

let sequence = 0;
const paymentId = () => `payment_vault_${Date.now().toString(36)}_${(sequence += 1)}`;

export const VAULT_CARD: CardData = Object.freeze({
  number: '4000000000003220',
  cvc: '737',
  expiration: '2030-12-01T00:00:00.000Z',
  holderName: 'Ada Lovelace',
  scheme: 'visa',
});

const take = async (vault: CardVault, id: string) => (await vault.take(id))._unsafeUnwrap();

/** What every `CardVault` promises (memory, Postgres): put, take once, deadlines, purging, races. */
export function cardVaultContract(name: string, make: () => Promise<CardVaultHarness>): void {
  describe(`CardVault contract: ${name}`, () => {
    it('gives back the card put, once, to whichever instance takes it', async () => {
      const { vault, other, clock } = await make();
      const id = paymentId();
      (await vault.put(id, VAULT_CARD, clock.now() + 60_000))._unsafeUnwrap();
      expect(await take(other, id)).toEqual(VAULT_CARD);
      expect(await take(vault, id)).toBeNull();
      expect(await take(other, id)).toBeNull();
      expect(await take(vault, paymentId())).toBeNull();
    });

    it('keeps the last card put for a payment', async () => {
      const { vault, clock } = await make();
      const id = paymentId();
      (await vault.put(id, VAULT_CARD, clock.now() + 60_000))._unsafeUnwrap();
      const second = { ...VAULT_CARD, number: '5555555555554444', scheme: 'mastercard' as const };
      (await vault.put(id, second, clock.now() + 60_000))._unsafeUnwrap();
      expect(await take(vault, id)).toEqual(second);
    });

    it('never gives a card at or after its deadline', async () => {
      const { vault, other, clock } = await make();
      const early = paymentId();
      const exact = paymentId();
      (await vault.put(early, VAULT_CARD, clock.now() + 1_000))._unsafeUnwrap();
      (await vault.put(exact, VAULT_CARD, clock.now() + 1_000))._unsafeUnwrap();
      clock.advance(999);
      expect(await take(other, early)).toEqual(VAULT_CARD);
      clock.advance(1);
      expect(await take(other, exact)).toBeNull();
    });

    it('purges the cards past their deadline, and only those', async () => {
      const { vault, clock } = await make();
      const purge = vault.purgeExpired;
      expect(purge).toBeDefined();
      const old = paymentId();
      const young = paymentId();
      (await vault.put(old, VAULT_CARD, clock.now() + 1_000))._unsafeUnwrap();
      (await vault.put(young, VAULT_CARD, clock.now() + 5_000))._unsafeUnwrap();
      clock.advance(1_000);
      const purged = (await purge?.call(vault, clock.now()))?._unsafeUnwrap();
      expect(purged).toBeGreaterThanOrEqual(1);
      expect(await take(vault, young)).toEqual(VAULT_CARD);
      // Gone from storage, not only past its deadline: with the clock set back it is still not there.
      clock.set(clock.now() - 1_000);
      expect(await take(vault, old)).toBeNull();
    });

    it('gives a card to exactly one of many concurrent takes', async () => {
      const { vault, other, clock } = await make();
      const id = paymentId();
      (await vault.put(id, VAULT_CARD, clock.now() + 60_000))._unsafeUnwrap();
      const taken = await Promise.all(Array.from({ length: 16 }, (_, i) => take(i % 2 === 0 ? vault : other, id)));
      expect(taken.filter((card) => card !== null)).toEqual([VAULT_CARD]);
    });
  });
}
