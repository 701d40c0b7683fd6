import { ok } from 'neverthrow';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenIdOf } from '../../adapters/memory/index.js';
import { createNodeListener } from '../../adapters/http/index.js';
import type { CredentialStore } from '../../src/ports/credential-store.js';
import { closeAll, listenApp } from '../express/support/express-host.js';
import { makeApi, TOKENS } from './support/api-harness.js';
import { get } from './support/client.js';

/**
 * The API's line per request names which token authenticated (`tokenId`), so that during a
 * rotation an operator sees whether the old token is still in use; never the token itself.
 */

afterEach(closeAll);

const PROFILE = 'profile_alpha_main';

async function requestLine(credentials: CredentialStore | undefined, token: string) {
  const api = makeApi();
  const origin = await listenApp(
    createNodeListener({ ...api.handlerOptions, ...(credentials !== undefined && { credentials }) }),
  );
  const answer = await get(`${origin}/v1/profiles/${PROFILE}/payments`, token);
  expect(answer.status).toBe(200);
  return api.logs.find((line) => line.message === 'http request')?.fields;
}

describe("the request line's tokenId", () => {
  it('names the token that authenticated, by the id listTokens shows', async () => {
    const line = await requestLine(undefined, TOKENS.alphaCompliant);
    expect(line?.['tokenId']).toBe(tokenIdOf(TOKENS.alphaCompliant));
    expect(line?.['clientId']).toMatch(/^client_[0-9a-f]{16}$/);
    expect(JSON.stringify(line)).not.toContain(TOKENS.alphaCompliant);
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
