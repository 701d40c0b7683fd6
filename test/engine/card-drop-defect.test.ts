import { describe, expect, it } from 'vitest';
import { makeEngineHarness } from '../support/engine-harness.js';
import { CHALLENGE_CARD, createDirect, MINUTE, stored } from '../support/engine-helpers.js';

// Found by a reviewing helper (the error-model boundary): dropping a challenge's card from the
// vault is the last, best-effort step after the write that moved the payment on. A vault that
// threw there turned the command's stored answer into `internal_error`, and the sweep's stored
// expiry into an error.

const vaultBug = () => {
  throw new Error('vault adapter bug: 4000000000003220');
};

describe('a card vault that throws when the card is dropped', () => {
  it('a refused challenge still answers the failed payment it stored', async () => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    expect(payment.state).toBe('processing');
    h.cardVault.take = vaultBug;
    const answer = await h.engine.completeChallenge(await h.challengeAnswer(payment.id, 'refuse'));
    expect(answer._unsafeUnwrap().state).toBe('failed');
    expect((await stored(h, payment.id)).state).toBe('failed');
    const logged = h.logs.filter(
      (log) => log.message === 'card vault threw when the card was dropped; it goes at its deadline',
    );
    expect(logged.map((log) => [log.level, log.fields['paymentId']])).toEqual([['error', payment.id]]);
    expect(JSON.stringify(h.logs)).not.toContain('4000000000003220');
  });

  it('a challenge that expired is counted expired by the sweep', async () => {
    const h = makeEngineHarness();
    const payment = await createDirect(h, CHALLENGE_CARD);
    h.cardVault.take = vaultBug;
    h.clock.advance(11 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap()).toMatchObject({ expired: 1, errors: 0 });
    expect((await stored(h, payment.id)).state).toBe('expired');
  });
});
