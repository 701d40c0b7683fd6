import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Payment } from '../../src/domain/payment.js';
import { paymentListSchema, paymentSchema } from '../../src/schemas/index.js';
import { contact } from './fixtures.js';

const payment = (): Payment => ({
  id: 'payment_0123456789abcdef0123456789abcdef',
  description: 'Order 1234',
  reference: 'ref-1',
  method: 'creditcard',
  currency: 'EUR',
  amount: 1000,
  billing: contact(),
  shipping: contact(),
  creditcard: {
    rrn: '123456789012',
    fees: { interchange: 3, assesment: 1 },
    card: {
      scheme: 'mastercard',
      type: 'commercial',
      region: 'inter',
      last4: '8210',
      bin: '52008282',
      expiration: '2030-12-01T00:00:00.000Z',
      holder_name: 'Ada Lovelace',
      issuing_country: 'US',
    },
  },
  session: { redirect_url: 'https://shop.example/return' },
  state: 'succeeded',
  created: '2026-05-15T12:00:00.000Z',
  capture_method: 'automatic',
  amount_capturable: 0,
  amount_captured: 1000,
  amount_refunded: 0,
  _links: {
    self: { href: '/v1/partners/partner_1/profiles/profile_1/payments/payment_0123', type: 'application/json' },
    profile: { href: '/v1/partners/partner_1/profiles/profile_1', type: 'application/json' },
  },
});

// Every Payment the engine can build has the shape the schema documents.
const _paymentFitsSchema: z.input<typeof paymentSchema> = payment();

describe('paymentSchema', () => {
  it('accepts a succeeded payment with the response form of creditcard', () => {
    expect(paymentSchema.parse(payment())).toEqual(payment());
  });

  it('accepts a processing payment with next.redirect and no creditcard', () => {
    const { creditcard: _, ...rest } = payment();
    const processing = { ...rest, state: 'processing', next: { redirect: 'https://pay.example/hosted/abc' } };
    expect(paymentSchema.safeParse(processing).success).toBe(true);
  });

  it('accepts a failed payment with failure_reason and rejects an unknown reason', () => {
    expect(
      paymentSchema.safeParse({ ...payment(), state: 'failed', failure_reason: 'insufficient_funds' }).success,
    ).toBe(true);
    expect(paymentSchema.safeParse({ ...payment(), state: 'failed', failure_reason: 'card_melted' }).success).toBe(
      false,
    );
  });

  it('rejects internal states, bad ids and timestamps without milliseconds', () => {
    expect(paymentSchema.safeParse({ ...payment(), state: 'authorizing' }).success).toBe(false);
    expect(paymentSchema.safeParse({ ...payment(), id: 'pay_1' }).success).toBe(false);
    expect(paymentSchema.safeParse({ ...payment(), created: '2026-05-15T12:00:00Z' }).success).toBe(false);
  });

  it('has no place for a card number or CVC in the card', () => {
    const shape = paymentSchema.shape.creditcard.unwrap().shape.card.shape;
    expect(Object.keys(shape)).not.toContain('number');
    expect(Object.keys(shape)).not.toContain('cvc');
  });

  it('converts to JSON Schema', () => {
    expect(() => z.toJSONSchema(paymentSchema)).not.toThrow();
    expect(() => z.toJSONSchema(paymentListSchema)).not.toThrow();
  });
});

describe('paymentListSchema', () => {
  it('accepts a page with and without next_cursor', () => {
    expect(paymentListSchema.safeParse({ items: [payment()], next_cursor: 'payment_01' }).success).toBe(true);
    expect(paymentListSchema.safeParse({ items: [] }).success).toBe(true);
    expect(paymentListSchema.safeParse({ items: [{ id: 'x' }] }).success).toBe(false);
  });
});
