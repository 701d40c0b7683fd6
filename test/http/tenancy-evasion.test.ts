import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directRequest, hostedRequest } from '../support/requests.js';
import { makeApi, serve, SERVER_KINDS, TOKENS, type ApiHarness, type RunningServer } from './support/api-harness.js';
import { call, post, type Answer } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

/**
 * What the auth matrix does not try (a security review of tenancy): other spellings of another
 * client's profile in the path, answers for a foreign payment that must match those for none,
 * card data in odd shapes from a hosted-only client, and one key used by clients of two partners.
 */

/** Writes a request as raw bytes (any target, as sent) and reads until the server closes. */
function raw(port: number, bytes: string): Promise<{ readonly status: number; readonly text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), text }));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

const percentEncoded = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`).join('');

/** Spellings of `target` as a path segment, some reaching it from `own` through dot segments. */
function spellings(own: string, target: string): string[] {
  return [
    target,
    percentEncoded(target),
    `%25${percentEncoded(target).slice(1)}`,
    target.toUpperCase(),
    `${target};v=1`,
    `${target}%00`,
    `${target}%20`,
    target.replace('a', '\u0430'),
    `./${target}`,
    `${own}/../${target}`,
    `${own}/%2e%2e/${target}`,
    `${own}%2f..%2f${target}`,
    `${own}%2F%2E%2E%2F${target}`,
    `${own}\\..\\${target}`,
  ];
}

describe.each(SERVER_KINDS)('tenancy under hostile spellings, served by %s', (kind) => {
  let api: ApiHarness;
  let server: RunningServer;
  let alphaPayment = '';

  beforeAll(async () => {
    api = makeApi();
    server = await serve(kind, api);
    const created = await post(
      `${server.base}/v1/profiles/profile_alpha_main/payments`,
      TOKENS.alphaCompliant,
      hostedRequest(),
    );
    expect(created.status).toBe(201);
    alphaPayment = created.json.id;
  });
  afterAll(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  const attackers = [
    { token: TOKENS.alphaSecondOnly, own: 'profile_alpha_second', partner: 'partner_alpha' },
    { token: TOKENS.betaCompliant, own: 'profile_beta_main', partner: 'partner_beta' },
  ] as const;

  it.each(attackers)('$own never reads, lists or creates in profile_alpha_main', async ({ token, own, partner }) => {
    const body = JSON.stringify(hostedRequest());
    const before = api.repository.snapshot().filter((record) => record.profileId !== own).length;
    for (const profile of spellings(own, 'profile_alpha_main')) {
      const reads = [
        `/v1/profiles/${profile}/payments/${alphaPayment}`,
        `/v1/profiles/${profile}/payments/${alphaPayment}/`,
        `//v1/profiles/${profile}/payments/${alphaPayment}`,
        `/v1//profiles/${profile}/payments/${alphaPayment}`,
        `/v1/profiles/${profile}/payments`,
        `/v1/profiles/${profile}/payments?after=${alphaPayment}`,
        `/v1/partners/${partner}/profiles/${profile}/payments/${alphaPayment}`,
        `/v1/partners/partner_alpha/profiles/${profile}/payments/${alphaPayment}`,
        `/v1/partners/${partner}/../partner_alpha/profiles/${profile}/payments/${alphaPayment}`,
        `/v1/profiles/${own}/payments/../../${profile}/payments/${alphaPayment}`,
        `/v1/partners/partner_alpha/profiles/${profile}`,
      ];
      for (const path of reads) {
        for (const target of [
          `${server.basePath}${path}`,
          `http://127.0.0.1:${server.port}${server.basePath}${path}`,
        ]) {
          const answer = await raw(
            server.port,
            `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
          );
          // A host's own 404 page may quote the path; no paystate answer names the payment.
          if (answer.status < 400) {
            expect({ target, leaked: answer.text.includes(alphaPayment) }).toEqual({ target, leaked: false });
          }
          if (answer.status === 200 && !path.includes('/payments')) {
            expect.fail(`${target} answered another profile's resource`);
          }
        }
      }
      const collection = `${server.basePath}/v1/profiles/${profile}/payments`;
      await raw(
        server.port,
        `POST ${collection} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    // Whatever was created, was created in the attacker's own profile.
    expect(api.repository.snapshot().filter((record) => record.profileId !== own)).toHaveLength(before);
  });

  it('a foreign payment and no payment get the same answer, byte for byte', async () => {
    const none = `payment_${'f'.repeat(32)}`;
    const paths = [
      '/v1/profiles/profile_beta_main/payments/ID',
      '/v1/partners/partner_beta/profiles/profile_beta_main/payments/ID',
      '/v1/partners/partner_alpha/profiles/profile_alpha_main/payments/ID',
      '/v1/profiles/profile_beta_main/payments?after=ID',
    ];
    for (const path of paths) {
      const read = (id: string) =>
        call(`${server.base}${path.replace('ID', id)}`, {
          headers: { authorization: `Bearer ${TOKENS.betaCompliant}` },
        });
      const [foreign, missing] = await Promise.all([read(alphaPayment), read(none)]);
      // Each request has its own id: the only header (with the date) that may differ.
      const shown = (answer: Answer) => {
        const { date: _date, 'request-id': requestId, ...headers } = answer.headers;
        expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
        return { status: answer.status, headers, text: answer.text };
      };
      expect(shown(foreign)).toEqual(shown(missing));
      expect(foreign.headers['request-id']).not.toBe(missing.headers['request-id']);
    }
  });

  it('card data in any shape from a hosted-only client is refused before any port', async () => {
    const card = directRequest('4242424242424242')['creditcard'];
    const refused: Record<string, unknown> = {
      null: { ...hostedRequest(), creditcard: null },
      empty: { ...hostedRequest(), creditcard: {} },
      array: { ...hostedRequest(), creditcard: [] },
      false: { ...hostedRequest(), creditcard: false },
      escaped: `{"\\u0063reditcard":${JSON.stringify(card)},${JSON.stringify(hostedRequest()).slice(1)}`,
      duplicate: `{"creditcard":null,${JSON.stringify(directRequest('4242424242424242')).slice(1)}`,
    };
    const invalid: Record<string, unknown> = {
      nested: { ...hostedRequest(), session: { redirect_url: 'https://shop.example.com/r', creditcard: card } },
      proto: `{"__proto__":{"creditcard":${JSON.stringify(card)}},${JSON.stringify(hostedRequest()).slice(1)}`,
      cased: { ...hostedRequest(), CreditCard: card },
    };
    const send = (body: unknown) =>
      call(`${server.base}/v1/profiles/profile_alpha_main/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKENS.alphaHosted}`, 'content-type': 'application/json' },
        body,
      });
    const calls = api.calls.beyondCredentials();
    for (const body of Object.values(refused)) expectProblem(await send(body), 403, 'direct_flow_not_permitted');
    expect(api.calls.beyondCredentials()).toBe(calls);
    const stored = api.repository.snapshot();
    for (const body of Object.values(invalid)) expectProblem(await send(body), 400, 'validation_failed');
    expect(api.repository.snapshot()).toEqual(stored);
    expect(api.calls.counts.get('cardVault.put') ?? 0).toBe(0);
  });

  it('a key another partner’s client used (completed or refused) tells nothing', async () => {
    const key = { 'idempotency-key': `shared-${kind}` };
    const alpha = `${server.base}/v1/profiles/profile_alpha_main/payments`;
    const beta = `${server.base}/v1/profiles/profile_beta_main/payments`;
    expect((await post(alpha, TOKENS.alphaCompliant, hostedRequest(), key)).status).toBe(201);
    const first = await post(beta, TOKENS.betaCompliant, hostedRequest(), key);
    expect(first.status).toBe(201);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    expect(first.json._links.profile.href).toBe(
      `${server.basePath}/v1/partners/partner_beta/profiles/profile_beta_main`,
    );
    // Same path and body as alpha's request, from beta: refused for the profile, not for the key.
    expectProblem(await post(alpha, TOKENS.betaCompliant, hostedRequest(), key), 403, 'forbidden_profile');
  });
});
