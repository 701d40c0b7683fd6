import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../../adapters/http/openapi/index.js';
import { startSandboxServer, type SandboxServer } from '../../adapters/sandbox-server/index.js';
import { bearer, call, get, post, type Answer } from '../http/support/client.js';
import { creditcard, directRequest, hostedRequest } from '../support/requests.js';
import { createDocumentValidator, type DocumentValidator } from './support/document-validator.js';

/**
 * Live answers of the sandbox server, checked against the generated OpenAPI document: for each
 * operation, its successes and the errors it documents, the body against the schema of that
 * path, method and status, and the documented headers.
 */

const PCI = 'sandbox_pci_compliant_token';
const HOSTED = 'sandbox_hosted_only_token';
const OUTLET = 'sandbox_outlet_only_token';

const PAYMENTS = '/v1/profiles/{profile_id}/payments';
const PAYMENT = '/v1/profiles/{profile_id}/payments/{payment_id}';
const SELF = '/v1/partners/{partner_id}/profiles/{profile_id}/payments/{payment_id}';
const PROFILE = '/v1/partners/{partner_id}/profiles/{profile_id}';

let server: SandboxServer;
let slow: SandboxServer;
let validator: DocumentValidator;
let created: Answer;

const url = (path: string, on: SandboxServer = server) => `${on.url}${path}`;
const paymentsUrl = (profile = 'profile_webshop', on: SandboxServer = server) =>
  url(`/v1/profiles/${profile}/payments`, on);

function conforms(template: string, method: 'get' | 'post', answer: Answer, status: number, code?: string) {
  expect(answer.status, answer.text).toBe(status);
  if (code !== undefined) expect(answer.json?.code).toBe(code);
  expect(validator.check(template, method, answer)).toEqual([]);
}

beforeAll(async () => {
  validator = await createDocumentValidator(createOpenApiDocument());
  server = await startSandboxServer({ port: 0, sweepIntervalMs: 60_000 });
  slow = await startSandboxServer({ port: 0, sweepIntervalMs: 60_000, acquirerLatencyMs: 400 });
  created = await post(paymentsUrl(), HOSTED, hostedRequest());
});

afterAll(async () => {
  await Promise.all([server?.close(), slow?.close()]);
});

