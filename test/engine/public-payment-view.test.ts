import { describe, expect, it } from 'vitest';
import { paymentSchema, toPublicPayment } from '../../src/index.js';
import { makeEngineHarness } from '../support/engine-harness.js';
import { cardSubmission } from '../support/requests.js';
import {
  CHALLENGE_CARD,
  MINUTE,
  PROFILE,
  SECOND,
  VISA,
  createDirect,
  createHosted,
  stored,
} from '../support/engine-helpers.js';

/**
 * The payment as the API shows it, after the record has changed: `created` stays the creation
 * time, the card keeps its holder name once authorized, and `next` appears only while the
 * cardholder must act, whatever the record holds. Written against mutants of
 * `toPublicPayment` that no other test killed.
 */
describe('public payment view', () => {
  it('a hosted payment paid 5 s after creation: created is the creation time; the card shows every field', async () => {
    const h = makeEngineHarness();
    const created = new Date(h.clock.now()).toISOString();
    const payment = await createHosted(h);
    h.clock.advance(5 * SECOND);
    const paid = (
      await h.engine.submitCard({ paymentId: payment.id, token: h.hostedToken(payment), body: cardSubmission(VISA) })
    )._unsafeUnwrap();
    const read = (await h.engine.getPayment({ paymentId: payment.id, profileId: PROFILE }))._unsafeUnwrap();
    for (const view of [paid, read]) {
      expect(view.state).toBe('succeeded');
      expect(view.created).toBe(created);
      expect(view.creditcard?.card).toMatchObject({
        scheme: 'visa',
        bin: '42424242',
        last4: '4242',
        holder_name: 'Ada Lovelace',
      });
      expect(paymentSchema.safeParse(view).success).toBe(true);
    }
  });

  it('an expired payment keeps its creation time', async () => {
    const h = makeEngineHarness();
    const created = new Date(h.clock.now()).toISOString();
    const payment = await createHosted(h);
    h.clock.advance(61 * MINUTE);
    await h.engine.sweep();
    const read = (await h.engine.getPayment({ paymentId: payment.id, profileId: PROFILE }))._unsafeUnwrap();
    expect(read).toMatchObject({ state: 'expired', created });
  });

  it('shows next.redirect only while the cardholder must act, even for a record that still holds one', async () => {
    const h = makeEngineHarness();
    const waiting = await stored(h, (await createDirect(h, CHALLENGE_CARD)).id);
    expect(waiting.state).toBe('awaiting_challenge');
    expect(toPublicPayment(waiting).next?.redirect).toBe(waiting.nextRedirect);
    for (const state of ['authenticating', 'authorizing', 'succeeded', 'failed', 'expired'] as const) {
      const view = toPublicPayment({ ...waiting, state });
      expect(view, state).not.toHaveProperty('next');
    }
  });
});
