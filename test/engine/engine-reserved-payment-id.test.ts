import { describe, expect, it } from 'vitest';
import { directRequest, hostedRequest } from '../support/requests.js';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';

const profileId = 'profile_0001';
const reserved = `payment_${'ab'.repeat(16)}`;

/** `createPayment` under an id reserved beforehand (the HTTP API's `Idempotency-Key` reservation). */
describe('createPayment with a reserved paymentId', () => {
  it('newPaymentId gives a payment id from the id port, and createPayment without one uses the next', async () => {
    const harness = makeEngineHarness({}, 3);
    const id = harness.engine.newPaymentId();
    expect(id).toBe('payment_00000003000000000000000000000001');
    const payment = (
      await harness.engine.createPayment({ client: compliantClient, profileId, body: hostedRequest() })
    )._unsafeUnwrap();
    expect(payment.id).toBe('payment_00000003000000000000000000000002');
  });

  it('creates the payment under that id, hosted and direct', async () => {
    const harness = makeEngineHarness();
    const hosted = (
      await harness.engine.createPayment({
        client: compliantClient,
        profileId,
        body: hostedRequest(),
        paymentId: reserved,
      })
    )._unsafeUnwrap();
    expect(hosted.id).toBe(reserved);
    expect(hosted.next?.redirect).toContain(reserved);
    const other = `payment_${'cd'.repeat(16)}`;
    const direct = (
      await harness.engine.createPayment({
        client: compliantClient,
        profileId,
        body: directRequest('4242424242424242'),
        paymentId: other,
      })
    )._unsafeUnwrap();
    expect(direct).toMatchObject({ id: other, state: 'succeeded' });
    expect(harness.acquirer.authorizations().map((call) => call.paymentId)).toEqual([other]);
    expect((await harness.engine.getPaymentRecord(other))._unsafeUnwrap().id).toBe(other);
  });

  it('refuses an id that is not a payment id, before any port', async () => {
    const harness = makeEngineHarness();
    for (const paymentId of [
      '',
      'payment_',
      `payment_${'AB'.repeat(16)}`,
      `payment_${'a'.repeat(31)}`,
      `pay_${'a'.repeat(32)}`,
    ]) {
      const error = (
        await harness.engine.createPayment({ client: compliantClient, profileId, body: hostedRequest(), paymentId })
      )._unsafeUnwrapErr();
      expect(error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'paymentId' }] });
    }
    expect(harness.repository.size()).toBe(0);
  });

  it('fails with conflict when the id is taken, and neither changes nor authorizes that payment again', async () => {
    const harness = makeEngineHarness();
    const first = (
      await harness.engine.createPayment({
        client: compliantClient,
        profileId,
        body: directRequest('4242424242424242'),
        paymentId: reserved,
      })
    )._unsafeUnwrap();
    const before = (await harness.engine.getPaymentRecord(reserved))._unsafeUnwrap();
    for (const body of [directRequest('4242424242424242'), hostedRequest()]) {
      const error = (
        await harness.engine.createPayment({ client: compliantClient, profileId, body, paymentId: reserved })
      )._unsafeUnwrapErr();
      expect(error.code).toBe('conflict');
    }
    expect(harness.acquirer.authorizations()).toHaveLength(1);
    expect(harness.repository.size()).toBe(1);
    expect((await harness.engine.getPaymentRecord(reserved))._unsafeUnwrap()).toStrictEqual(before);
    expect(first.state).toBe('succeeded');
  });
});
