import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../adapters/http/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { makeApi, TOKENS, type ApiHarness } from './support/api-harness.js';

/*
 * GET /v1/profiles/{profile_id}/payments?limit=&after= (decisions.md section 2), from the outside:
 * what a client gets for each cursor and limit it may send.
 */

const MAIN = 'profile_alpha_main';
const LIST_PATH = `/v1/profiles/${MAIN}/payments`;
const LIST = `http://api.test${LIST_PATH}`;

interface Page {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
  readonly json: any;
}

describe('the payment list', () => {
  let api: ApiHarness;
  let handler: (request: Request) => Promise<Response>;
  /** profile_alpha_main's payments, oldest first. */
  const mine: string[] = [];
  let otherProfile: string;
  let otherPartner: string;

  const send = async (url: string, token: string, body?: unknown): Promise<Page> => {
    const response = await handler(
      new Request(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    );
    const text = await response.text();
    return { status: response.status, contentType: response.headers.get('content-type'), text, json: JSON.parse(text) };
  };

  beforeAll(async () => {
    api = makeApi();
    handler = createFetchHandler(api.handlerOptions);
    for (let index = 0; index < 3; index++) {
      const created = await send(LIST, TOKENS.alphaCompliant, directRequest('4242424242424242'));
      expect(created.status).toBe(201);
      mine.push(created.json.id as string);
      api.clock.advance(1);
    }
    otherProfile = (
      await send('http://api.test/v1/profiles/profile_alpha_second/payments', TOKENS.alphaCompliant, hostedRequest())
    ).json.id as string;
    otherPartner = (
      await send('http://api.test/v1/profiles/profile_beta_main/payments', TOKENS.betaCompliant, hostedRequest())
    ).json.id as string;
  });
  afterAll(() => {
    expect(api.unhandled()).toEqual([]);
  });

  it('refuses a cursor that is no payment of the list: 400 on after, the same for unknown and foreign', async () => {
    // An empty page here would read as the end of the list: a client would stop, having missed the rest.
    const unknown = await send(`${LIST}?after=payment_${'e'.repeat(32)}`, TOKENS.alphaCompliant);
    expect(unknown.status).toBe(400);
    expect(unknown.contentType).toBe('application/problem+json');
    expect(unknown.json).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'after', message: 'Must be a payment of this list, as next_cursor gives it' }],
    });
    for (const foreign of [otherProfile, otherPartner]) {
      const answer = await send(`${LIST}?after=${foreign}&limit=5`, TOKENS.alphaCompliant);
      expect({ status: answer.status, text: answer.text }).toEqual({ status: 400, text: unknown.text });
    }
  });

  it('takes any payment of the list as a cursor: its oldest gives an empty last page', async () => {
    const oldest = await send(`${LIST}?after=${mine[0] as string}`, TOKENS.alphaCompliant);
    expect({ status: oldest.status, json: oldest.json }).toEqual({
      status: 200,
      json: {
        items: [],
        _links: { self: { href: `${LIST_PATH}?after=${mine[0] as string}`, type: 'application/json' } },
      },
    });
    const middle = await send(`${LIST}?after=${mine[2] as string}&limit=1`, TOKENS.alphaCompliant);
    expect(middle.json.items.map((item: { id: string }) => item.id)).toEqual([mine[1]]);
    expect(middle.json.next_cursor).toBe(mine[1]);
    expect(middle.json._links).toEqual({
      self: { href: `${LIST_PATH}?limit=1&after=${mine[2] as string}`, type: 'application/json' },
      next: { href: `${LIST_PATH}?limit=1&after=${mine[1] as string}`, type: 'application/json' },
    });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=20abc', 'limit'],
    ['limit=1e2', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=', 'limit'],
    ['limit=1.0', 'limit'],
    ['limit=0x10', 'limit'],
    ['limit=%2B5', 'limit'],
    ['limit=5&limit=5', 'limit'],
    ['after=', 'after'],
    [`after=payment_${'A'.repeat(32)}`, 'after'],
    [`after=payment_${'a'.repeat(33)}`, 'after'],
    [`after=${'a'.repeat(10_000)}`, 'after'],
    ['after=%00', 'after'],
    ['cursor=x', 'cursor'],
    ['offset=20', 'offset'],
  ])('answers %s with 400 validation_failed on %s', async (query, path) => {
    const answer = await send(`${LIST}?${query}`, TOKENS.alphaCompliant);
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('validation_failed');
    expect(answer.json.errors.map((issue: { path: string }) => issue.path)).toEqual([path]);
    expect(answer.text).not.toContain('a'.repeat(100));
  });

  it('shows the card as BIN and last four only', async () => {
    const page = await send(`${LIST}?limit=100`, TOKENS.alphaCompliant);
    expect(page.status).toBe(200);
    expect(page.json.items).toHaveLength(3);
    expect(page.json.next_cursor).toBeUndefined();
    expect(page.text).not.toContain('4242424242424242');
    for (const item of page.json.items) {
      expect(item.creditcard.card).toMatchObject({ bin: '42424242', last4: '4242' });
      expect(JSON.stringify(item.creditcard)).not.toMatch(/cvc|"number"/);
    }
  });
});
