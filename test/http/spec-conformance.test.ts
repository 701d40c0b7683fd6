import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthenticationRequest } from '../../src/ports/three-ds-provider.js';
import { browser, directRequest, hostedRequest } from '../support/requests.js';
import { makeApi, serve, TOKENS, type ApiHarness, type RunningServer } from './support/api-harness.js';
import { post } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

/** Rules of decisions.md section 4 checked through the API, each found broken in a spec review. */
describe('spec conformance of POST /v1/profiles/{profile_id}/payments', () => {
  let api: ApiHarness;
  let server: RunningServer;
  let payments: string;
  const lookups: AuthenticationRequest[] = [];

  beforeAll(async () => {
    api = makeApi();
    const authenticate = api.threeDS.authenticate.bind(api.threeDS);
    api.threeDS.authenticate = (request) => {
      lookups.push(request);
      return authenticate(request);
    };
    server = await serve('node:http', api);
    payments = `${server.base}/v1/profiles/profile_alpha_main/payments`;
  });
  afterAll(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  it('sends a color_depth of 30 on to 3DS as 24 (and other depths as sent)', async () => {
    const depths: number[] = [];
    for (const depth of [30, 48, 24]) {
      lookups.length = 0;
      const user = { ...browser, color_depth: depth };
      const answer = await post(payments, TOKENS.alphaCompliant, directRequest('4000000000003055', { user }));
      expect(answer.status).toBe(201);
      expect(answer.json.state).toBe('succeeded');
      depths.push(...lookups.map((lookup) => lookup.browser.color_depth));
    }
    expect(depths).toEqual([24, 48, 24]);
  });

  it.each(['https:shop.example.com/return', 'https:/shop.example.com/return', 'http:localhost/return'])(
    'refuses the session.redirect_url %s, which a browser resolves against the redirecting page',
    async (url) => {
      const answer = await post(payments, TOKENS.alphaCompliant, hostedRequest({ session: { redirect_url: url } }));
      expectProblem(answer, 400, 'validation_failed');
      expect(answer.json.errors).toEqual([{ path: 'session.redirect_url', message: 'Must be an absolute URL' }]);
    },
  );

  it.each(['https://shop.example.com/return', 'HTTPS://shop.example.com/return', 'http://localhost:3000/return'])(
    'still accepts the session.redirect_url %s',
    async (url) => {
      const answer = await post(payments, TOKENS.alphaCompliant, hostedRequest({ session: { redirect_url: url } }));
      expect(answer.status).toBe(201);
      expect(answer.json.session.redirect_url).toBe(url);
    },
  );
});
