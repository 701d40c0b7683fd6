import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../src/index.js';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { directRequest } from '../support/requests.js';

const PROFILE = 'profile_0001';

describe('event delivery order', () => {
  it('a payment whose event the sink refuses waits; other payments are delivered meanwhile, in order', async () => {
    let refused: string | null = null;
    const h = makeEngineHarness({}, 0, {
      events: {
        failOn: (event: DomainEvent) =>
          event.paymentId === refused
            ? { code: 'unavailable', message: 'webhook answered 410', retryable: false }
            : null,
      },
    });
    const first = (
      await h.engine.createPayment({
        client: compliantClient,
        profileId: PROFILE,
        body: directRequest('4242424242424242'),
      })
    )._unsafeUnwrap();
    const second = (
      await h.engine.createPayment({
        client: compliantClient,
        profileId: PROFILE,
        body: directRequest('5555555555554444'),
      })
    )._unsafeUnwrap();
    refused = first.id;

    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(h.events.events().map((e) => [e.paymentId, e.type])).toEqual([
      [second.id, 'payment.created'],
      [second.id, 'payment.succeeded'],
    ]);

    refused = null;
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(2);
    expect(
      h.events
        .events()
        .filter((e) => e.paymentId === first.id)
        .map((e) => e.type),
    ).toEqual(['payment.created', 'payment.succeeded']);
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBe(0);
  });
});

describe('defects', () => {
  it('an adapter that throws with card data in its message gives internal_error, and the log carries no card data', async () => {
    const h = makeEngineHarness();
    h.acquirer.authorize = (request) => {
      throw new Error(`bad request: pan=${request.card.number} cvc=${request.card.cvc}`);
    };
    const result = await h.engine.createPayment({
      client: compliantClient,
      profileId: PROFILE,
      body: directRequest('4242424242424242'),
    });
    expect(result._unsafeUnwrapErr().code).toBe('internal_error');
    const defect = h.logs.find((log) => log.message === 'engine defect');
    expect(defect).toBeDefined();
    const logged = JSON.stringify(h.logs);
    expect(logged).not.toContain('4242424242424242');
    expect(logged).not.toMatch(/cvc=\d/);
    expect(String(defect?.fields['cause'])).toMatch(/^Error: bad request/);
  });
});
