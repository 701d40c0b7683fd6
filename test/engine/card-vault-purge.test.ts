import { err } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { createPaymentEngine, type PaymentEngineOptions } from '../../src/index.js';
import type { CardVault } from '../../src/ports/card-vault.js';
import { VAULT_CARD } from '../contracts/card-vault.contract.js';
import { makeEngineHarness, type EngineHarness } from '../support/engine-harness.js';

/** An engine on the harness's adapters but `vault`, logging warnings and errors to `lines`. */
function engineWithVault(h: EngineHarness, vault: CardVault, lines: string[], options: PaymentEngineOptions = {}) {
  return createPaymentEngine({
    repository: h.repository,
    acquirer: h.acquirer,
    threeDS: h.threeDS,
    cardVault: vault,
    clock: h.clock,
    ids: h.ids,
    options,
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (_fields, message) => lines.push(message),
      error: (_fields, message) => lines.push(message),
    },
  });
}

describe('the sweeper purges the card vault', () => {
  it('deletes the cards past their deadline on each sweep, and only those', async () => {
    const h = makeEngineHarness();
    (await h.cardVault.put('payment_orphan', VAULT_CARD, h.clock.now() + 1_000))._unsafeUnwrap();
    (await h.cardVault.put('payment_young', VAULT_CARD, h.clock.now() + 5_000))._unsafeUnwrap();
    await h.engine.sweep();
    expect(h.cardVault.size()).toBe(2);
    h.clock.advance(1_000);
    (await h.engine.sweep())._unsafeUnwrap();
    expect(h.cardVault.size()).toBe(1);
    expect(
      h.logs.some((line) => line.message === 'card vault: expired cards deleted' && line.fields['purged'] === 1),
    ).toBe(true);
  });

  it('the background worker purges too', async () => {
    const h = makeEngineHarness();
    (await h.cardVault.put('payment_orphan', VAULT_CARD, h.clock.now() + 1_000))._unsafeUnwrap();
    h.clock.advance(1_000);
    const worker = h.engine.startBackgroundWorker({ intervalMs: 5 });
    try {
      for (let waited = 0; h.cardVault.size() > 0 && waited < 5_000; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(h.cardVault.size()).toBe(0);
    } finally {
      await worker.stop();
    }
  });

  it('a vault whose purge fails or throws never fails the sweep', async () => {
    const h = makeEngineHarness();
    for (const purgeExpired of [
      () => err({ code: 'unavailable' as const, message: 'vault down', retryable: true }),
      () => {
        throw new Error('vault bug');
      },
    ]) {
      const logs: string[] = [];
      const vault: CardVault = { put: h.cardVault.put, take: h.cardVault.take, purgeExpired };
      const engine = engineWithVault(h, vault, logs);
      expect((await engine.sweep()).isOk()).toBe(true);
      expect(logs.join('\n')).toMatch(/card vault/);
    }
  });

  it('a purge that never answers is given up at the storage time-out, and the sweep answers', async () => {
    const h = makeEngineHarness();
    const warnings: string[] = [];
    const vault: CardVault = {
      put: h.cardVault.put,
      take: h.cardVault.take,
      purgeExpired: () => new Promise(() => undefined),
    };
    const engine = engineWithVault(h, vault, warnings, { timeouts: { storageMs: 50 } });
    const started = Date.now();
    expect((await engine.sweep())._unsafeUnwrap()).toMatchObject({ expired: 0, errors: 0 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(warnings).toContain('card vault: expired cards not deleted this time');
  });
});
