import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../adapters/http/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { makeApi, TOKENS } from './support/api-harness.js';

async function create(key: string, body: unknown) {
  const api = makeApi();
  const handler = createFetchHandler(api.handlerOptions);
  const response = await handler(
    new Request('http://api.test/v1/profiles/profile_alpha_main/payments', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKENS.alphaCompliant}`,
        'content-type': 'application/json',
        accept: 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify(body),
    }),
  );
  return { api, status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('an Idempotency-Key that holds a card number (found by a reviewing helper)', () => {
  it.each([
    ['whole', 'order-4242424242424242'],
    ['in groups', '4242-4242-4242-4242'],
    ['a Mastercard, with dots', 'retry 5555.5555.5555.4444'],
    // Found by an outside security review: separators off the old fixed list, or six of them.
    ['with tildes', 'order-4242~4242~4242~4242'],
    ['with at signs', '4242@4242@4242@4242'],
    ['with six spaces', 'retry 4242      4242      4242      4242'],
    ['in brackets', '[4242](4242){4242}<4242>'],
  ])('is refused before anything is stored: %s', async (_, key) => {
    const { api, status, json } = await create(key, hostedRequest());
    expect(status).toBe(400);
    expect(json['code']).toBe('validation_failed');
    expect(json['errors']).toEqual([{ path: 'Idempotency-Key', message: 'Must not contain a card number' }]);
    expect(JSON.stringify(json)).not.toMatch(/4242|5555/);
    expect(api.calls.beyondCredentials()).toBe(0);
  });

  it('keys of digits that are no card number, and UUIDs, are taken as before', async () => {
    for (const key of ['1700000000000123', '8d9a5cbe-1f4e-4c1b-9a0e-5b8f3f0d2c11', 'order-1234-5678-9012']) {
      const { status } = await create(key, directRequest('4242424242424242'));
      expect(status).toBe(201);
    }
  });
});
