import { afterEach, describe, expect, it } from 'vitest';
import type { IdempotencyStore } from '../../src/index.js';
import { browser, directRequest } from '../support/requests.js';
import { makeApi, serve, TOKENS, type ApiHarness, type RunningServer } from './support/api-harness.js';
import { get, post } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

const MAIN = 'profile_alpha_main';

/**
 * What the idempotency store keeps of a keyed create (the key, and a fingerprint of the body, for
 * 24 hours, in Postgres too) must not give away a card number: found by a reviewing helper.
 */
describe('Idempotency-Key entries hold no card number (found by a reviewing helper)', () => {
  let api: ApiHarness;
  let server: RunningServer;
  let payments: string;
  /** The fingerprints `begin` was given, in order. */
  let fingerprints: string[];

  async function start() {
    api = makeApi();
    fingerprints = [];
    const inner = api.handlerOptions.idempotency;
    const idempotency: IdempotencyStore = {
      begin: (request) => {
        fingerprints.push(request.fingerprint);
        return inner.begin(request);
      },
      complete: (request) => inner.complete(request),
      release: (request) => inner.release(request),
      purgeExpired: (now) => inner.purgeExpired(now),
    };
    server = await serve('node:http', { ...api, handlerOptions: { ...api.handlerOptions, idempotency } });
    payments = `${server.base}/v1/profiles/${MAIN}/payments`;
  }

  afterEach(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  it.each([
    ['percent-encoded', 'order%204242%204242%204242%204242'],
    ['percent-encoded digits', 'retry-%34%32%34%32%34%32%34%32%34%32%34%32%34%32%34%32'],
  ])('a key that holds a card number %s is refused before anything is stored', async (_, key) => {
    await start();
    const refused = await post(payments, TOKENS.alphaCompliant, directRequest('4242424242424242'), {
      'idempotency-key': key,
    });
    expectProblem(refused, 400, 'validation_failed');
    expect(refused.json.errors).toEqual([{ path: 'Idempotency-Key', message: 'Must not contain a card number' }]);
    expect(refused.text).not.toMatch(/4242|%34%32/);
    expect(api.idempotency.size()).toBe(0);
    expect(api.repository.size()).toBe(0);
  });

  it('percent signs in a key are otherwise fine', async () => {
    await start();
    const created = await post(payments, TOKENS.alphaCompliant, directRequest('4242424242424242'), {
      'idempotency-key': 'order%201234%2Fretry-2',
    });
    expect(created.status).toBe(201);
  });

  it('the fingerprint of a body whose browser headers hold a card number depends only on what the payment keeps', async () => {
    await start();
    // A user agent with the card number in it: the payment is created, the header kept with its
    // digits masked. Were the fingerprint a hash of the header as sent, the payment (which shows
    // the card's first six and last four digits, and where the masked digits were) would leave
    // six unknown digits to try against it: the card number, in effect, kept for 24 hours.
    const bodyWith = (number: string) =>
      directRequest('4242424242424242', { user: { ...browser, user_agent: `Mozilla/5.0 (card ${number})` } });
    const first = await post(payments, TOKENS.alphaCompliant, bodyWith('4242424242424242'), {
      'idempotency-key': 'ua-1',
    });
    const second = await post(payments, TOKENS.alphaCompliant, bodyWith('4000056655665556'), {
      'idempotency-key': 'ua-2',
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    // Both payments keep the same user agent: the digits are masked alike.
    const kept = async (id: string) =>
      (await api.engine.getPaymentRecord(id))._unsafeUnwrap().browser?.user_agent ?? 'none';
    expect(await kept(String(first.json.id))).toBe(await kept(String(second.json.id)));
    expect(await kept(String(first.json.id))).not.toMatch(/4242/);
    // So the fingerprints are alike too: nothing of the masked digits is kept.
    expect(fingerprints).toHaveLength(2);
    expect(fingerprints[0]).toBe(fingerprints[1]);

    // And under one key the two bodies are the same request: the first answer is replayed.
    const replayed = await post(payments, TOKENS.alphaCompliant, bodyWith('4000056655665556'), {
      'idempotency-key': 'ua-1',
    });
    expect(replayed.headers['idempotency-replayed']).toBe('true');
    expect(replayed.text).toBe(first.text);
    expect((await get(`${payments}/${String(first.json.id)}`, TOKENS.alphaCompliant)).status).toBe(200);
  });
});
