import { afterEach, describe, expect, it } from 'vitest';
import { hostedRequest } from '../support/requests.js';
import { makeApi, serve, TOKENS, type ApiHarness, type RunningServer } from './support/api-harness.js';
import { call, get, jsonHeaders, post } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

const MAIN = 'profile_alpha_main';

/**
 * What "the same request" and "the same key" mean (docs/http-api.md, Idempotency), as a client
 * sends them over the wire: pinned by a reviewing helper.
 */
describe('Idempotency-Key: the same body, the same key', () => {
  let api: ApiHarness;
  let server: RunningServer;
  let payments: string;

  async function start() {
    api = makeApi();
    server = await serve('node:http', api);
    payments = `${server.base}/v1/profiles/${MAIN}/payments`;
  }

  afterEach(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  it('the body is compared as the JSON value it parses to: escapes, number spellings and a repeated member do not matter', async () => {
    await start();
    const key = { 'idempotency-key': 'spelled' };
    const text = JSON.stringify(hostedRequest());
    const first = await post(payments, TOKENS.alphaCompliant, text, key);
    expect(first.status).toBe(201);
    const spellings = [
      text.replace('"amount":1999', '"amount":1.999e3'),
      text.replace('"amount":1999', '"amount":1999.0'),
      text.replace('"amount":1999', '"amount":1,"amount":1999'),
      text.replace('"currency":"EUR"', '"\\u0063urrency":"\\u0045UR"'),
      `\ufeff${text}`,
    ];
    for (const spelling of spellings) {
      const again = await post(payments, TOKENS.alphaCompliant, spelling, key);
      expect({ spelling, status: again.status, replayed: again.headers['idempotency-replayed'] }).toEqual({
        spelling,
        status: 201,
        replayed: 'true',
      });
      expect(again.text).toBe(first.text);
    }
    // The last of a repeated member counts, for the payment as for the key.
    expectProblem(
      await post(payments, TOKENS.alphaCompliant, text.replace('"amount":1999', '"amount":1999,"amount":1'), key),
      422,
      'idempotency_key_reused',
    );
    expect(api.repository.size()).toBe(1);
  });

  it('keys of 1 and 255 characters are taken, 256 and blank ones refused; spaces around a key are not part of it', async () => {
    await start();
    const send = (key: string) =>
      call(payments, {
        method: 'POST',
        headers: { ...jsonHeaders(TOKENS.alphaCompliant), 'idempotency-key': key },
        body: hostedRequest(),
      });
    expect((await send('a')).status).toBe(201);
    const longest = await send('k'.repeat(255));
    expect(longest.status).toBe(201);
    for (const refused of ['k'.repeat(256), '', '   ', 'tab\tinside', 'caf\u00e9']) {
      expectProblem(await send(refused), 400, 'validation_failed');
    }
    const padded = await send('  a  ');
    expect(padded.headers['idempotency-replayed']).toBe('true');
    expect((await send('A')).headers['idempotency-replayed']).toBeUndefined();
    expect(api.idempotency.size()).toBe(3);
    expect(api.repository.size()).toBe(3);
  });

  it('GET ignores the header, whatever it holds', async () => {
    await start();
    const listed = await get(payments, TOKENS.alphaCompliant, { 'idempotency-key': 'k'.repeat(300) });
    expect(listed.status).toBe(200);
    expect(api.idempotency.size()).toBe(0);
  });
});
