import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../adapters/http/index.js';
import { paymentSchema } from '../../src/schemas/index.js';
import { directRequest } from '../support/requests.js';
import { makeApi, TOKENS } from './support/api-harness.js';

const PAYMENTS = 'http://api.test/v1/profiles/profile_alpha_main/payments';
/** A 12-digit Maestro: its first 6 and last 4 digits would leave about 10 numbers to try. */
const MAESTRO_12 = '500000123454';

/** Found by an outside security review: a short card number could be rebuilt from its BIN and last four. */
describe('a card number under 16 digits over HTTP', () => {
  it('answers, reads back and replays a BIN short enough that 6 digits stay unknown', async () => {
    const api = makeApi();
    const handler = createFetchHandler(api.handlerOptions);
    const send = (method: string, url: string, body?: unknown) =>
      handler(
        new Request(url, {
          method,
          headers: {
            authorization: `Bearer ${TOKENS.alphaCompliant}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': 'maestro-1' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );

    const created = await send('POST', PAYMENTS, directRequest(MAESTRO_12));
    expect(created.status).toBe(201);
    const createdText = await created.text();
    const payment = JSON.parse(createdText) as { id: string; creditcard: { card: Record<string, unknown> } };
    expect(payment.creditcard.card).toMatchObject({ scheme: 'maestro', bin: '50', last4: '3454' });
    // The answer is one the published schema (and so the OpenAPI document) allows.
    expect(paymentSchema.safeParse(payment).success).toBe(true);

    const read = await send('GET', `${PAYMENTS}/${payment.id}`);
    const readText = await read.text();
    expect((JSON.parse(readText) as typeof payment).creditcard.card).toMatchObject({ bin: '50', last4: '3454' });

    const replayed = await send('POST', PAYMENTS, directRequest(MAESTRO_12));
    expect(replayed.headers.get('idempotency-replayed')).toBe('true');
    const replayedText = await replayed.text();
    expect(replayedText).toBe(createdText);

    for (const text of [createdText, readText, replayedText]) expect(text).not.toContain('500000');
    expect(api.acquirer.authorizations()[0]?.card).toEqual({ scheme: 'maestro', bin: '50', last4: '3454' });
  });
});