describe(`POST ${PAYMENTS}`, () => {
  it('201: a hosted payment, with Location', () => {
    conforms(PAYMENTS, 'post', created, 201);
    expect(created.json.next.redirect).toContain('/pay/');
    expect(created.headers['location']).toBe(created.json._links.self.href);
  });

  it('201: direct payments, approved, declined and waiting on a challenge', async () => {
    const approved = await post(paymentsUrl(), PCI, directRequest('4242424242424242'));
    conforms(PAYMENTS, 'post', approved, 201);
    expect(approved.json).toMatchObject({ state: 'succeeded', creditcard: { card: { last4: '4242' } } });
    const declined = await post(paymentsUrl(), PCI, directRequest('4000000000009995'));
    conforms(PAYMENTS, 'post', declined, 201);
    expect(declined.json).toMatchObject({ state: 'failed', failure_reason: 'insufficient_funds' });
    const challenge = await post(paymentsUrl(), PCI, directRequest('4000000000003220'));
    conforms(PAYMENTS, 'post', challenge, 201);
    expect(challenge.json.next.redirect).toContain('/sandbox/issuer/challenge/');
  });

  it('201 replayed with Idempotency-Replayed, then 422 for another body under the same key', async () => {
    const key = { 'idempotency-key': 'openapi-live-1' };
    conforms(PAYMENTS, 'post', await post(paymentsUrl(), HOSTED, hostedRequest(), key), 201);
    const replay = await post(paymentsUrl(), HOSTED, hostedRequest(), key);
    conforms(PAYMENTS, 'post', replay, 201);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    const reused = await post(paymentsUrl(), HOSTED, hostedRequest({ amount: 1 }), key);
    conforms(PAYMENTS, 'post', reused, 422, 'idempotency_key_reused');
  });

  it('409 while the first request with the key still runs, with Retry-After', async () => {
    const key = { 'idempotency-key': 'openapi-live-slow' };
    const body = directRequest('4242424242424242');
    const first = post(paymentsUrl('profile_webshop', slow), PCI, body, key);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await post(paymentsUrl('profile_webshop', slow), PCI, body, key);
    conforms(PAYMENTS, 'post', second, 409, 'idempotency_in_progress');
    conforms(PAYMENTS, 'post', await first, 201);
  });

  it('400 validation_failed with errors, and invalid_json', async () => {
    const invalid = await post(paymentsUrl(), HOSTED, hostedRequest({ amount: -1, currency: 'eur' }));
    conforms(PAYMENTS, 'post', invalid, 400, 'validation_failed');
    expect(invalid.json.errors.length).toBe(2);
    const badKey = await post(paymentsUrl(), HOSTED, hostedRequest(), { 'idempotency-key': 'k'.repeat(256) });
    conforms(PAYMENTS, 'post', badKey, 400, 'validation_failed');
    const broken = await post(paymentsUrl(), HOSTED, '{"amount": ');
    conforms(PAYMENTS, 'post', broken, 400, 'invalid_json');
  });

  it('401 without a token and with an unknown one, with WWW-Authenticate', async () => {
    const missing = await call(paymentsUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: hostedRequest(),
    });
    conforms(PAYMENTS, 'post', missing, 401, 'unauthorized');
    conforms(PAYMENTS, 'post', await post(paymentsUrl(), 'no_such_token', hostedRequest()), 401, 'unauthorized');
  });

  it('403 for another profile and for card data from a client that is not PCI DSS compliant', async () => {
    conforms(PAYMENTS, 'post', await post(paymentsUrl(), OUTLET, hostedRequest()), 403, 'forbidden_profile');
    const direct = await post(paymentsUrl(), HOSTED, hostedRequest({ creditcard: creditcard('4242424242424242') }));
    conforms(PAYMENTS, 'post', direct, 403, 'direct_flow_not_permitted');
  });

  it('406, 413 and 415', async () => {
    const html = await post(paymentsUrl(), HOSTED, hostedRequest(), { accept: 'text/html' });
    conforms(PAYMENTS, 'post', html, 406, 'not_acceptable');
    const large = await post(paymentsUrl(), HOSTED, hostedRequest({ description: 'x'.repeat(70_000) }));
    conforms(PAYMENTS, 'post', large, 413, 'payload_too_large');
    const text = await post(paymentsUrl(), HOSTED, 'amount=1', { 'content-type': 'text/plain' });
    conforms(PAYMENTS, 'post', text, 415, 'unsupported_media_type');
  });

  it('503 when the payment store is down, with Retry-After', async () => {
    for (let i = 0; i < 3; i++) server.repository.injectFailure('insert');
    conforms(PAYMENTS, 'post', await post(paymentsUrl(), HOSTED, hostedRequest()), 503, 'unavailable');
  });
});

describe(`GET ${PAYMENTS}`, () => {
  it('200: a page, with next_cursor when more follow', async () => {
    await post(paymentsUrl(), HOSTED, hostedRequest());
    const page = await get(`${paymentsUrl()}?limit=1`, HOSTED);
    conforms(PAYMENTS, 'get', page, 200);
    expect(page.json.items).toHaveLength(1);
    const next = await get(`${paymentsUrl()}?limit=1&after=${page.json.next_cursor as string}`, HOSTED);
    conforms(PAYMENTS, 'get', next, 200);
  });

  it('400 for a bad limit, 401, 403, 406 and 503', async () => {
    conforms(PAYMENTS, 'get', await get(`${paymentsUrl()}?limit=0`, HOSTED), 400, 'validation_failed');
    conforms(PAYMENTS, 'get', await call(paymentsUrl()), 401, 'unauthorized');
    conforms(PAYMENTS, 'get', await get(paymentsUrl(), OUTLET), 403, 'forbidden_profile');
    conforms(PAYMENTS, 'get', await get(paymentsUrl(), HOSTED, { accept: 'text/html' }), 406, 'not_acceptable');
    for (let i = 0; i < 3; i++) server.repository.injectFailure('list');
    conforms(PAYMENTS, 'get', await get(paymentsUrl(), HOSTED), 503, 'unavailable');
  });
});

