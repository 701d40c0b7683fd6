import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ok } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeListener } from '../../adapters/http/index.js';
import type { Client, CredentialStore, Profile } from '../../src/index.js';
import { hostedRequest } from '../support/requests.js';
import { makeApi, type ApiHarness } from './support/api-harness.js';
import { get, post } from './support/client.js';

/*
 * Found by a reviewing helper: a host's own credential store may hold ids that are not URL-safe
 * (the bundled stores now refuse them). Links used to carry them raw: `shop/eu` gave a self link
 * that did not resolve, and `shop€` a `Location` header Node refused to write, so a 500 after
 * the payment was stored, replayed to every retry.
 */
const ODD_PROFILES = ['shop/eu', 'shop?x', 'café', 'shop€', 'a b', '%41'] as const;
const PARTNER = 'partner/odd €';
const TOKEN = 'tok_odd_ids';

const client: Client = { id: 'client_odd', partnerId: PARTNER, profileIds: ODD_PROFILES, pciDssCompliant: false };
const profiles = new Map<string, Profile>(
  ODD_PROFILES.map((id) => [id, { id, partnerId: PARTNER, name: `Shop ${id}` }]),
);
const credentials: CredentialStore = {
  authenticate: (token) => ok(token === TOKEN ? client : null),
  findProfile: (profileId) => ok(profiles.get(profileId) ?? null),
};

describe('ids that are not URL-safe in links (a host credential store)', () => {
  let api: ApiHarness;
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    api = makeApi();
    server = createServer(createNodeListener({ ...api.handlerOptions, credentials }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    expect(api.unhandled()).toEqual([]);
  });

  it.each(ODD_PROFILES)(
    'profile %j: 201 with a Location and links that resolve to the payment and profile',
    async (profileId) => {
      const created = await post(
        `${origin}/v1/profiles/${encodeURIComponent(profileId)}/payments`,
        TOKEN,
        hostedRequest(),
      );
      expect(created.status).toBe(201);
      const payment = created.json;
      const self = `/v1/partners/${encodeURIComponent(PARTNER)}/profiles/${encodeURIComponent(profileId)}/payments/${payment.id}`;
      expect(payment._links.self.href).toBe(self);
      expect(created.headers['location']).toBe(self);
      // What a browser or `fetch` makes of the links: the same paths, nothing collapsed.
      for (const link of [payment._links.self.href, payment._links.profile.href]) {
        expect(new URL(link, origin).pathname).toBe(link);
      }

      const viaSelf = await get(`${origin}${payment._links.self.href}`, TOKEN);
      expect(viaSelf.status).toBe(200);
      expect(viaSelf.json).toEqual(payment);
      const profile = await get(`${origin}${payment._links.profile.href}`, TOKEN);
      expect(profile.status).toBe(200);
      expect(profile.json).toMatchObject({ id: profileId, partner_id: PARTNER });
      expect(profile.json._links.self.href).toBe(payment._links.profile.href);
    },
  );
});
