import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../../adapters/http/openapi/index.js';
import { startSandboxServer, type SandboxServer } from '../../adapters/sandbox-server/index.js';
import { bearer, call, get, post, type Answer } from '../http/support/client.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { createDocumentValidator, type DocumentValidator } from './support/document-validator.js';

/**
 * Live answers of the capture, cancel and refund routes (decisions.md section 8) checked against
 * the generated OpenAPI document, in both forms of the path: body, status and documented headers.
 */

const PCI = 'sandbox_pci_compliant_token';
const HOSTED = 'sandbox_hosted_only_token';
const OUTLET = 'sandbox_outlet_only_token';
const UNDER = '/v1/profiles/{profile_id}/payments/{payment_id}';
const PARTNER_UNDER = '/v1/partners/{partner_id}/profiles/{profile_id}/payments/{payment_id}';

let server: SandboxServer;
let validator: DocumentValidator;
let paymentPath: string;
let partnerPath: string;

function conforms(template: string, method: 'get' | 'post', answer: Answer, status: number, code?: string) {
  expect(answer.status, answer.text).toBe(status);
  if (code !== undefined) expect(answer.json?.code).toBe(code);
  expect(validator.check(template, method, answer)).toEqual([]);
}

beforeAll(async () => {
  validator = await createDocumentValidator(createOpenApiDocument());
  server = await startSandboxServer({ port: 0, sweepIntervalMs: 60_000 });
  const created = await post(
    `${server.url}/v1/profiles/profile_webshop/payments`,
    PCI,
    directRequest('4242424242424242', { amount: 100, capture_method: 'manual' }),
  );
  paymentPath = `/v1/profiles/profile_webshop/payments/${created.json.id}`;
  partnerPath = created.json._links.self.href;
});

afterAll(async () => {
  await server?.close();
});

describe('captures, cancels and refunds against the document', () => {
  it('captures: 201 with Location, replayed, 400, 409; the list and one capture in both path forms', async () => {
    const captures = `${server.url}${paymentPath}/captures`;
    const keyed = { 'idempotency-key': `live-capture-${Date.now()}` };
    const first = await post(captures, HOSTED, { amount: 40, final: false }, keyed);
    conforms(`${UNDER}/captures`, 'post', first, 201);
    const replay = await post(captures, HOSTED, { amount: 40, final: false }, keyed);
    conforms(`${UNDER}/captures`, 'post', replay, 201);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    conforms(
      `${UNDER}/captures`,
      'post',
      await post(captures, HOSTED, { amount: 41 }, keyed),
      422,
      'idempotency_key_reused',
    );
    conforms(`${UNDER}/captures`, 'post', await post(captures, HOSTED, { amount: 0 }), 400, 'validation_failed');
    conforms(
      `${UNDER}/captures`,
      'post',
      await post(captures, HOSTED, { amount: 61 }),
      409,
      'amount_exceeds_capturable',
    );
    conforms(`${UNDER}/captures`, 'post', await post(captures, OUTLET, {}), 403, 'forbidden_profile');
    conforms(`${UNDER}/captures`, 'get', await get(`${captures}?limit=1`, HOSTED), 200);
    conforms(`${PARTNER_UNDER}/captures`, 'get', await get(`${server.url}${partnerPath}/captures`, HOSTED), 200);
    const self = await get(`${server.url}${first.json._links.self.href}`, HOSTED);
    conforms(`${PARTNER_UNDER}/captures/{capture_id}`, 'get', self, 200);
    const missing = await get(`${captures}/capture_00000000000000000000000000000000`, HOSTED);
    conforms(`${UNDER}/captures/{capture_id}`, 'get', missing, 404, 'not_found');
  });

  it('refunds: 201, 409, the list and one refund', async () => {
    const refunds = `${server.url}${partnerPath}/refunds`;
    const refund = await post(refunds, HOSTED, { amount: 10, reference: 'live' });
    conforms(`${PARTNER_UNDER}/refunds`, 'post', refund, 201);
    conforms(
      `${PARTNER_UNDER}/refunds`,
      'post',
      await post(refunds, HOSTED, { amount: 31 }),
      409,
      'amount_exceeds_refundable',
    );
    conforms(`${UNDER}/refunds`, 'get', await get(`${server.url}${paymentPath}/refunds`, HOSTED), 200);
    conforms(
      `${UNDER}/refunds/{refund_id}`,
      'get',
      await get(`${server.url}${paymentPath}/refunds/${refund.json.id}`, HOSTED),
      200,
    );
    const badAfter = await get(`${server.url}${paymentPath}/refunds?after=refund_x`, HOSTED);
    conforms(`${UNDER}/refunds`, 'get', badAfter, 400, 'validation_failed');
  });

  it('cancel: 200 the payment, then 409; a hosted payment not paid is canceled too', async () => {
    const cancel = `${server.url}${paymentPath}/cancel`;
    conforms(`${UNDER}/cancel`, 'post', await call(cancel, { method: 'POST', headers: bearer(HOSTED) }), 200);
    conforms(`${UNDER}/cancel`, 'post', await post(cancel, HOSTED, {}), 409, 'payment_not_cancelable');
    const hosted = await post(`${server.url}/v1/profiles/profile_webshop/payments`, HOSTED, hostedRequest());
    const canceled = await post(`${server.url}${hosted.json._links.self.href}/cancel`, HOSTED, {});
    conforms(`${PARTNER_UNDER}/cancel`, 'post', canceled, 200);
    expect(canceled.json).toMatchObject({ state: 'failed', failure_reason: 'canceled' });
    const refunds = `${server.url}${hosted.json._links.self.href}/refunds`;
    conforms(`${PARTNER_UNDER}/refunds`, 'post', await post(refunds, HOSTED, {}), 409, 'payment_not_refundable');
  });
});
