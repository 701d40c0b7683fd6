import { createHash } from 'node:crypto';
import { ok } from 'neverthrow';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeListener } from '../../adapters/http/index.js';
import type { CredentialStore } from '../../src/ports/credential-store.js';
import { closeAll, listenApp } from '../express/support/express-host.js';
import { makeApi, TOKENS } from './support/api-harness.js';
import { get } from './support/client.js';
import { expectOk } from '../contracts/payment-repository.contract.js';

/**
 * The API's line per request names which token authenticated (`tokenId`), so that during a
 * rotation an operator sees whether the old token is still in use; never the token itself.
 */

afterEach(closeAll);

const PROFILE = 'profile_alpha_main';

/** The `http request` lines of `count` requests with `token`, on one API. */
async function requestLines(credentials: CredentialStore | undefined, token: string, count = 1, api = makeApi()) {
  const origin = await listenApp(
    createNodeListener({ ...api.handlerOptions, ...(credentials !== undefined && { credentials }) }),
  );
  for (let index = 0; index < count; index++) {
    expect((await get(`${origin}/v1/profiles/${PROFILE}/payments`, token)).status).toBe(200);
  }
  return api.logs.filter((line) => line.message === 'http request').map((line) => line.fields);
}

async function requestLine(credentials: CredentialStore | undefined, token: string) {
  return (await requestLines(credentials, token))[0];
}

const sha256Hex = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

describe("the request line's tokenId", () => {
  // Found by a security review: it was the first 16 hex digits of the token's SHA-256, so a weak
  // token was one lookup away from anyone reading the log.
  it('names the token that authenticated by the id listTokens shows, the same on every request, nothing of the token', async () => {
    const api = makeApi();
    const store = api.credentials;
    const client = await expectOk(store.authenticate(TOKENS.alphaCompliant));
    const listed = await expectOk(store.listTokens(client!.id));
    const lines = await requestLines(undefined, TOKENS.alphaCompliant, 3, api);
    expect(lines.map((line) => line['tokenId'])).toEqual(Array(3).fill(listed![0]!.tokenId));
    expect(lines[0]?.['tokenId']).toMatch(/^[0-9a-f]{16}$/);
    expect(sha256Hex(TOKENS.alphaCompliant)).not.toContain(lines[0]?.['tokenId']);
    expect(lines[0]?.['clientId']).toMatch(/^client_[0-9a-f]{16}$/);
    expect(JSON.stringify(lines)).not.toContain(TOKENS.alphaCompliant);
    // Another token has an id of its own.
    const other = (await requestLines(undefined, TOKENS.alphaHosted, 1, api)).at(-1);
    expect(other?.['tokenId']).toMatch(/^[0-9a-f]{16}$/);
    expect(other?.['tokenId']).not.toBe(lines[0]?.['tokenId']);
  });

  it("is left out when a store's tokenId is the token, a part of it, or not a short safe id", async () => {
    const api = makeApi();
    const store = api.handlerOptions.credentials;
    for (const tokenId of [
      TOKENS.alphaCompliant,
      TOKENS.alphaCompliant.slice(4, 14),
      'a b',
      'x'.repeat(65),
      '4242424242424242',
    ]) {
      const leaky: CredentialStore = {
        findProfile: (id) => store.findProfile(id),
        authenticate: async (token) => {
          const found = await store.authenticate(token);
          return found.isOk() && found.value !== null ? ok({ ...found.value, tokenId }) : found;
        },
      };
      const line = await requestLine(leaky, TOKENS.alphaCompliant);
      expect(line?.['clientId'], tokenId).toMatch(/^client_/);
      expect(line && 'tokenId' in line, tokenId).toBe(false);
    }
  });
});
