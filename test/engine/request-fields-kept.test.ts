import { describe, expect, it } from 'vitest';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { cardSubmission, contact, creditcard, directRequest, hostedRequest } from '../support/requests.js';
import { PROFILE, VISA, stored } from '../support/engine-helpers.js';

/**
 * What a command takes from its request ends up where it was sent, and the hosted page judges a
 * card's expiry by the clock port. Written against mutants no other test killed: billing and
 * shipping swapped on the record, and the hosted page's expiry check run against another time.
 */

const shippingContact = {
  ...contact,
  first_name: 'Charles',
  last_name: 'Babbage',
  email: 'charles@example.com',
  address: {
    ...contact.address,
    thoroughfare: 'Dorset Street',
    locality: 'London',
    postal_code: 'W1U 6QJ',
    country: 'GB',
  },
};

describe('billing and shipping are kept apart', () => {
  it.each([
    ['hosted', hostedRequest({ shipping: shippingContact })],
    ['direct', directRequest(VISA, { shipping: shippingContact })],
  ])('%s flow: the record and the payment show each contact where it was sent', async (_, body) => {
    const h = makeEngineHarness();
    const payment = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body })
    )._unsafeUnwrap();
    expect(payment.billing).toEqual(contact);
    expect(payment.shipping).toEqual(shippingContact);
    expect(await stored(h, payment.id)).toMatchObject({ billing: contact, shipping: shippingContact });
    const read = (await h.engine.getPayment({ paymentId: payment.id, profileId: PROFILE }))._unsafeUnwrap();
    expect(read.billing).toEqual(contact);
    expect(read.shipping).toEqual(shippingContact);
  });
});

describe('the hosted page refuses a card that expired before the current month (by the clock port)', () => {
  // The test clock starts on 15 January 2026.
  async function submitWithExpiry(expiration: string) {
    const h = makeEngineHarness();
    const payment = (
      await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: hostedRequest() })
    )._unsafeUnwrap();
    const body = { ...cardSubmission(VISA), creditcard: { ...creditcard(VISA), expiration } };
    const result = await h.engine.submitCard({ paymentId: payment.id, token: h.hostedToken(payment), body });
    return { h, payment, result };
  }

  it('December 2025 is refused at creditcard.expiration; nothing is authorized', async () => {
    const { h, payment, result } = await submitWithExpiry('2025-12-01T00:00:00.000Z');
    const error = result._unsafeUnwrapErr();
    expect(error.code).toBe('validation_failed');
    expect(error.code === 'validation_failed' ? error.errors.map((issue) => issue.path) : []).toEqual([
      'creditcard.expiration',
    ]);
    expect(h.acquirer.authorizeCalls(payment.id)).toBe(0);
    expect((await stored(h, payment.id)).state).toBe('awaiting_card_data');
  });

  it('January 2026, the current month, is accepted', async () => {
    const { result } = await submitWithExpiry('2026-01-01T00:00:00.000Z');
    expect(result._unsafeUnwrap().state).toBe('succeeded');
  });
});