describe(`GET ${PAYMENT} and ${SELF}`, () => {
  it('200 through both paths', async () => {
    const id = created.json.id as string;
    conforms(PAYMENT, 'get', await get(`${paymentsUrl()}/${id}`, HOSTED), 200);
    conforms(SELF, 'get', await get(url(created.json._links.self.href as string), HOSTED), 200);
  });

  it('404 for an unknown payment and for another partner, 400 for an unknown query parameter', async () => {
    conforms(PAYMENT, 'get', await get(`${paymentsUrl()}/payment_0000`, HOSTED), 404, 'not_found');
    const other = url(`/v1/partners/partner_other/profiles/profile_webshop/payments/${created.json.id as string}`);
    conforms(SELF, 'get', await get(other, HOSTED), 404, 'not_found');
    const query = await get(`${paymentsUrl()}/${created.json.id as string}?expand=all`, HOSTED);
    conforms(PAYMENT, 'get', query, 400, 'validation_failed');
  });

  it('401 and 403', async () => {
    conforms(PAYMENT, 'get', await get(`${paymentsUrl()}/${created.json.id as string}`, 'nope'), 401, 'unauthorized');
    conforms(PAYMENT, 'get', await get(`${paymentsUrl()}/payment_0000`, OUTLET), 403, 'forbidden_profile');
  });
});

describe(`GET ${PROFILE}`, () => {
  it('200: the profile a payment links to', async () => {
    const profile = await get(url(created.json._links.profile.href as string), HOSTED);
    conforms(PROFILE, 'get', profile, 200);
    expect(profile.json).toMatchObject({ id: 'profile_webshop', partner_id: 'partner_sandbox' });
  });

  it('404 for another partner, 403 for a profile outside the client, 406', async () => {
    const path = '/v1/partners/partner_other/profiles/profile_webshop';
    conforms(PROFILE, 'get', await get(url(path), HOSTED), 404, 'not_found');
    const outlet = url('/v1/partners/partner_sandbox/profiles/profile_webshop');
    conforms(PROFILE, 'get', await get(outlet, OUTLET), 403, 'forbidden_profile');
    conforms(PROFILE, 'get', await get(outlet, HOSTED, { accept: 'text/html' }), 406, 'not_acceptable');
  });
});

describe('answers outside the operations', () => {
  it('405 with Allow and 404 for an unknown path are problem documents of the documented schema', async () => {
    const notAllowed = await call(paymentsUrl(), { method: 'DELETE', headers: bearer(HOSTED) });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers['allow']).toBe('GET, HEAD, POST');
    expect(validator.checkSchema('Problem', notAllowed.json)).toEqual([]);
    const unknown = await get(url('/v1/refunds'), HOSTED);
    expect(unknown.status).toBe(404);
    expect(validator.checkSchema('Problem', unknown.json)).toEqual([]);
    for (const answer of [notAllowed, unknown]) expect(answer.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  });
});

describe('the checker itself', () => {
  it('reports an undocumented field, status or media type and a missing required header', () => {
    const body = JSON.parse(created.text) as Record<string, unknown>;
    const answer = (status: number, headers: Record<string, string>, value: unknown) => ({
      status,
      headers,
      text: JSON.stringify(value),
    });
    const id = { 'request-id': 'req_0123456789abcdef0123456789abcdef' };
    const json = { 'content-type': 'application/json', location: '/x', ...id };
    expect(validator.check(PAYMENTS, 'post', answer(201, json, body))).toEqual([]);
    expect(validator.check(PAYMENTS, 'post', answer(201, json, { ...body, card_number: '4242' }))).not.toEqual([]);
    expect(validator.check(PAYMENTS, 'post', answer(201, { 'content-type': 'application/json', ...id }, body))).toEqual(
      ['header Location is missing'],
    );
    expect(
      validator.check(PAYMENTS, 'post', answer(201, { 'content-type': 'application/json', location: '/x' }, body)),
    ).toEqual(['header Request-Id is missing']);
    for (const bad of ['req id', '', 'x'.repeat(201)]) {
      expect(validator.check(PAYMENTS, 'post', answer(201, { ...json, 'request-id': bad }, body)), bad).not.toEqual([]);
    }
    expect(validator.check(PAYMENTS, 'post', answer(202, json, body))).not.toEqual([]);
    expect(validator.check(PAYMENTS, 'post', answer(201, { ...json, 'content-type': 'text/html' }, body))).not.toEqual(
      [],
    );
    const problem = {
      type: 'urn:paystate:problem:not_found',
      title: 'Not found',
      status: 404,
      detail: 'x',
      code: 'not_found',
    };
    expect(
      validator.check(PAYMENTS, 'post', answer(404, { 'content-type': 'application/problem+json' }, problem)),
    ).not.toEqual([]);
  });
});
