import { err } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { makeEngineHarness } from '../support/engine-harness.js';
import { eventTypes, MINUTE, PROFILE } from '../support/engine-helpers.js';
import { amounts, authorized, current } from '../support/money-helpers.js';

const DAY = 24 * 60 * MINUTE;
const lost = { code: 'unavailable', message: 'The connection to the acquirer was lost', retryable: true } as const;

describe('an operation that fails after the authorization lapsed', () => {
  it('closes it by expiry with payment.authorization_expired, as the sweeper would have', async () => {
    const h = makeEngineHarness({ notFoundIsFinalAfterInquiries: 2 });
    const payment = await authorized(h, 100);
    // The cancel never reaches the acquirer: inquiries answer not_found until it fails.
    h.acquirer.cancel = () => err(lost);
    (await h.engine.cancelPayment({ paymentId: payment.id, profileId: PROFILE }))._unsafeUnwrap();
    h.clock.advance(MINUTE);
    (await h.engine.sweep())._unsafeUnwrap();
    h.clock.advance(8 * DAY);
    (await h.engine.sweep())._unsafeUnwrap();

    const after = await current(h, payment.id);
    expect(amounts(after)).toEqual({ capturable: 0, captured: 0, refunded: 0 });
    expect((await h.engine.getPaymentRecord(payment.id))._unsafeUnwrap().captureClosedBy).toBe('expiry');
    expect(await eventTypes(h, payment.id)).toEqual([
      'payment.created',
      'payment.succeeded',
      'payment.authorization_expired',
    ]);
  });
});
