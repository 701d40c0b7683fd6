import { describe, expect, it } from 'vitest';
import { makeEngineHarness } from '../support/engine-harness.js';
import { cardSubmission } from '../support/requests.js';
import { MINUTE, SECOND, VISA, createHosted, stored } from '../support/engine-helpers.js';

/**
 * `updatedAt` of the stored record is the clock port's time of the last change, and only a change
 * moves it. Written against a mutant (the step no longer stamped `updatedAt`) that no other test
 * killed.
 */
describe('record timestamps', () => {
  it('createdAt stays; updatedAt follows each change: card submitted, then expiry of another payment', async () => {
    const h = makeEngineHarness();
    const created = h.clock.now();
    const paid = await createHosted(h);
    const abandoned = await createHosted(h);
    expect(await stored(h, paid.id)).toMatchObject({ createdAt: created, updatedAt: created });

    h.clock.advance(5 * SECOND);
    const token = h.hostedToken(paid);
    expect((await h.engine.submitCard({ paymentId: paid.id, token, body: cardSubmission(VISA) })).isOk()).toBe(true);
    expect(await stored(h, paid.id)).toMatchObject({
      state: 'succeeded',
      createdAt: created,
      updatedAt: created + 5 * SECOND,
    });

    // A sweep with nothing due changes nothing, so the record keeps its time.
    h.clock.advance(MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(0);
    expect(await stored(h, abandoned.id)).toMatchObject({ version: 1, updatedAt: created });

    h.clock.advance(60 * MINUTE);
    expect((await h.engine.sweep())._unsafeUnwrap().expired).toBe(1);
    expect(await stored(h, abandoned.id)).toMatchObject({
      state: 'expired',
      createdAt: created,
      updatedAt: created + 5 * SECOND + 61 * MINUTE,
    });
  });
});
