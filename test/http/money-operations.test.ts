import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  captureListResourceSchema,
  captureResourceSchema,
  refundListResourceSchema,
  refundResourceSchema,
} from '../../adapters/http/openapi/http-schemas.js';
import { paymentSchema } from '../../src/index.js';
import { directRequest } from '../support/requests.js';
import { makeApi, serve, SERVER_KINDS, TOKENS, type ApiHarness, type RunningServer } from './support/api-harness.js';
import { call, get, post, type Answer } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

const MAIN = 'profile_alpha_main';
const key = (() => {
  let n = 0;
  return (label: string) => ({ 'idempotency-key': `${label}-${(n += 1)}` });
})();

/** A direct-flow payment of `amount` (approved by the sandbox), as the API answered it. */
async function authorized(base: string, amount: number, captureMethod: 'manual' | 'automatic'): Promise<Answer> {
  const created = await post(
    `${base}/v1/profiles/${MAIN}/payments`,
    TOKENS.alphaCompliant,
    directRequest('4242424242424242', { amount, capture_method: captureMethod }),
  );
  expect(created.status).toBe(201);
  expect(created.json.state).toBe('succeeded');
  return created;
}

describe.each(SERVER_KINDS)('captures, cancels and refunds over HTTP, served by %s', (kind) => {
  let api: ApiHarness;
  let server: RunningServer;
  let origin: string;

  beforeAll(async () => {
    api = makeApi();
    server = await serve(kind, api);
    origin = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  it('manual payment: partial capture, replay, refund, cancel of the rest; amounts move on the payment', async () => {
    const payment = (await authorized(server.base, 100, 'manual')).json;
    expect(payment).toMatchObject({ capture_method: 'manual', amount_capturable: 100, amount_captured: 0 });
    expect(typeof payment.authorization_expires_at).toBe('string');
    const paymentUrl = `${origin}${payment._links.self.href}`;
    const captures = `${server.base}/v1/profiles/${MAIN}/payments/${payment.id}/captures`;

    // A hosted-only client may capture: no card data is involved.
    const captureKey = key('capture');
    const captured = await post(captures, TOKENS.alphaHosted, { amount: 60, final: false }, captureKey);
    expect(captured.status).toBe(201);
    expect(captureResourceSchema.safeParse(captured.json).success).toBe(true);
    expect(captured.json).toMatchObject({ amount: 60, currency: 'EUR', state: 'succeeded', payment_id: payment.id });
    expect(captured.headers['location']).toBe(captured.json._links.self.href);
    expect(captured.json._links.payment.href).toBe(payment._links.self.href);

    const replay = await post(captures, TOKENS.alphaHosted, { amount: 60, final: false }, captureKey);
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(captured.text);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expectProblem(
      await post(captures, TOKENS.alphaHosted, { amount: 61, final: false }, captureKey),
      422,
      'idempotency_key_reused',
    );

    expectProblem(
      await post(captures, TOKENS.alphaHosted, { amount: 41 }, key('over')),
      409,
      'amount_exceeds_capturable',
    );
    const after = await get(paymentUrl, TOKENS.alphaHosted);
    expect(paymentSchema.safeParse(after.json).success).toBe(true);
    expect(after.json).toMatchObject({
      state: 'succeeded',
      amount_capturable: 40,
      amount_captured: 60,
      amount_refunded: 0,
    });

    const list = await get(captures, TOKENS.alphaHosted);
    expect(list.status).toBe(200);
    expect(captureListResourceSchema.safeParse(list.json).success).toBe(true);
    expect(list.json.items).toEqual([captured.json]);
    const one = await get(`${origin}${captured.json._links.self.href}`, TOKENS.alphaHosted);
    expect(one.status).toBe(200);
    expect(one.json).toEqual(captured.json);

    const refunds = `${origin}${payment._links.self.href}/refunds`;
    const refundKey = key('refund');
    const refunded = await post(refunds, TOKENS.alphaHosted, { amount: 25, reference: 'RMA-1' }, refundKey);
    expect(refunded.status).toBe(201);
    expect(refundResourceSchema.safeParse(refunded.json).success).toBe(true);
    expect(refunded.json).toMatchObject({ amount: 25, state: 'succeeded', reference: 'RMA-1' });
    expect(refunded.headers['location']).toBe(refunded.json._links.self.href);
    const refundReplay = await post(refunds, TOKENS.alphaHosted, { amount: 25, reference: 'RMA-1' }, refundKey);
    expect(refundReplay.text).toBe(refunded.text);
    expect(refundReplay.headers['idempotency-replayed']).toBe('true');
    expectProblem(
      await post(refunds, TOKENS.alphaHosted, { amount: 36 }, key('over')),
      409,
      'amount_exceeds_refundable',
    );
    const refundList = await get(refunds, TOKENS.alphaHosted);
    expect(refundListResourceSchema.safeParse(refundList.json).success).toBe(true);
    expect(refundList.json.items).toEqual([refunded.json]);
    expect((await get(`${origin}${refunded.json._links.self.href}`, TOKENS.alphaHosted)).json).toEqual(refunded.json);

    const cancel = `${server.base}/v1/profiles/${MAIN}/payments/${payment.id}/cancel`;
    const canceled = await call(cancel, { method: 'POST', headers: { authorization: `Bearer ${TOKENS.alphaHosted}` } });
    expect(canceled.status).toBe(200);
    expect(paymentSchema.safeParse(canceled.json).success).toBe(true);
    expect(canceled.json).toMatchObject({
      state: 'succeeded',
      amount_capturable: 0,
      amount_captured: 60,
      amount_refunded: 25,
    });
    expectProblem(await post(captures, TOKENS.alphaHosted, {}), 409, 'payment_not_capturable');
    expectProblem(await post(cancel, TOKENS.alphaHosted, {}), 409, 'payment_not_cancelable');
  });

  it('automatic payment: not capturable; a refund with no body refunds it all, then nothing is refundable', async () => {
    const payment = (await authorized(server.base, 1999, 'automatic')).json;
    expect(payment).toMatchObject({ capture_method: 'automatic', amount_capturable: 0, amount_captured: 1999 });
    const path = `${server.base}/v1/profiles/${MAIN}/payments/${payment.id}`;
    expectProblem(await post(`${path}/captures`, TOKENS.alphaHosted, { amount: 1 }), 409, 'payment_not_capturable');
    const whole = await call(`${path}/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.alphaHosted}`, ...key('whole') },
    });
    expect(whole.status).toBe(201);
    expect(whole.json.amount).toBe(1999);
    expectProblem(await post(`${path}/refunds`, TOKENS.alphaHosted, {}), 409, 'payment_not_refundable');
    expect((await get(path, TOKENS.alphaHosted)).json.amount_refunded).toBe(1999);
  });
});
